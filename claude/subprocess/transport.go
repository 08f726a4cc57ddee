// Package subprocess runs the Claude CLI as a child process and speaks its stream-json protocol:
// one goroutine reads stdout line by line, hook requests are answered by the HookExecutor, control
// requests from the SDK are correlated by id, and writes to stdin are serialised.
//
// Goroutines per transport: the stdout reader, the stderr drainer and the process waiter (all three
// end when the process has exited and its pipes are drained). A CLI request (a hook or a permission
// prompt) runs on the stdout reader itself, so that a quick hook is answered without a goroutine
// switch; one still running after a millisecond hands the reading on to a new goroutine and keeps
// the old one until it ends. A hook handler that overruns its timeout is answered by its watchdog
// (a timer goroutine). Close stops the process and waits for the readers and for every request to
// be answered or cancelled; a handler that ignores its ctx may outlive Close.
package subprocess

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/internal/wire"
	"github.com/tidwall/gjson"
)

// Defaults of Config.
const (
	DefaultMaxLineSize    = 100 << 20 // 100 MiB: tool results of tens of MB occur
	DefaultStderrTail     = 64 << 10
	DefaultCloseGrace     = 2 * time.Second
	DefaultWriteTimeout   = 30 * time.Second
	DefaultRequestTimeout = 60 * time.Second
)

// CanUseToolFunc decides a permission prompt (a can_use_tool request). An error or a panic denies.
type CanUseToolFunc func(ctx context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error)

// Config configures a Transport. Only CLIPath is required.
type Config struct {
	// CLIPath is the CLI binary (see FindCLI).
	CLIPath string
	// Args are the CLI's arguments.
	Args []string
	// Dir is the CLI's working directory; "" means the current one.
	Dir string
	// BaseEnv replaces os.Environ() as the base environment when non-nil. Env is added on top.
	// CLAUDECODE is always removed.
	BaseEnv []string
	Env     []string
	// Hooks answers hook requests; nil means no Go hooks (every hook request is answered with {},
	// or with a denial for events that guard an action).
	Hooks *HookExecutor
	// CanUseTool answers can_use_tool requests; nil denies them.
	CanUseTool CanUseToolFunc
	// MaxLineSize bounds one stdout line (default DefaultMaxLineSize). Longer lines are skipped
	// and reported as a *LineTooLongError.
	MaxLineSize int
	// StderrTail is how many bytes of stderr are kept for errors (default DefaultStderrTail).
	StderrTail int
	// OnStderr, if set, gets every stderr line. It runs on the stderr goroutine.
	OnStderr func(line string)
	// Logger; nil means slog.Default(). Tool inputs and environment values are never logged.
	Logger *slog.Logger
	// CloseGrace is how long Close waits after closing stdin, and again after SIGTERM, before it
	// escalates (default DefaultCloseGrace).
	CloseGrace time.Duration
	// WriteTimeout bounds one write to stdin (default DefaultWriteTimeout); a CLI that stops
	// reading makes writes fail with ErrStalled instead of blocking forever.
	WriteTimeout time.Duration
	// RequestTimeout bounds a control request to the CLI (default DefaultRequestTimeout).
	RequestTimeout time.Duration
	// OnMessage, if set, sees every decoded message on the reader goroutine before it is queued,
	// including the control traffic the transport answers itself. It must be fast and must not
	// call the transport.
	OnMessage func(shared.Message)
	// HookEvents turns the CLI's system hook_started / hook_progress / hook_response messages (its
	// settings command hooks) into *shared.HookStarted / HookProgress / HookResponse with Source
	// "cli", the types of the SDK's own hook events. Default: false (they stay *shared.SystemMessage).
	HookEvents bool
	// OnRoundTrip, if set, is called once for each CLI request the transport answers (a hook, a
	// permission prompt, a refused subtype) with when its line was read, decoded and answered, and
	// when the answer was written: the SDK's own share of a round trip, in three parts. It runs on the goroutine that wrote the answer,
	// after the write; it must be fast and must not call the transport. A request answered by
	// nobody (cancelled by the CLI, or the session closed) is not reported. Default: nil, and then
	// the transport reads no clock for it.
	OnRoundTrip func(RoundTrip)
}

// RoundTrip is one CLI request the transport answered, for Config.OnRoundTrip.
type RoundTrip struct {
	// RequestID is the request's id (for a spec-framed hook_event, its request_id or a key
	// made from its tool_use_id).
	RequestID string
	// Subtype is "hook_callback", "can_use_tool", "hook_event" (the spec framing), or the subtype
	// of a request the transport refused with an error.
	Subtype string
	// Event is the hook event of a hook request, else "".
	Event shared.HookEvent
	// Read is when the request's line had been read from the CLI's stdout, before decoding it.
	Read time.Time
	// Decoded is when the line had been decoded into a typed message.
	Decoded time.Time
	// Answered is when the answer had been decided (the hook chain ended, the permission callback
	// returned), before it was encoded and written: from Decoded to Answered is the dispatch,
	// the handlers included.
	Answered time.Time
	// Written is when the write of the answer to the CLI's stdin returned.
	Written time.Time
}

// roundTripTimes are a request's times for Config.OnRoundTrip (zero without it).
type roundTripTimes struct{ read, decoded, answered time.Time }

// Stats counts what the reader skipped.
type Stats struct {
	Lines          int64
	NoiseLines     int64 // not JSON: skipped
	OversizedLines int64
	DecodeErrors   int64
}

