package v2

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// StartError says the CLI did not start a session: it exited before it answered initialize, or
// did not answer in time. It carries what tells a crash from a wrong program: the exit status,
// the tail of its stderr, and what the program printed for --version. errors.As finds the cause
// (a *shared.ProcessError for a failed exit) through Unwrap.
type StartError struct {
	// CLIPath is the program the session started.
	CLIPath string
	// Exited is true when the program ended; ExitCode is then its exit status (-1 when a signal,
	// named in Signal, ended it).
	Exited   bool
	ExitCode int
	Signal   string
	// Stderr is the tail of what the program wrote on stderr.
	Stderr string
	// Version is what `CLIPath --version` printed (trimmed), or why it could not be run; "" with
	// WithWrapper, where the program is not run locally.
	Version string
	// Err is the cause: the initialize request's error.
	Err error
}

// Error describes the failure.
func (e *StartError) Error() string {
	var b strings.Builder
	b.WriteString("v2: the CLI ")
	b.WriteString(e.CLIPath)
	switch {
	case e.Exited && e.Signal != "":
		fmt.Fprintf(&b, " was killed by %s before the session started", e.Signal)
	case e.Exited:
		fmt.Fprintf(&b, " exited with code %d before the session started", e.ExitCode)
	default:
		fmt.Fprintf(&b, " did not answer initialize: %v", e.Err)
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		b.WriteString("; stderr: " + s)
	} else {
		b.WriteString("; no stderr")
	}
	if e.Version != "" {
		fmt.Fprintf(&b, "; `%s --version` said %q", e.CLIPath, e.Version)
		if !strings.Contains(e.Version, "Claude Code") {
			b.WriteString(": is it the Claude Code CLI? (WithCLIPath, CLAUDE_CLI_PATH)")
		}
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// versionProbeTimeout bounds `<cli> --version` when a start failed.
const versionProbeTimeout = 10 * time.Second

// startFailed turns initialize's error into a *StartError when the CLI exited or did not answer in
// time; other errors (a refused hook registration, ctx done) come back as they are. It runs before
// the transport is closed, while it can still tell an exit of the CLI's own.
func (s *Session) startFailed(ctx context.Context, cliPath string, err error) error {
	exited := false
	select {
	case <-s.t.Done():
		exited = true
	default:
	}
	if !exited && !errors.Is(err, shared.ErrRequestTimeout) {
		return err
	}
	if ctx.Err() != nil {
		return err // the caller gave up; the CLI was stopped for it
	}
	se := &StartError{CLIPath: cliPath, Exited: exited, Stderr: s.t.StderrTail(), Err: err}
	var pe *shared.ProcessError
	if exited && errors.As(s.t.ExitErr(), &pe) {
		se.ExitCode, se.Signal = pe.ExitCode, pe.Signal
		if se.Err == nil || !errors.As(se.Err, new(*shared.ProcessError)) {
			se.Err = errors.Join(err, pe)
		}
	}
	if len(s.o.wrapper) == 0 && s.o.spawner == nil {
		se.Version = probeVersion(ctx, cliPath)
	}
	return se
}

// probeVersion runs `path --version` for at most versionProbeTimeout and returns what it printed
// (stdout and stderr, at most 200 bytes), or why it could not be run.
func probeVersion(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, versionProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	v := strings.TrimSpace(string(out))
	if len(v) > 200 {
		v = v[:200] + "..."
	}
	if v == "" && err != nil {
		return "nothing (" + err.Error() + ")"
	}
	if v == "" {
		return "nothing"
	}
	return v
}
