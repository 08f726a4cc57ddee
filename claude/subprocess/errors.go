package subprocess

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors of the transport.
var (
	// ErrClosed: the transport was closed by Close (or its context).
	ErrClosed = errors.New("subprocess: transport closed")
	// ErrCLINotFound: no CLI binary was found; the *CLINotFoundError says where the SDK looked.
	ErrCLINotFound = errors.New("subprocess: claude CLI not found")
	// ErrRequestTimeout: a control request to the CLI got no answer in time.
	ErrRequestTimeout = errors.New("subprocess: control request timed out")
	// ErrStalled: the CLI stopped reading its stdin; a write did not finish in time.
	ErrStalled = errors.New("subprocess: CLI stopped reading stdin")
	// ErrPermissionTimeout: the permission callback did not answer within
	// Config.PermissionTimeout; the prompt was denied. It is the cause of the callback's ctx.
	ErrPermissionTimeout = errors.New("subprocess: permission callback timed out")
)

// CLINotFoundError lists where the SDK looked for the CLI. errors.Is(err, ErrCLINotFound) holds.
type CLINotFoundError struct {
	Tried []string
}

// Error describes the failure.
func (e *CLINotFoundError) Error() string {
	return "subprocess: claude CLI not found; tried " + strings.Join(e.Tried, ", ") +
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
		return "subprocess: CLI " + how
	}
	return "subprocess: CLI " + how + "; stderr: " + strings.TrimSpace(e.Stderr)
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
	return fmt.Sprintf("subprocess: protocol error at line %d: %v", e.Line, e.Err)
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
		return fmt.Sprintf("subprocess: CLI refused %s (%s): %s", e.Subtype, e.Code, e.Message)
	}
	return fmt.Sprintf("subprocess: CLI refused %s: %s", e.Subtype, e.Message)
}