// Transport is one running CLI process. All methods are safe for concurrent use.
type Transport struct {
	cfg    Config
	logger *slog.Logger
	cmd    *exec.Cmd
	pgid   int
	// tag marks the environment of the CLI and of everything it starts (see killTagged).
	tag string

	stdin *os.File
	// stdinOnce closes stdin once (closeStdin), without wmu.
	stdinOnce sync.Once
	wmu       sync.Mutex // serialises writes; guards stdinClosed, writeErr and wbroken
	// stdinClosed is set once stdin is closed.
	stdinClosed bool
	// wbroken is the error of a write that failed: the line on stdin may be cut short, so every
	// later write fails with it too, at once.
	wbroken error
	// writeErr is the process's failure, for writes after its end (exitErr is only safe to read
	// once done is closed, and Close may close stdin earlier).
	writeErr error
	wbuf     bytes.Buffer  // the line being written by WriteMessage
	wenc     *json.Encoder // encodes into wbuf
	wline    []byte        // the line being written by writeAppended
	// rawStdin writes to stdin without the runtime's poller (writeNow); nil if unavailable.
	rawStdin syscall.RawConn
	wnowFn   func(fd uintptr) bool // t.writeNowFd
	wnow     []byte                // the line writeNow writes
	wnowN    int                   // how much of it is written

	inbox *inbox

	ctx    context.Context // cancelled by Close or process exit: ends in-flight handlers
	cancel context.CancelFunc

	nextID  atomic.Int64
	pmu     sync.Mutex
	pending map[string]chan *shared.ControlResponse // SDK -> CLI requests
	flights map[string]*flight                      // CLI -> SDK requests in progress

	handlers sync.WaitGroup // in-flight CLI requests (ended by their answer or cancel)

	// stdoutDone gets a value when the stdout reader ends.
	stdoutDone chan<- struct{}
	// The reading baton (see inline), guarded by hmu.
	hmu     sync.Mutex
	hseq    uint64    // the number of the last request run inline
	hcur    uint64    // the request now running inline on the reader, 0 if none
	htaken  uint64    // the last request whose reader the handoff timer took over
	hsince  time.Time // when hcur started
	hreader *lineReader
	hflight *flight // hcur's flight, whose handler watchdogs wait for the handoff
	htimer  handoffTimer

	stderr *tailBuffer
	// hookEvents converts the CLI's hook lines, with Config.HookEvents.
	hookEvents cliHookEvents

	exited   chan struct{} // closed when the process has exited (its pipes may still be read)
	done     chan struct{} // closed when the process has exited and the readers are done
	exitErr  error         // set before done is closed: nil, or a *ProcessError
	closing  atomic.Bool
	closeMu  sync.Once
	closeErr error
	// stopWatch stops watching Start's ctx.
	stopWatch func() bool

	stats struct {
		lines, noise, oversized, decode atomic.Int64
	}
}

// Start starts the CLI. ctx bounds the transport's life: when it is cancelled the transport closes.
func Start(ctx context.Context, cfg Config) (*Transport, error) {
	if cfg.CLIPath == "" {
		return nil, errors.New("subprocess: Config.CLIPath is empty")
	}
	if cfg.MaxLineSize <= 0 {
		cfg.MaxLineSize = DefaultMaxLineSize
	}
	if cfg.StderrTail <= 0 {
		cfg.StderrTail = DefaultStderrTail
	}
	if cfg.CloseGrace <= 0 {
		cfg.CloseGrace = DefaultCloseGrace
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("subprocess: stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("subprocess: stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("subprocess: stderr pipe: %w", err)
	}
	cmd := exec.Command(cfg.CLIPath, cfg.Args...)
	cmd.Dir = cfg.Dir
	tag := newProcessTag()
	cmd.Env = append(childEnv(cfg.BaseEnv, cfg.Env), tag+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	// Its own process group, so that Close can stop the tools the CLI started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return nil, fmt.Errorf("subprocess: starting %s: %w", cfg.CLIPath, err)
	}
	inR.Close()
	outW.Close()
	errW.Close()

	tctx, cancel := context.WithCancel(context.Background())
	t := &Transport{
		cfg:     cfg,
		logger:  logger,
		cmd:     cmd,
		pgid:    cmd.Process.Pid,
		tag:     tag,
		stdin:   inW,
		inbox:   newInbox(),
		ctx:     tctx,
		pending: map[string]chan *shared.ControlResponse{},
		flights: map[string]*flight{},
		stderr:  &tailBuffer{max: cfg.StderrTail},
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	// The flights are not derived from t.ctx (see flight): they end with it here.
	t.cancel = func() { cancel(); t.cancelFlights() }
	t.htimer = newHandoffTimer(t.takeOver)
	if rc, ok := rawNonBlocking(inW); ok {
		t.rawStdin, t.wnowFn = rc, t.writeNowFd
	}
	readersDone := make(chan struct{}, 2)
	t.stdoutDone = readersDone
	// The stdout reader: it ends at EOF (or when the waiter closes outR). A slow request hands the
	// reading on to another goroutine (see inline), so the reader is not always this goroutine.
	go t.readStdout(&lineReader{br: bufio.NewReaderSize(newRawPipeReader(outR), 64<<10)})
	go func() { // stderr drainer: owns errR, ends at EOF (or when the waiter closes errR).
		defer func() { readersDone <- struct{}{} }()
		t.readStderr(errR)
	}()
	// finish stops this watch, so that a long-lived ctx does not keep a closed transport alive.
	t.stopWatch = context.AfterFunc(ctx, func() { t.Close() })
	go func() { // process waiter: ends when the process has exited and both readers are done.
		werr := cmd.Wait()
		close(t.exited)
		// Tools the CLI started live in its process group and may hold stdout and stderr open:
		// stop them, so that the readers reach EOF. (The readers do not wait for them.) Those that
		// left the group (CLI 2.1.330 runs Bash commands in a session of their own) are found by
		// the tag in their environment.
		_ = syscall.Kill(-t.pgid, syscall.SIGKILL)
		killTagged(t.tag)
		grace := time.NewTimer(t.cfg.CloseGrace)
		for n := 0; n < 2; {
			select {
			case <-readersDone:
				n++
			case <-grace.C:
				// A descendant that left the process group still holds the pipes: stop reading.
				outR.Close()
				errR.Close()
			}
		}
		grace.Stop()
		outR.Close()
		errR.Close()
		t.finish(werr)
	}()
	return t, nil
}

// finish records the process's end, fails everything pending and closes done.
func (t *Transport) finish(werr error) {
	var perr error
	if !t.closing.Load() {
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			pe := &ProcessError{ExitCode: ee.ExitCode(), Stderr: t.stderr.String()}
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				pe.Signal = ws.Signal().String()
			}
			perr = pe
		} else if werr != nil {
			perr = fmt.Errorf("subprocess: waiting for CLI: %w", werr)
		}
	}
	t.exitErr = perr
	t.cancel()
	term := perr
	if term == nil {
		if t.closing.Load() {
			term = ErrClosed
		} else {
			term = io.EOF
		}
	}
	t.inbox.close(term)
	t.closeStdin()
	t.wmu.Lock()
	t.writeErr = perr
	t.stdinClosed = true
	t.wmu.Unlock()
	t.hmu.Lock()
	t.htimer.close()
	t.hmu.Unlock()
	close(t.done)
	t.stopWatch()
}

