package subprocess

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// roundTripTimes are a request's times for Config.OnRoundTrip (zero without it).
type roundTripTimes struct{ read, decoded, answered time.Time }

// readStdout is the stdout reader, the transport's one reader goroutine: it reads lines, decodes
// them, routes answers to the SDK's pending requests, starts the CLI's requests, and queues the
// rest for Next. It never blocks on the consumer (the inbox is unbounded) nor on a request (each
// runs on a goroutine of its own). It returns at EOF or on a read error.
func (t *Transport) readStdout(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	lineNo := 0
	for {
		var head []byte
		line, size, err := readLineHead(br, t.cfg.MaxLineSize, &head)
		var times roundTripTimes
		if t.cfg.OnRoundTrip != nil {
			times.read = time.Now()
		}
		if size > 0 || err == nil {
			lineNo++
			t.stats.lines.Add(1)
			if line == nil && size > 0 {
				t.stats.oversized.Add(1)
				tooLong := &shared.LineTooLongError{Size: size, Limit: t.cfg.MaxLineSize}
				t.inbox.push(inboxItem{err: &shared.ProtocolError{Line: lineNo, Err: tooLong}})
				// A request cut here must still be answered (and denied where it guards a tool).
				t.answerUndecodable(head, tooLong)
			} else {
				t.handleLine(lineNo, line, times)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.logger.Warn("subprocess: reading CLI stdout", "error", err)
			}
			return
		}
	}
}

// errNotJSONRequest says a line that looks like a request is not valid JSON (cut short).
var errNotJSONRequest = errors.New("the line is not valid JSON (cut short?)")

// handleLine handles one stdout line on the reader goroutine.
func (t *Transport) handleLine(lineNo int, line []byte, times roundTripTimes) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
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
			return
		}
		t.stats.decode.Add(1)
		t.inbox.push(inboxItem{err: &shared.ProtocolError{Line: lineNo, Err: err}})
		t.answerUndecodable(line, err)
		return
	}
	if t.cfg.OnMessage != nil {
		t.cfg.OnMessage(msg)
	}
	switch m := msg.(type) {
	case *parser.ControlRequest:
		switch m.Subtype {
		case "hook_callback":
			t.startHookCallback(m, times)
		case "can_use_tool":
			t.startPermission(m, times)
		case "mcp_message":
			t.startMCP(m, times)
		default:
			if t.startHostRequest(m, times) { // hostrequests.go
				return
			}
			times.answered = times.decoded // the refusal needs no decision
			t.answerError(m.RequestID, "unsupported control request subtype: "+m.Subtype)
			t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		}
		return
	case *parser.ControlResponse:
		if !t.reqs.resolve(m) {
			t.logger.Debug("subprocess: control_response for an unknown request", "request_id", m.RequestID)
		}
		return
	case *parser.ControlCancel:
		t.reqs.cancel(m.RequestID)
		return
	case *parser.HookEventLine:
		t.startHookEvent(m, times)
		return
	case *shared.SystemMessage:
		if t.cfg.HookEvents {
			msg = t.hookEvents.convert(m)
		}
	}
	t.inbox.push(inboxItem{msg: msg})
}
