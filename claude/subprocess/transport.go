// Package subprocess runs the Claude CLI as a child process and speaks its stream-json protocol.
//
// It is split by concern:
//   - process.go starts the CLI and stops it (one stop sequence; the platform's part in
//     process_unix.go, process_windows.go, process_linux.go and process_notlinux.go: the process
//     group and the parent-death signal); watchdog_unix.go and killtagged_linux.go end what the
//     CLI started when the session or the SDK's process ends; clicache.go finds the CLI that
//     claudetest's installer cached.
//   - framing.go reads lines and holds the one writer of stdin; reader.go is the stdout reader:
//     it decodes each line once (claude/parser) and hands it to its consumer; inbox.go is the
//     unbounded queue of messages for Next.
//   - correlation.go matches the SDK's requests to their answers and joins a tool call's two
//     permission decisions; dispatch.go serves the CLI's requests: hooks through the HookServer
//     interface (hookserver.go; the engine is claude/hooks, which decides and encodes each
//     answer), permission prompts through the CanUseTool callback; in-process MCP through
//     MCPHandler (mcp.go); other host requests through HostRequests (hostrequests.go).
//   - wire.go holds the lines the SDK writes; progress.go the hook events of the stream.
//
// The path of a hook request: the reader reads the line, claude/parser decodes it, dispatch.go
// registers it in flight and hands it to HookServer.Serve on the same goroutine, and the answer
// the engine encoded (hooks.Result.Answer) is written on stdin by finishHook; nothing goes back.
//
// Goroutines per transport: the stdout reader, the stderr drainer, the process waiter (locked to
// its OS thread for the CLI's lifetime: process.go) and the supervisor; all end when the process
// has exited and its pipes are drained. A hook request or a permission prompt is served on the
// reader's goroutine; one not answered within a millisecond hands the reading to a new reader
// goroutine (a timer's: reader.go's serveOnReader), and the old one ends when its request does. A
// handler that outlives its deadline is answered for from the goroutine of its context.AfterFunc
// (claude/hooks). A permission callback runs on a goroutine of its own (bounded by
// PermissionTimeout), and so does each mcp_message and host request. The end of Start's ctx closes
// the transport from a context.AfterFunc. Close cancels the requests in flight and waits for all
// of them; a handler or callback that ignores its ctx may outlive Close, its result dropped. The
// watchdog is a process, not a goroutine (watchdog_unix.go).
package subprocess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Defaults of Config.
const (
	DefaultMaxLineSize    = 100 << 20 // 100 MiB: tool results of tens of MB occur
	DefaultStderrTail     = 64 << 10
	DefaultCloseGrace     = 2 * time.Second
	DefaultWriteTimeout   = 30 * time.Second
	DefaultRequestTimeout = 60 * time.Second
)