// Done is closed when the CLI has exited and the transport's readers are done.
func (t *Transport) Done() <-chan struct{} { return t.done }

// ExitErr returns nil while the process runs or if it ended normally or by Close, and a
// *ProcessError if it failed on its own.
func (t *Transport) ExitErr() error {
	select {
	case <-t.done:
		return t.exitErr
	default:
		return nil
	}
}

// Stats returns the reader's counters.
func (t *Transport) Stats() Stats {
	return Stats{
		Lines:          t.stats.lines.Load(),
		NoiseLines:     t.stats.noise.Load(),
		OversizedLines: t.stats.oversized.Load(),
		DecodeErrors:   t.stats.decode.Load(),
	}
}

// StderrTail returns the last bytes the CLI wrote on stderr.
func (t *Transport) StderrTail() string { return t.stderr.String() }

// Next returns the next message for the consumer, or a non-fatal *ProtocolError. After the process
// ends and the queue is drained it returns io.EOF (clean exit), ErrClosed (after Close) or a
// *ProcessError.
func (t *Transport) Next(ctx context.Context) (shared.Message, error) {
	it, err := t.inbox.pop(ctx)
	if err != nil {
		return nil, err
	}
	return it.msg, it.err
}

// WriteMessage marshals v and writes it as one line on the CLI's stdin. Writes are serialised; one
// that the CLI does not read within WriteTimeout fails with ErrStalled. After a write failed, the
// line on stdin may be cut short: every later write fails at once with the same error.
func (t *Transport) WriteMessage(v any) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	// Encode into the transport's buffer (Encode adds the newline): one Write per line, and no
	// allocation per message once the buffer has grown.
	t.wbuf.Reset()
	if t.wenc == nil {
		t.wenc = json.NewEncoder(&t.wbuf)
	}
	if err := t.wenc.Encode(v); err != nil {
		return fmt.Errorf("subprocess: encoding message: %w", err)
	}
	defer func() {
		if t.wbuf.Cap() > maxKeptLine {
			t.wbuf = bytes.Buffer{} // do not keep a huge message's buffer
		}
	}()
	return t.writeLocked(t.wbuf.Bytes())
}

// maxKeptLine is the largest write buffer the transport keeps between lines.
const maxKeptLine = 1 << 20

// writeAppended writes one line that appendLine appends (without the newline) to the transport's
// line buffer; it is WriteMessage without encoding/json, for the answers the SDK writes most.
func (t *Transport) writeAppended(appendLine func([]byte) []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	b := append(appendLine(t.wline[:0]), '\n')
	if cap(b) <= maxKeptLine {
		t.wline = b
	} else {
		t.wline = nil
	}
	return t.writeLocked(b)
}

// writeLocked writes line (a whole line with its newline) to the CLI's stdin; t.wmu is held.
func (t *Transport) writeLocked(line []byte) error {
	if t.stdinClosed {
		if t.writeErr != nil {
			return t.writeErr
		}
		return ErrClosed
	}
	if t.wbroken != nil {
		return t.wbroken
	}
	// Most lines fit in the pipe at once: write those without arming the write deadline, whose
	// runtime timer costs each write a wake-up of another thread. Only what does not fit waits,
	// with the deadline.
	n := t.writeNow(line)
	if n == len(line) {
		return nil
	}
	_ = t.stdin.SetWriteDeadline(time.Now().Add(t.cfg.WriteTimeout))
	if _, err := t.stdin.Write(line[n:]); err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			err = fmt.Errorf("%w: %v", ErrStalled, err)
		case errors.Is(err, os.ErrClosed) && t.closing.Load():
			err = ErrClosed // Close closed stdin under a blocked write
		default:
			err = fmt.Errorf("subprocess: writing to CLI: %w", err)
		}
		// Part of the line may have been written: nothing written after it could be read right.
		t.wbroken = err
		return err
	}
	return nil
}

