package subprocess

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// roundTripTimes are a request's times for Config.OnRoundTrip (zero without it).
type roundTripTimes struct{ read, decoded, answered time.Time }

// stdoutLines is the CLI's stdout as lines, and how many were read. One goroutine at a time reads
// it: the stdout reader of the moment (see readStdout).
type stdoutLines struct {
	br     *bufio.Reader
	lineNo int
}

func newStdoutLines(r io.Reader) *stdoutLines {
	return &stdoutLines{br: bufio.NewReaderSize(r, 64<<10)}
}

// readStdout is the stdout reader: it reads lines, decodes them, routes answers to the SDK's
// pending requests, registers the CLI's requests, and queues the rest for Next. It never blocks on
// the consumer (the inbox is unbounded). A decision the CLI waits for (a hook, a permission
// prompt) is served on the reader's goroutine, which is warm and needs no wake-up; one still
// running after handOffAfter hands the reading to a new goroutine (serveOnReader), so a slow
// handler stops the reading for at most that long. atEOF runs on the reader that meets EOF or a
// read error, which then returns; a reader that handed the reading on returns when its request
// has been served.
func (t *Transport) readStdout(src *stdoutLines, atEOF func()) {
	for {
		serve, err := t.readLine(src)
		if serve != nil && !serveOnReader(serve, func() { t.readStdout(src, atEOF) }) {
			return // another goroutine reads now
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.logger.Warn("subprocess: reading CLI stdout", "error", err)
			}
			atEOF()
			return
		}
	}
}

// handOffAfter is how long a request may run on the reader's goroutine before a new goroutine
// takes the reading over. A Go hook that decides from its input answers in microseconds, far
// under it; one that waits (on a network, a person, the session itself) is handed off.
const handOffAfter = time.Millisecond

// serveOnReader runs serve on the reader's goroutine and reports whether this goroutine is still
// the reader when serve returns. If serve is still running after handOffAfter, a timer's goroutine
// becomes the reader (goOnReading), and this one ends when serve returns. Exactly one goroutine
// reads: the first to claim the reading after serve began, the timer's or this one.
func serveOnReader(serve, goOnReading func()) (stillReader bool) {
	var claimed atomic.Bool
	handOff := time.AfterFunc(handOffAfter, func() {
		if claimed.CompareAndSwap(false, true) {
			goOnReading()
		}
	})
	serve()
	handOff.Stop()
	return claimed.CompareAndSwap(false, true)
}

// readLine reads and handles one stdout line; serve, if not nil, serves the request it
// registered (readStdout runs it).
func (t *Transport) readLine(src *stdoutLines) (serve func(), err error) {
	var head []byte
	line, size, err := readLineHead(src.br, t.cfg.MaxLineSize, &head)
	var times roundTripTimes
	if t.cfg.OnRoundTrip != nil {
		times.read = time.Now()
	}
	if size == 0 && err != nil {
		return nil, err
	}
	src.lineNo++
	t.stats.lines.Add(1)
	if line == nil && size > 0 {
		t.stats.oversized.Add(1)
		tooLong := &shared.LineTooLongError{Size: size, Limit: t.cfg.MaxLineSize}
		t.inbox.push(inboxItem{err: &shared.ProtocolError{Line: src.lineNo, Err: tooLong}})
		// A request cut here must still be answered (and denied where it guards a tool).
		t.answerUndecodable(head, tooLong)
		return nil, err
	}
	return t.handleLine(src.lineNo, line, times), err
}

// errNotJSONRequest says a line that looks like a request is not valid JSON (cut short).
var errNotJSONRequest = errors.New("the line is not valid JSON (cut short?)")

// handleLine handles one stdout line on the reader goroutine. A request it registered is
// returned as serve, for readStdout to run.
func (t *Transport) handleLine(lineNo int, line []byte, times roundTripTimes) (serve func()) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	msg, err := parser.Parse(line)
	if t.cfg.OnRoundTrip != nil {
		times.decoded = time.Now()
	}
	if err != nil {
		if errors.Is(err, parser.ErrNotJSON) {
			t.stats.noise.Add(1)
			t.logger.Debug("subprocess: skipped a non-JSON line", "line", lineNo, "bytes", len(line))
			// A request cut short is not JSON, but its id may still be read: answer it.
			t.answerUndecodable(line, errNotJSONRequest)
			return nil
		}
		t.stats.decode.Add(1)
		t.inbox.push(inboxItem{err: &shared.ProtocolError{Line: lineNo, Err: err}})
		t.answerUndecodable(line, err)
		return nil
	}
	if t.cfg.OnMessage != nil {
		t.cfg.OnMessage(msg)
	}
	switch m := msg.(type) {
	case *parser.ControlRequest:
		switch m.Subtype {
		case "hook_callback":
			return t.startHookCallback(m, times)
		case "can_use_tool":
			return t.startPermission(m, times)
		case "mcp_message":
			return t.startMCP(m, times)
		}
		if t.startHostRequest(m, times) { // hostrequests.go
			return nil
		}
		times.answered = times.decoded // the refusal needs no decision
		t.answerError(m.RequestID, "unsupported control request subtype: "+m.Subtype)
		t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		return nil
	case *parser.ControlResponse:
		if !t.reqs.resolve(m) {
			t.logger.Debug("subprocess: control_response for an unknown request", "request_id", m.RequestID)
		}
		return nil
	case *parser.ControlCancel:
		t.reqs.cancel(m.RequestID)
		return nil
	case *parser.HookEventLine:
		return t.startHookEvent(m, times)
	case *shared.SystemMessage:
		if t.cfg.HookEvents {
			msg = t.hookEvents.convert(m)
		}
	}
	t.inbox.push(inboxItem{msg: msg})
	return nil
}