// Config configures a Transport: what it runs (the command line and environment the caller
// built: claude/v2 builds them from its option table), who answers the CLI's requests, and the
// transport's limits. It holds no session option of its own: a setting that changes the CLI's
// behaviour reaches it through Args, Env or a request the caller sends. Only CLIPath is required.
type Config struct {
	// What runs.

	// CLIPath is the CLI binary (see FindCLI).
	CLIPath string
	// Args are the CLI's arguments.
	Args []string
	// Wrapper, when not empty, is a command the CLI is run through: the process started is
	// Wrapper[0] with Wrapper[1:], CLIPath and Args as its arguments (a container, ssh, a
	// sandbox), with Dir, the environment, the pipes and the process group the CLI would have had.
	// Default: none.
	Wrapper []string
	// Spawner, if set, starts the CLI instead of the transport (see Spawner): a container, a
	// remote host, a process of the program's own making. It excludes Wrapper and Confine.
	// Default: nil, the transport starts CLIPath as a local child process.
	Spawner Spawner
	// Confine, if set, confines the CLI (claude/internal/confine): it runs on the OS thread that
	// starts the CLI, just before the start, and restricts that thread, so that the CLI and
	// everything it starts inherit the restriction while the rest of the process stays free. That
	// thread runs nothing else and ends when the CLI has exited. An error fails Start.
	// Default: nil, unconfined.
	Confine func() error
	// Dir is the CLI's working directory; "" means the current one.
	Dir string
	// BaseEnv replaces os.Environ() as the base environment when non-nil. The variables a
	// running Claude Code session sets for its children (CLAUDECODE, CLAUDE_CODE_SESSION_ID, its
	// messaging socket and token, CLAUDE_PID, CLAUDE_PROJECT_DIR, ...: see claude/internal/childenv) are
	// removed from it, so that a program run inside a Claude session starts an independent CLI.
	BaseEnv []string
	// Env is added on top of BaseEnv and wins over it; what it sets is kept (except CLAUDECODE,
	// with which the CLI refuses to start).
	Env []string

	// Who answers the CLI's requests and sees its output.

	// Hooks answers hook requests; nil means no Go hooks (every hook request is answered with {},
	// or with a denial for events that guard an action). A hook request, and a can_use_tool
	// request, is served on the goroutine that read it, which hands the reading to a new goroutine
	// if it has not answered within a millisecond: requests run concurrently, and a slow one stops
	// the reading for at most that long.
	Hooks HookServer
	// MCP answers the CLI's mcp_message requests (in-process MCP servers, see MCPHandler), each on
	// a goroutine of its own; nil refuses them with an error answer.
	MCP MCPHandler
	// HostRequests answers other control requests of the CLI by subtype (elicitation,
	// request_user_dialog: see hostrequests.go), each on a goroutine of its own; a subtype not
	// in it is refused with an error answer.
	HostRequests map[string]HostRequestHandler
	// CanUseTool answers can_use_tool requests, each bounded by
	// PermissionTimeout; nil denies them.
	CanUseTool shared.CanUseToolFunc
	// OnMessage, if set, sees every decoded message on the reader goroutine before it is queued,
	// including the control traffic the transport answers itself. It must be fast and must not
	// call the transport.
	OnMessage func(shared.Message)
	// HookEvents turns the CLI's system hook_started / hook_progress / hook_response messages (its
	// settings command hooks) into *shared.HookStarted / HookProgress / HookResponse with Source
	// "cli", the types of the SDK's own hook events. Default: false (they stay *shared.SystemMessage).
	HookEvents bool
	// OnStderr, if set, gets every stderr line. It runs on the stderr goroutine.
	OnStderr func(line string)
	// OnRoundTrip, if set, is called once for each CLI request the transport answers (a hook, a
	// permission prompt, a refused subtype) with when its line was read, decoded and answered, and
	// when the answer was written: the SDK's own share of a round trip, in three parts. It runs on
	// the goroutine that wrote the answer, after the write; it must be fast and must not call the
	// transport. A request answered by nobody (cancelled by the CLI, or the session closed) is not
	// reported. Default: nil, and then the transport reads no clock for it.
	OnRoundTrip func(shared.RoundTrip)
	// Logger; nil means slog.Default(). Tool inputs and environment values are never logged.
	Logger *slog.Logger

	// The transport's limits; zero means the default.

	// MaxLineSize bounds one stdout line (default DefaultMaxLineSize). Longer lines are skipped
	// and reported as a *LineTooLongError.
	MaxLineSize int
	// StderrTail is how many bytes of stderr are kept for errors (default DefaultStderrTail).
	StderrTail int
	// CloseGrace is how long Close waits after closing stdin, and again after SIGTERM, before it
	// escalates (default DefaultCloseGrace). It also bounds how long the readers may drain the
	// pipes after the CLI exited.
	CloseGrace time.Duration
	// WriteTimeout bounds one write to stdin (default DefaultWriteTimeout); a CLI that stops
	// reading makes writes fail with ErrStalled instead of blocking forever.
	WriteTimeout time.Duration
	// RequestTimeout bounds a control request to the CLI (default DefaultRequestTimeout).
	RequestTimeout time.Duration
	// PermissionTimeout bounds one run of the CanUseTool callback (default hooks.DefaultTimeout,
	// 5 s, the hooks' default): a callback that has not answered by then is denied (fail-closed),
	// its ctx ends with cause ErrPermissionTimeout, and its late answer is dropped. (The CLI
	// itself waits for a permission answer without limit.) With PermissionRequest hooks, the two
	// decisions of one tool call are joined (deny wins): the callback's allow is held until the
	// hook has decided (at most its chain timeout plus a second), and the hook's allow until the
	// callback has (at most PermissionTimeout plus a second); one not decided in time denies.
	PermissionTimeout time.Duration
}