// writeNow writes as much of line as the pipe takes without waiting, and returns how much that
// was. Any error (a full pipe, a closed one) stops it early: the caller's blocking write then
// writes the rest, or meets the same error and reports it. t.wmu is held.
func (t *Transport) writeNow(line []byte) (n int) {
	if t.rawStdin == nil {
		return 0
	}
	t.wnow, t.wnowN = line, 0
	_ = t.rawStdin.Write(t.wnowFn)
	n, t.wnow = t.wnowN, nil
	return n
}

// writeNowFd is writeNow's work on stdin's descriptor: t.wnow is the line, t.wnowN what was
// written. (A method value made once: a closure per write would be an allocation per line.)
func (t *Transport) writeNowFd(fd uintptr) bool {
	for t.wnowN < len(t.wnow) {
		m, errno := rawWrite(fd, t.wnow[t.wnowN:]) // see rawpipe.go
		if m > 0 {
			t.wnowN += m
		}
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || m <= 0 {
			break
		}
	}
	return true // never wait here
}

// closeStdin closes the CLI's stdin, once. It does not take wmu, so that a write blocked on a CLI
// that stopped reading returns at once (with os.ErrClosed) instead of holding up the caller.
func (t *Transport) closeStdin() {
	t.stdinOnce.Do(func() { t.stdin.Close() })
}

// UserMessage is a prompt as written on stdin.
type UserMessage struct {
	Type            string      `json:"type"`
	Message         UserContent `json:"message"`
	ParentToolUseID *string     `json:"parent_tool_use_id"`
	SessionID       string      `json:"session_id"`
}

// UserContent is the message of a UserMessage: a string or content blocks.
type UserContent struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// SendUser writes a user message with content (a string, or content blocks).
func (t *Transport) SendUser(content any, sessionID string) error {
	if sessionID == "" {
		sessionID = "default"
	}
	return t.WriteMessage(UserMessage{Type: "user", Message: UserContent{Role: "user", Content: content}, SessionID: sessionID})
}

type controlRequest struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

type controlResponseEnvelope struct {
	Type     string          `json:"type"`
	Response controlResponse `json:"response"`
}

type controlResponse struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Request sends a control request to the CLI and waits for its answer. request must marshal to a
// JSON object with a "subtype". A CLI error answer is a *ControlError; no answer within
// RequestTimeout is ErrRequestTimeout, and within ctx ctx's error; a process that ends first gives
// its error (a *ProcessError, or ErrClosed after Close). A crash is reported as such also when ctx
// ended with it (the ctx of a hook handler does).
func (t *Transport) Request(ctx context.Context, subtype string, request any) (json.RawMessage, error) {
	id := fmt.Sprintf("req_%d", t.nextID.Add(1))
	ch := make(chan *shared.ControlResponse, 1)
	t.pmu.Lock()
	t.pending[id] = ch
	t.pmu.Unlock()
	defer func() {
		t.pmu.Lock()
		delete(t.pending, id)
		t.pmu.Unlock()
	}()
	if err := t.WriteMessage(controlRequest{Type: "control_request", RequestID: id, Request: request}); err != nil {
		return nil, err
	}
	timer := time.NewTimer(t.cfg.RequestTimeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.Subtype == "error" {
			return nil, &ControlError{Subtype: subtype, Message: r.Error, Code: r.ErrorCode}
		}
		return r.Response, nil
	case <-timer.C:
		return nil, fmt.Errorf("%w: %s after %v", ErrRequestTimeout, subtype, t.cfg.RequestTimeout)
	case <-ctx.Done():
		if t.ctx.Err() != nil && !t.closing.Load() {
			// The process ended on its own, and ctx may have ended because of it (a hook's ctx
			// does): report the crash, not the cancel. done follows at once.
			<-t.done
			if t.exitErr != nil {
				return nil, t.exitErr
			}
		}
		return nil, ctx.Err()
	case <-t.done:
		if t.exitErr != nil {
			return nil, t.exitErr
		}
		return nil, ErrClosed
	}
}

// Close stops the CLI: it closes stdin, waits CloseGrace, sends SIGTERM to the process group, waits
// CloseGrace again, then SIGKILL. Once the CLI has exited (by Close or on its own), the tools it
// started are killed too: its process group, and on Linux every process with the transport's tag in
// its environment, wherever it went. Close cancels in-flight handlers and waits for the transport's
// goroutines. It returns the process's own failure if it had already failed (a *ProcessError), else
// nil; every call returns the same.
func (t *Transport) Close() error {
	t.closeMu.Do(func() {
		select {
		case <-t.done:
			// Exited on its own before Close.
		default:
			t.closing.Store(true)
			t.closeStdin()
			t.wmu.Lock()
			t.stdinClosed = true
			t.wmu.Unlock()
			t.cancel()
			if !t.waitDone(t.cfg.CloseGrace) {
				_ = syscall.Kill(-t.pgid, syscall.SIGTERM)
				if !t.waitDone(t.cfg.CloseGrace) {
					_ = syscall.Kill(-t.pgid, syscall.SIGKILL)
					<-t.done
				}
			}
		}
		t.cancel()
		t.handlers.Wait()
		t.closeErr = t.exitErr
	})
	return t.closeErr
}

