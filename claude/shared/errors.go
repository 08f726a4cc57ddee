package shared

import (
	"errors"
	"fmt"
	"strings"
)

// ErrAsyncNotAllowed: a handler of an event that guards an action answered async. A later
// decision could not stop the action, so the SDK denies (fail closed).
var ErrAsyncNotAllowed = errors.New("async answer refused: the event guards an action and a later decision could not stop it")

// Sentinel errors of the transport. The errors of this file are made by a running session (the
// transport, the hook executor), never by a function of this package, and reach the user through
// a call of claude/v2: their messages start with "v2: " as the other errors of that call do.
var (
	// ErrClosed: the transport was closed by Close (or its context).
	ErrClosed = errors.New("v2: session closed")
	// ErrCLINotFound: no CLI binary was found; the *CLINotFoundError says where the SDK looked.
	ErrCLINotFound = errors.New("v2: claude CLI not found")
	// ErrRequestTimeout: a control request to the CLI got no answer in time.
	ErrRequestTimeout = errors.New("v2: control request timed out")
	// ErrStalled: the CLI stopped reading its stdin; a write did not finish in time.
	ErrStalled = errors.New("v2: CLI stopped reading stdin")
	// ErrPermissionTimeout: the permission callback did not answer within
	// Config.PermissionTimeout; the prompt was denied. It is the cause of the callback's ctx.
	ErrPermissionTimeout = errors.New("v2: permission callback timed out")
)

// CLINotFoundError lists where the SDK looked for the CLI. errors.Is(err, ErrCLINotFound) holds.
type CLINotFoundError struct {
	// Tried lists each place looked at, with why a path given was not usable.
	Tried []string
	// Unusable is true when a path was given (the CLI path option, CLAUDE_CLI_PATH) but names no
	// executable file: the path is what to fix, not the installation.
	Unusable bool
}

// Error describes the failure.
func (e *CLINotFoundError) Error() string {
	if e.Unusable {
		return "v2: claude CLI not usable: " + strings.Join(e.Tried, ", ") + " (give the path of the claude executable)"
	}
	return "v2: claude CLI not found; tried " + strings.Join(e.Tried, ", ") +
		" (install it with `npm install -g @anthropic-ai/claude-code`, or set CLAUDE_CLI_PATH or the CLI path option)"
}

// Unwrap returns ErrCLINotFound.
func (e *CLINotFoundError) Unwrap() error { return ErrCLINotFound }

// ProcessError says the CLI exited on its own with a failure. Stderr is the tail of what it wrote.
type ProcessError struct {
	ExitCode int
	// Signal names the signal that killed the process ("SIGKILL"), or is "" (ExitCode is then
	// the exit status; with a signal it is -1).
	Signal string
	Stderr string
	// Err is the error Wait returned, usually an *exec.ExitError.
	Err error
}

// Error describes the failure.
func (e *ProcessError) Error() string {
	how := fmt.Sprintf("exited with code %d", e.ExitCode)
	if e.Signal != "" {
		how = "was killed by signal " + e.Signal
	}
	if e.Stderr == "" {
		return "v2: CLI " + how
	}
	return "v2: CLI " + how + "; stderr: " + strings.TrimSpace(e.Stderr)
}

// Unwrap returns Err (an *exec.ExitError), so that errors.As finds it.
func (e *ProcessError) Unwrap() error { return e.Err }

// ProtocolError says one line of the CLI's stdout could not be used. The transport reports it and
// goes on with the next line: the stream stays in sync.
type ProtocolError struct {
	Line int // 1-based line number on stdout
	Err  error
}

// Error describes the failure.
func (e *ProtocolError) Error() string {
	return fmt.Sprintf("v2: protocol error at line %d: %v", e.Line, e.Err)
}

// Unwrap returns the cause, e.g. a *LineTooLongError or a *parser.DecodeError.
func (e *ProtocolError) Unwrap() error { return e.Err }

// LineTooLongError says a stdout line was longer than the limit; it was skipped.
type LineTooLongError struct {
	Size  int // bytes read before the line ended
	Limit int
}

// Error describes the failure.
func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line of %d bytes exceeds the limit of %d bytes; skipped", e.Size, e.Limit)
}

// ControlError is the CLI's error answer to a control request.
type ControlError struct {
	Subtype string // the request's subtype
	Message string
	Code    string // error_code, when the CLI gives one
}

// Error describes the failure.
func (e *ControlError) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("v2: CLI refused %s (%s): %s", e.Subtype, e.Code, e.Message)
	}
	return fmt.Sprintf("v2: CLI refused %s: %s", e.Subtype, e.Message)
}

// Errors a hook run can end with; a *HookError wraps one of them or the handler's own error.
var (
	// ErrHookTimeout: the handler did not return before its timeout.
	ErrHookTimeout = errors.New("hook timed out")
	// ErrHookPanic: the handler panicked.
	ErrHookPanic = errors.New("hook panicked")
	// ErrHookCancelled: the CLI cancelled the request, or the session closed.
	ErrHookCancelled = errors.New("hook cancelled")
	// ErrInvalidOutput: the handler returned an output that does not fit its event.
	ErrInvalidOutput = errors.New("invalid hook output")
)

// HookError says one handler failed. errors.Is works with ErrHookTimeout, ErrHookPanic,
// ErrHookCancelled, ErrInvalidOutput, or the handler's own error.
type HookError struct {
	Event HookEvent
	Index int    // the handler's index in the event's list
	Name  string // HookConfig.Name, if set
	Err   error
	// Stack is the goroutine stack of a panic.
	Stack []byte
}

// Error describes the failure.
func (e *HookError) Error() string {
	n := e.Name
	if n == "" {
		n = fmt.Sprintf("#%d", e.Index)
	}
	return fmt.Sprintf("v2: %s hook %s: %v", e.Event, n, e.Err)
}

// Unwrap returns the cause.
func (e *HookError) Unwrap() error { return e.Err }

// Errors of scoped-hook registration.
var (
	// ErrScopeExists: a scope with this id is registered already.
	ErrScopeExists = errors.New("v2: a scope with this id is registered already")
	// ErrEmptyScopeID: a scope needs an id.
	ErrEmptyScopeID = errors.New("v2: empty scope id")
)