// Transport is one running CLI process. All methods are safe for concurrent use.
type Transport struct {
	cfg    Config
	logger *slog.Logger
	proc   *process
	w      *lineWriter
	inbox  *inbox
	reqs   *requests
	stderr *tailBuffer
	// hookEvents converts the CLI's hook lines, with Config.HookEvents.
	hookEvents cliHookEvents

	// ctx is the parent of every CLI request's ctx: cancelled by Close or the process's end.
	ctx    context.Context
	cancel context.CancelFunc

	done      chan struct{} // closed when the process has exited and the readers are done
	exitErr   error         // set before done is closed: nil, or a *ProcessError
	closing   atomic.Bool
	closeOnce sync.Once
	closeErr  error
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
	if cfg.Spawner != nil && (len(cfg.Wrapper) > 0 || cfg.Confine != nil) {
		return nil, errors.New("subprocess: Config.Spawner excludes Wrapper and Confine (the transport cannot wrap or confine a process it does not start)")
	}
	setDefault(&cfg.MaxLineSize, DefaultMaxLineSize)
	setDefault(&cfg.StderrTail, DefaultStderrTail)
	setDefault(&cfg.CloseGrace, DefaultCloseGrace)
	setDefault(&cfg.WriteTimeout, DefaultWriteTimeout)
	setDefault(&cfg.RequestTimeout, DefaultRequestTimeout)
	setDefault(&cfg.PermissionTimeout, hooks.DefaultTimeout)
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := startProcess(ctx, cfg)
	if err != nil {
		return nil, err
	}
	tctx, cancel := context.WithCancel(context.Background())
	t := &Transport{
		cfg:    cfg,
		logger: logger,
		proc:   p,
		w:      &lineWriter{f: p.stdin, timeout: cfg.WriteTimeout},
		inbox:  newInbox(),
		reqs:   newRequests(),
		stderr: &tailBuffer{max: cfg.StderrTail},
		ctx:    tctx,
		cancel: cancel,
		done:   make(chan struct{}),
	}
	readersDone := make(chan struct{}, 2)
	// The stdout reader: its last one ends at EOF, or when the supervisor closes stdout.
	go t.readStdout(newStdoutLines(p.stdout), func() {
		t.stopIfStillRunning()
		readersDone <- struct{}{}
	})
	go func() { // the stderr drainer: it ends at EOF, or when the supervisor closes stderr.
		defer func() { readersDone <- struct{}{} }()
		drainStderr(p.stderr, t.stderr, cfg.OnStderr)
	}()
	// finish stops this watch, so that a long-lived ctx does not keep a closed transport alive.
	t.stopWatch = context.AfterFunc(ctx, func() { t.Close() })
	go t.supervise(readersDone) // ends when the process has exited and both readers are done
	return t, nil
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// supervise waits for the process to exit, stops what it left running (which may hold its stdout
// and stderr open), gives the readers CloseGrace to drain the pipes, and finishes the transport.
func (t *Transport) supervise(readersDone <-chan struct{}) {
	<-t.proc.exited
	t.proc.killDescendants()
	grace := time.NewTimer(t.cfg.CloseGrace)
	defer grace.Stop()
	for n := 0; n < 2; {
		select {
		case <-readersDone:
			n++
		case <-grace.C:
			// A descendant that escaped still holds the pipes: stop reading.
			t.proc.stdout.Close()
			t.proc.stderr.Close()
		}
	}
	t.proc.stdout.Close()
	t.proc.stderr.Close()
	t.finish(t.proc.waitErr)
}

// finish records the process's end, ends every request in flight, fails every pending one, and
// closes done.
func (t *Transport) finish(werr error) {
	var perr error
	if !t.closing.Load() {
		perr = exitError(werr, t.stderr.String())
	}
	t.exitErr = perr
	t.cancel()
	t.reqs.cancelAll()
	term, pendingErr := perr, perr
	if perr == nil {
		pendingErr = shared.ErrClosed
		if term = io.EOF; t.closing.Load() {
			term = shared.ErrClosed
		}
	}
	// Writes fail with the process's error, and ExitErr reports it, before anyone learns of the
	// end from a request or the stream.
	t.w.close(perr)
	close(t.done)
	t.reqs.failPending(pendingErr)
	t.inbox.close(term)
	t.stopWatch()
}

// stopIfStillRunning runs when stdout has ended. A CLI that closed its stdout but runs on can no
// longer tell the SDK anything, and the session would wait for it forever: it is stopped as Close
// stops it, and its exit is reported as its own (an exit at stdin EOF ends the stream with
// io.EOF, a signal with a *ProcessError).
func (t *Transport) stopIfStillRunning() {
	if t.proc.waitExited(t.cfg.CloseGrace) {
		return
	}
	t.logger.Warn("subprocess: the CLI closed its stdout but still runs; stopping it")
	t.proc.stop(t.cfg.CloseGrace, func() { t.w.close(nil) })
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
func (t *Transport) Stats() shared.Stats {
	return shared.Stats{
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

// WriteMessage encodes v (JSON v2 semantics) and writes it as one line on the CLI's stdin. Writes
// are serialised; one that the CLI does not read within WriteTimeout fails with ErrStalled. After
// a write failed, the line on stdin may be cut short: every later write fails at once with the
// same error.
func (t *Transport) WriteMessage(v any) error { return t.w.writeJSON(v, encodeOptions) }

// exitOr returns the CLI's own failure for err, a write that failed because the CLI closed its
// stdin, once the CLI has exited with one within CloseGrace (a CLI that dies at start, before it
// read initialize, is reported with its exit code and stderr rather than a broken pipe); else err.
func (t *Transport) exitOr(err error) error {
	if !errors.Is(err, syscall.EPIPE) {
		return err
	}
	timer := time.NewTimer(t.cfg.CloseGrace)
	defer timer.Stop()
	select {
	case <-t.done:
		if t.exitErr != nil {
			return t.exitErr
		}
	case <-timer.C:
	}
	return err
}

// SendUser writes a user message with content (a string, or content blocks).
func (t *Transport) SendUser(content any, sessionID string) error {
	if sessionID == "" {
		sessionID = "default"
	}
	return t.WriteMessage(UserMessage{Type: "user", Message: UserContent{Role: "user", Content: content}, SessionID: sessionID})
}

// Request sends a control request to the CLI and waits for its answer, the raw JSON of the
// answer's "response". request must encode to a JSON object; its subtype (ControlSubtype) is
// written as its "subtype" member, and names it in errors. A CLI error answer
// is a *ControlError; no answer within RequestTimeout is ErrRequestTimeout, and within ctx ctx's
// error; a process that ends first gives its error (a *ProcessError, or ErrClosed after Close or
// a clean exit). A crash is reported as such also when ctx ended with it (the ctx of a hook
// handler does).
func (t *Transport) Request(ctx context.Context, request ControlRequest) ([]byte, error) {
	wait, err := t.Send(request)
	if err != nil {
		return nil, err
	}
	return wait(ctx)
}

// Send writes a control request to the CLI, as Request does, and returns once it is written;
// wait waits for its answer as Request does and must be called once.
func (t *Transport) Send(request ControlRequest) (wait func(ctx context.Context) ([]byte, error), err error) {
	subtype := request.ControlSubtype()
	id, ch, err := t.reqs.addPending()
	if err != nil {
		return nil, err
	}
	if err := t.WriteMessage(controlRequestLine{Type: "control_request", RequestID: id, Request: requestBody{request}}); err != nil {
		t.reqs.removePending(id)
		return nil, t.exitOr(err)
	}
	return func(ctx context.Context) ([]byte, error) {
		defer t.reqs.removePending(id)
		return t.await(ctx, subtype, ch)
	}, nil
}

// await waits for the answer to a control request sent by Send.
func (t *Transport) await(ctx context.Context, subtype string, ch <-chan pendingResult) ([]byte, error) {
	timer := time.NewTimer(t.cfg.RequestTimeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, r.err
		}
		if r.resp.Subtype == "error" {
			return nil, &shared.ControlError{Subtype: subtype, Message: r.resp.Error, Code: r.resp.ErrorCode}
		}
		return r.resp.Response, nil
	case <-timer.C:
		return nil, fmt.Errorf("%w: %s after %v", shared.ErrRequestTimeout, subtype, t.cfg.RequestTimeout)
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
	}
}

// WhenIdle runs fn as soon as no hook request of the CLI is in progress: at once, on the calling
// goroutine, if none is; else on the goroutine that answered the last one, right after its answer
// was written (or it was cancelled), so that what fn writes reaches the CLI right behind that
// answer. fn must not wait: it may write (Send), and wait for answers on a goroutine of its own.
// Permission prompts do not count: they may wait for a person. The session uses it to send a new
// initialize, which makes the CLI cancel every hook request it is waiting for: written behind the
// answer that let the CLI go on (a SubagentStart's), it reaches the CLI before the next hook event
// can. After the transport ended, fn still runs.
func (t *Transport) WhenIdle(fn func()) { t.reqs.whenIdle(fn) }

// Close stops the CLI: it cancels the requests in flight, closes stdin, waits CloseGrace, asks the
// CLI and its process group to terminate (SIGTERM; on Windows the process tree is ended), waits
// CloseGrace again, then kills them. Once the CLI has exited (by Close or on its own), the tools
// it started are killed too: its process group, and on Linux every process with the transport's
// tag in its environment, wherever it went. Close waits for the transport's goroutines. It
// returns the process's own failure if it had already failed (a *ProcessError), else nil; every
// call returns the same.
func (t *Transport) Close() error {
	t.closeOnce.Do(func() {
		select {
		case <-t.done:
			// Exited on its own before Close.
		default:
			t.closing.Store(true)
			t.cancel()
			t.reqs.cancelAll()
			t.proc.stop(t.cfg.CloseGrace, func() { t.w.close(nil) })
			<-t.done
		}
		t.reqs.wait()
		t.closeErr = t.exitErr
	})
	return t.closeErr
}