func (t *Transport) waitDone(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.done:
		return true
	case <-timer.C:
		return false
	}
}

// lineReader is the stdout reader's state; one goroutine at a time owns it.
type lineReader struct {
	br     *bufio.Reader
	lineNo int
	// times: when the current line was read and decoded; set only with Config.OnRoundTrip.
	times roundTripTimes
}

// readStdout is the reader loop. It never blocks on the consumer (the inbox is unbounded) nor for
// long on a request (see inline). It returns at EOF, or when another goroutine took the reading
// over.
func (t *Transport) readStdout(lr *lineReader) {
	for {
		var head []byte
		line, size, err := readLineHead(lr.br, t.cfg.MaxLineSize, &head)
		if t.cfg.OnRoundTrip != nil {
			lr.times = roundTripTimes{read: time.Now()}
		}
		if size > 0 || err == nil {
			lr.lineNo++
			t.stats.lines.Add(1)
			if line == nil && size > 0 {
				t.stats.oversized.Add(1)
				tooLong := &LineTooLongError{Size: size, Limit: t.cfg.MaxLineSize}
				t.inbox.push(inboxItem{err: &ProtocolError{Line: lr.lineNo, Err: tooLong}})
				// A request cut here must still be answered (and denied where it guards a tool).
				t.answerUndecodable(head, tooLong)
			} else if !t.handleLine(lr, line) {
				return // another goroutine reads now
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.logger.Warn("subprocess: reading CLI stdout", "error", err)
			}
			t.stopIfStillRunning()
			t.stdoutDone <- struct{}{}
			return
		}
	}
}

// stopIfStillRunning runs when stdout has ended. A CLI that closed its stdout but runs on can no
// longer tell the SDK anything, and the session would wait for it forever: it is stopped as Close
// stops it (stdin closed, then SIGTERM, then SIGKILL, CloseGrace apart), and its exit is reported
// as its own (an exit at stdin EOF ends the stream with io.EOF, a signal with a *ProcessError).
func (t *Transport) stopIfStillRunning() {
	waitExited := func() bool {
		timer := time.NewTimer(t.cfg.CloseGrace)
		defer timer.Stop()
		select {
		case <-t.exited:
			return true
		case <-timer.C:
			return false
		}
	}
	if waitExited() {
		return
	}
	t.logger.Warn("subprocess: the CLI closed its stdout but still runs; stopping it")
	t.closeStdin()
	t.wmu.Lock()
	t.stdinClosed = true
	t.wmu.Unlock()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		if waitExited() {
			return
		}
		_ = syscall.Kill(-t.pgid, sig)
	}
}

// handoffDelay is how long a CLI request may run on the stdout reader before another goroutine
// takes the reading over.
const handoffDelay = time.Millisecond

// inline runs work, a CLI request, on the reader goroutine, so that a quick hook is answered with
// no goroutine switch at all. If work still runs after handoffDelay, the handoff timer's goroutine
// becomes the reader, and the CLI's next lines (a cancel, other requests) are read while work goes
// on. inline reports whether the calling goroutine is still the reader.
//
// f, the request's flight (nil for none), learns of the handoff (flight.handedOff): until then its
// handlers' watchdogs need no timer of their own, the handoff timer stands in for them.
func (t *Transport) inline(lr *lineReader, f *flight, work func()) (stillReader bool) {
	t.hmu.Lock()
	t.hseq++
	n := t.hseq
	t.hcur, t.hsince, t.hreader, t.hflight = n, time.Now(), lr, f
	t.htimer.arm()
	t.hmu.Unlock()
	work()
	t.hmu.Lock()
	defer t.hmu.Unlock()
	if t.htaken >= n {
		// Taken over (no later request can have run inline before that): the new reader owns
		// lr and the timer.
		return false
	}
	t.htimer.disarm()
	t.hcur, t.hreader, t.hflight = 0, nil, nil
	return true
}

// takeOver runs on the handoff timer's goroutine. If the reader is still busy with the same
// request for handoffDelay, this goroutine becomes the reader. A late firing meant for an earlier
// request finds hcur changed or too recent, and does nothing.
func (t *Transport) takeOver() {
	t.hmu.Lock()
	n, lr, f := t.hcur, t.hreader, t.hflight
	if n == 0 || time.Since(t.hsince) < handoffDelay {
		t.hmu.Unlock()
		return
	}
	t.htaken, t.hcur, t.hreader, t.hflight = n, 0, nil, nil
	t.hmu.Unlock()
	if f != nil {
		f.handedOff() // the watchdog of the handler in progress is armed now
	}
	t.readStdout(lr)
}

// readLine returns the next line without its line ending ("\n", "\r\n"). size is the line's length
// without the "\n". A line longer than max bytes (not counting a final '\r') is consumed up to its
// newline and returned as nil with its size, so the stream stays in sync. err is io.EOF at the
// end; a last line without a newline is returned with err == nil first. The line is a fresh copy:
// the caller may keep it.
func readLine(br *bufio.Reader, max int) (line []byte, size int, err error) {
	return readLineHead(br, max, nil)
}

// oversizedHead is how much of an oversized line readLineHead keeps: enough for the envelope of a
// request (type, request_id, subtype, callback_id), which the CLI writes first.
const oversizedHead = 4 << 10

// readLineHead is readLine; for a line that is too long it also stores the line's first bytes
// (at most oversizedHead) in *head when head is not nil, so that the request can still be answered.
func readLineHead(br *bufio.Reader, max int, head *[]byte) (line []byte, size int, err error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		data := chunk
		if err == nil {
			data = chunk[:len(chunk)-1]
		}
		size += len(data)
		if !tooLong {
			// Keep one byte beyond max: it may be the '\r' of a "\r\n".
			if size > max+1 {
				if head != nil {
					buf = append(buf, data...)
					*head = append([]byte(nil), buf[:min(len(buf), oversizedHead)]...)
				}
				tooLong, buf = true, nil
			} else {
				buf = append(buf, data...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && size == 0:
			return nil, 0, io.EOF
		case err != nil && err != io.EOF:
			return nil, 0, err
		}
		if !tooLong {
			for len(buf) > 0 && buf[len(buf)-1] == '\r' {
				buf = buf[:len(buf)-1]
			}
			tooLong = len(buf) > max
			if tooLong && head != nil {
				*head = append([]byte(nil), buf[:min(len(buf), oversizedHead)]...)
			}
		}
		if tooLong {
			return nil, size, nil
		}
		if buf == nil {
			buf = []byte{}
		}
		return buf, size, nil
	}
}

// handleLine handles one stdout line on the reader goroutine. It reports whether the goroutine is
// still the reader (see inline).
func (t *Transport) handleLine(lr *lineReader, line []byte) (stillReader bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return true
	}
	msg, err := parser.Parse(line)
	if t.cfg.OnRoundTrip != nil {
		lr.times.decoded = time.Now()
	}
	if err != nil {
		if errors.Is(err, parser.ErrNotJSON) {
			t.stats.noise.Add(1)
			t.logger.Debug("subprocess: skipped a non-JSON line", "line", lr.lineNo, "bytes", len(line))
			return true
		}
		t.stats.decode.Add(1)
		t.inbox.push(inboxItem{err: &ProtocolError{Line: lr.lineNo, Err: err}})
		t.answerUndecodable(line, err)
		return true
	}
	if t.cfg.OnMessage != nil {
		t.cfg.OnMessage(msg)
	}
	switch m := msg.(type) {
	case *shared.ControlRequest:
		return t.handleControlRequest(lr, m)
	case *shared.ControlResponse:
		t.pmu.Lock()
		ch, ok := t.pending[m.RequestID]
		delete(t.pending, m.RequestID)
		t.pmu.Unlock()
		if ok {
			ch <- m
		} else {
			t.logger.Debug("subprocess: control_response for an unknown request", "request_id", m.RequestID)
		}
		return true
	case *shared.ControlCancelRequest:
		t.pmu.Lock()
		f := t.flights[m.RequestID]
		t.pmu.Unlock()
		if f != nil {
			f.cancel()
		}
		return true
	case *shared.HookEventMessage:
		return t.handleHookEvent(lr, m)
	case *shared.SystemMessage:
		if t.cfg.HookEvents {
			msg = t.hookEvents.convert(m)
		}
	}
	t.inbox.push(inboxItem{msg: msg})
	return true
}

// answerUndecodable answers a control request or hook event whose body could not be decoded: the
// CLI must not wait for an answer, and an event that guards an action is denied.
func (t *Transport) answerUndecodable(line []byte, cause error) {
	root := gjson.ParseBytes(line)
	reason := "the SDK could not decode this request: " + cause.Error()
	switch root.Get("type").String() {
	case "control_request":
		id := root.Get("request_id").String()
		if id == "" {
			return
		}
		req := root.Get("request")
		switch req.Get("subtype").String() {
		case "hook_callback":
			e := eventOfCallback(req)
			if deny := wire.Deny(e, reason); deny != nil {
				t.answerHook(id, e, deny)
				return
			}
		case "can_use_tool":
			t.answerSuccess(id, shared.PermissionResult{Behavior: shared.PermissionDeny, Message: reason})
			return
		}
		t.answerError(id, reason)
	case "hook_event":
		e := shared.HookEvent(root.Get("hook_event_name").String())
		t.writeHookResponse(root.Get("request_id").String(), root.Get("tool_use_id").String(), e, wire.Deny(e, reason))
	}
}

// eventOfCallback returns a hook_callback request's event: the input's hook_event_name, or, when
// that cannot be read, the event the SDK's own callback id ("hook_<Event>") names.
func eventOfCallback(req gjson.Result) shared.HookEvent {
	in := req.Get("input.hook_event_name")
	if in.Type == gjson.String && shared.HookEvent(in.Str).IsKnown() {
		return shared.HookEvent(in.Str)
	}
	if name, ok := strings.CutPrefix(req.Get("callback_id").String(), "hook_"); ok {
		if e := shared.HookEvent(name); e.IsKnown() {
			return e
		}
	}
	return shared.HookEvent(in.String())
}

func (t *Transport) answerSuccess(id string, response any) {
	if err := t.WriteMessage(controlResponseEnvelope{Type: "control_response", Response: controlResponse{Subtype: "success", RequestID: id, Response: response}}); err != nil {
		t.logger.Warn("subprocess: answering a CLI request", "request_id", id, "error", err)
	}
}

func (t *Transport) answerError(id, msg string) {
	if err := t.WriteMessage(controlResponseEnvelope{Type: "control_response", Response: controlResponse{Subtype: "error", RequestID: id, Error: msg}}); err != nil {
		t.logger.Warn("subprocess: answering a CLI request", "request_id", id, "error", err)
	}
}

// answerHook writes a hook's answer (wire.Output, encoded once). An output that cannot be
// written falls back to the event's denial (or {} for events that do not guard an action).
func (t *Transport) answerHook(id string, e shared.HookEvent, out shared.HookOutput) {
	w, err := wire.Output(e, out)
	if err != nil {
		t.logger.Warn("subprocess: invalid hook output", "event", string(e), "error", err)
		w, _ = wire.Output(e, wire.Deny(e, "invalid hook output: "+err.Error()))
	}
	if err := t.WriteMessage(controlResponseEnvelope{Type: "control_response", Response: controlResponse{Subtype: "success", RequestID: id, Response: w}}); err != nil {
		t.logger.Warn("subprocess: answering a CLI request", "request_id", id, "error", err)
	}
}

// startFlight registers an in-flight CLI request; it returns false for a duplicate id.
func (t *Transport) startFlight(id string) (*flight, bool) {
	f := &flight{}
	return f, t.registerFlight(id, f)
}

// registerFlight registers f, a new flight, as the ctx of CLI request id; it reports false for a
// duplicate id.
func (t *Transport) registerFlight(id string, f *flight) bool {
	t.pmu.Lock()
	defer t.pmu.Unlock()
	if _, dup := t.flights[id]; dup {
		return false
	}
	if t.ctx.Err() != nil {
		f.cancel() // cancelFlights has run (it takes pmu after t.ctx ended)
	}
	t.flights[id] = f
	t.handlers.Add(1)
	return true
}

// hookRequest is one hook request of the CLI in progress (a hook_callback, or a hook_event line):
// its flight (the ctx), its chain and what its answer needs, in one allocation.
type hookRequest struct {
	f     flight
	t     *Transport
	id    string // the flight's key
	in    shared.HookInput
	times roundTripTimes // Config.OnRoundTrip
	// hookEvent: the spec framing (answered by a hook_response with requestID and toolUseID);
	// else a control request (answered by a control_response for id).
	hookEvent bool
	requestID string
	toolUseID string
}

// startHookRequest registers a hook request with flight key id; nil for a duplicate id.
func (t *Transport) startHookRequest(id string, in shared.HookInput, times roundTripTimes) *hookRequest {
	r := &hookRequest{t: t, id: id, in: in, times: times}
	r.f.inline = true // run by inline, which tells it of the handoff
	if !t.registerFlight(id, &r.f) {
		return nil
	}
	return r
}

// run runs the request's chain on the calling goroutine; chainDone answers.
func (r *hookRequest) run() {
	t := r.t
	e := r.in.Base().HookEventName
	if !t.cfg.Hooks.Has(e) {
		// Nothing registered for this event (an unknown callback, or a stale registration).
		var res ChainResult
		if deny := wire.Deny(e, "no Go hook is registered for "+string(e)+"; denied by the SDK (fail-closed)"); deny != nil {
			res.Output = deny
		}
		r.chainDone(res)
		return
	}
	defer t.cfg.Hooks.Hold()() // WhenIdle waits for the answer to be written
	r.chainDone(t.cfg.Hooks.Run(&r.f, r.in, r.id))
}

// chainDone answers the request with its chain's result (once), unless it was cancelled.
func (r *hookRequest) chainDone(res ChainResult) {
	t := r.t
	defer t.endFlight(r.id)
	if res.Cancelled {
		return
	}
	e := r.in.Base().HookEventName
	if t.cfg.OnRoundTrip != nil {
		r.times.answered = time.Now()
	}
	if r.hookEvent {
		t.writeHookResponse(r.requestID, r.toolUseID, e, res.Output)
		t.traceRoundTrip(r.id, "hook_event", e, r.times)
		return
	}
	t.answerHook(r.id, e, res.Output)
	t.traceRoundTrip(r.id, "hook_callback", e, r.times)
}

func (t *Transport) endFlight(id string) {
	t.pmu.Lock()
	f := t.flights[id]
	delete(t.flights, id)
	t.pmu.Unlock()
	if f != nil {
		f.cancel()
	}
	t.handlers.Done()
}

// cancelFlights ends every request in progress: t.ctx has ended.
func (t *Transport) cancelFlights() {
	t.pmu.Lock()
	fs := make([]*flight, 0, len(t.flights))
	for _, f := range t.flights {
		fs = append(fs, f)
	}
	t.pmu.Unlock()
	for _, f := range fs {
		f.cancel()
	}
}

// handleControlRequest answers a CLI request. A hook or permission request runs inline on the
// reader (see inline); it reports whether the calling goroutine is still the reader.
func (t *Transport) handleControlRequest(lr *lineReader, m *shared.ControlRequest) (stillReader bool) {
	times := lr.times // lr may change hands while the request runs
	switch m.Subtype {
	case "hook_callback":
		r := t.startHookRequest(m.RequestID, m.HookCallback.Input, times)
		if r == nil {
			t.logger.Warn("subprocess: duplicate request id skipped", "request_id", m.RequestID)
			return true
		}
		// The answer is written when the chain ends, or by the handler's watchdog at its timeout.
		return t.inline(lr, &r.f, r.run)
	case "can_use_tool":
		ctx, ok := t.startFlight(m.RequestID)
		if !ok {
			t.logger.Warn("subprocess: duplicate request id skipped", "request_id", m.RequestID)
			return true
		}
		return t.inline(lr, nil, func() {
			// A cancel (by the CLI, or Close) ends the request at once, even while the callback
			// still runs: Close waits neither for a callback that ignores ctx nor for one that
			// calls Close itself. The callback's late result is dropped.
			end := sync.OnceFunc(func() { t.endFlight(m.RequestID) })
			defer end()
			stop := context.AfterFunc(ctx, end)
			defer stop()
			r := t.decidePermission(ctx, m.CanUseTool)
			if ctx.Err() != nil {
				return
			}
			if t.cfg.OnRoundTrip != nil {
				times.answered = time.Now()
			}
			t.answerSuccess(m.RequestID, r)
			t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		})
	default:
		times.answered = times.decoded // the refusal needs no decision
		t.answerError(m.RequestID, "unsupported control request subtype: "+m.Subtype)
		t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		return true
	}
}

// traceRoundTrip reports an answered CLI request to Config.OnRoundTrip.
func (t *Transport) traceRoundTrip(id, subtype string, e shared.HookEvent, times roundTripTimes) {
	if f := t.cfg.OnRoundTrip; f != nil {
		f(RoundTrip{RequestID: id, Subtype: subtype, Event: e, Read: times.read, Decoded: times.decoded, Answered: times.answered, Written: time.Now()})
	}
}

func (t *Transport) decidePermission(ctx context.Context, req *shared.CanUseTool) (res shared.PermissionResult) {
	deny := func(msg string) shared.PermissionResult {
		return shared.PermissionResult{Behavior: shared.PermissionDeny, Message: msg}
	}
	if t.cfg.CanUseTool == nil {
		return deny("no permission callback is set; denied by the SDK")
	}
	defer func() {
		if r := recover(); r != nil {
			t.logger.Error("subprocess: permission callback panicked", "panic", fmt.Sprint(r))
			res = deny(fmt.Sprintf("permission callback panicked: %v; denied by the SDK", r))
		}
	}()
	r, err := t.cfg.CanUseTool(ctx, req)
	switch {
	case err != nil:
		return deny("permission callback failed: " + err.Error())
	case r == nil:
		return deny("permission callback returned no result; denied by the SDK")
	case r.Behavior == shared.PermissionAllow:
		out := *r
		out.Message, out.Interrupt = "", false
		return out
	case r.Behavior == shared.PermissionDeny:
		out := *r
		if out.Message == "" {
			out.Message = "denied"
		}
		return out
	}
	return deny(fmt.Sprintf("permission callback returned behavior %q; denied by the SDK", r.Behavior))
}

// hookResponseLine is the spec framing's answer to a hook_event.
type hookResponseLine struct {
	Type          string           `json:"type"`
	RequestID     string           `json:"request_id,omitempty"`
	ToolUseID     string           `json:"tool_use_id,omitempty"`
	HookEventName shared.HookEvent `json:"hook_event_name"`
	*wire.HookOutput
}

func (t *Transport) handleHookEvent(lr *lineReader, m *shared.HookEventMessage) (stillReader bool) {
	times := lr.times // lr may change hands while the request runs
	id := m.RequestID
	if id == "" {
		id = "hook_event:" + m.ToolUseID
	}
	r := t.startHookRequest(id, m.Input, times)
	if r == nil {
		// Without a request id, two events for one tool use cannot be told apart: run it with a
		// unique key instead of dropping it.
		if m.RequestID != "" {
			t.logger.Warn("subprocess: duplicate request id skipped", "request_id", m.RequestID)
			return true
		}
		id = fmt.Sprintf("hook_event:%s#%d", m.ToolUseID, t.nextID.Add(1))
		r = t.startHookRequest(id, m.Input, times)
	}
	r.hookEvent, r.requestID, r.toolUseID = true, m.RequestID, m.ToolUseID
	// One hook event (spec framing), run like a hook request.
	return t.inline(lr, &r.f, r.run)
}

func (t *Transport) writeHookResponse(requestID, toolUseID string, e shared.HookEvent, out shared.HookOutput) {
	w, err := wire.Output(e, out)
	if err != nil {
		w, _ = wire.Output(e, wire.Deny(e, "invalid hook output: "+err.Error()))
	}
	if err := t.WriteMessage(hookResponseLine{Type: "hook_response", RequestID: requestID, ToolUseID: toolUseID, HookEventName: e, HookOutput: w}); err != nil {
		t.logger.Warn("subprocess: answering a hook event", "tool_use_id", toolUseID, "error", err)
	}
}

func (t *Transport) readStderr(r io.Reader) {
	br := bufio.NewReaderSize(r, 16<<10)
	for {
		line, size, err := readLine(br, 1<<20)
		if line != nil {
			t.stderr.Write(line)
			if t.cfg.OnStderr != nil {
				t.cfg.OnStderr(string(line))
			}
		} else if size > 0 {
			t.stderr.Write([]byte(fmt.Sprintf("[stderr line of %d bytes skipped]", size)))
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes of stderr, line by line.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(line []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, line...)
	b.buf = append(b.buf, '\n')
	// Cut back to the tail only once the buffer holds twice as much: one copy of max bytes per max
	// bytes written, so that a flood of short lines costs time linear in its size.
	if len(b.buf) > 2*b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := b.buf
	if over := len(tail) - b.max; over > 0 {
		tail = tail[over:]
	}
	return strings.TrimSpace(string(tail))
}
