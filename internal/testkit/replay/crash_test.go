package replay

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The CLI crashes. Each test checks that the session ends with a *shared.ProcessError carrying
// the exit code (or signal) and the stderr tail; that what was pending (a hook's ctx, a control
// request) ends at once instead of waiting out its timeout; that Close returns that same error every
// time, also when called concurrently; and that nothing is left: no SDK goroutine, not the CLI, not
// the tool it started (a `sleep 300` in its process group). These tests count goroutines: they do
// not run in parallel.

const assistantLine = `send {"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"working"}]},"session_id":"s1"}`

// closeConcurrently calls s.Close from n goroutines and then once more, and checks that every call
// returns want (the same value, not just an equal one).
func closeConcurrently(t *testing.T, s *v2.Session, n int, want error) {
	t.Helper()
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = s.Close() })
	}
	wg.Wait()
	errs[n] = s.Close()
	for i, err := range errs {
		if err != want {
			t.Errorf("Close #%d = %v, want %v", i, err, want)
		}
	}
}

// wantProcessError checks err is a *shared.ProcessError with the exit code (or signal) and a
// stderr tail containing stderr.
func wantProcessError(t *testing.T, err error, code int, signal, stderr string) *shared.ProcessError {
	t.Helper()
	var pe *shared.ProcessError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *shared.ProcessError", err)
	}
	if pe.ExitCode != code || pe.Signal != signal || !strings.Contains(pe.Stderr, stderr) {
		t.Errorf("ProcessError = %+v, want exit code %d, signal %q, stderr containing %q", pe, code, signal, stderr)
	}
	if !strings.Contains(err.Error(), stderr) {
		t.Errorf("the error text %q does not carry the stderr tail", err)
	}
	return pe
}

// TestCrashMidHook: the CLI dies while a hook runs, and while the hook waits for a control request
// it sent (a re-entrant SetPermissionMode). The request fails with the crash at once, the hook's ctx
// is cancelled (not timed out: its timeout is a minute), the session ends with the exit code and
// the stderr tail.
func TestCrashMidHook(t *testing.T) {
	f := newFake(t,
		initExpect, initAnswer, userExpect,
		"spawn sleep 300",
		hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "make"}),
		`expect {"type":"control_request","request":{"subtype":"set_permission_mode","mode":"plan"}}`,
		"stderr fatal: something broke",
		"exit 3",
	)
	var sess atomic.Pointer[v2.Session]
	reqErr, ctxErr := make(chan error, 1), make(chan error, 1)
	hook := func(ctx context.Context, _ *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		reqErr <- sess.Load().SetPermissionMode(ctx, "plan")
		<-ctx.Done()
		ctxErr <- ctx.Err()
		return shared.Allow(), nil
	}
	s := f.start(t, v2.WithHookTimeout(time.Minute), v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.OnPreToolUse(hook)))
	sess.Store(s)
	cliPID := s.Info().PID
	if err := s.Send(testCtx(t), "go"); err != nil {
		t.Fatal(err)
	}
	msgs, _, err := receiveAll(t, s)
	pe := wantProcessError(t, err, 3, "", "fatal: something broke")
	wantProcessError(t, <-reqErr, 3, "", "fatal: something broke")
	select {
	case err := <-ctxErr:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the hook's ctx ended with %v, want context.Canceled (the crash), not its timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook's ctx was not cancelled by the crash")
	}
	closeConcurrently(t, s, 4, error(pe))
	checkGone(t, cliPID, msgs)
	noLeaks(t)
}

// TestCrashMidTurn: the CLI dies between messages of a turn, while an Interrupt waits for its
// answer: by exiting with a code, or killed by a signal.
func TestCrashMidTurn(t *testing.T) {
	tests := []struct {
		name   string
		end    []string
		code   int
		signal string
		stderr string
	}{
		{"exit code", []string{"stderr first line", "stderr panic: runtime error", "exit 2"}, 2, "", "first line\npanic: runtime error"},
		{"SIGKILL", []string{"stderr out of memory", "kill KILL"}, -1, "SIGKILL", "out of memory"},
		{"SIGSEGV", []string{"stderr about to fault", "kill SEGV"}, -1, "SIGSEGV", "about to fault"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, append([]string{
				initExpect, initAnswer, userExpect, assistantLine,
				"spawn sleep 300",
				`expect {"type":"control_request","request":{"subtype":"interrupt"}}`,
			}, tt.end...)...)
			s := f.start(t)
			cliPID := s.Info().PID
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			var msgs []shared.Message
			var interruptErr, endErr error
			for m, err := range s.Receive(testCtx(t)) {
				if err != nil {
					endErr = err
					break
				}
				msgs = append(msgs, m)
				if childPID(m) != 0 {
					interruptErr = s.Interrupt(testCtx(t)) // the CLI dies instead of answering
				}
			}
			pe := wantProcessError(t, endErr, tt.code, tt.signal, tt.stderr)
			if interruptErr == nil {
				t.Fatal("Interrupt returned nil")
			}
			wantProcessError(t, interruptErr, tt.code, tt.signal, tt.stderr)
			if len(msgs) < 2 {
				t.Errorf("messages before the crash: %d, want the assistant message and the child", len(msgs))
			}
			if err := s.Send(testCtx(t), "again"); !errors.As(err, new(*shared.ProcessError)) {
				t.Errorf("Send after the crash = %v, want the *ProcessError", err)
			}
			closeConcurrently(t, s, 3, error(pe))
			checkGone(t, cliPID, msgs)
			noLeaks(t)
		})
	}
}

// TestCrashAtStart: the CLI dies before it answers initialize, after starting a tool: CreateSession
// fails with the exit code and stderr, and the tool is gone.
func TestCrashAtStart(t *testing.T) {
	f := newFake(t, "spawn sleep 300", "stderr Error: unknown option '--bogus'", "exit 1")
	start := time.Now()
	s, err := v2.CreateSession(testCtx(t), f.options(t)...)
	if err == nil {
		s.Close()
		t.Fatal("CreateSession succeeded")
	}
	pe := wantProcessError(t, err, 1, "", "Error: unknown option '--bogus'")
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("CreateSession took %v: it waited for a timeout", d)
	}
	m := regexp.MustCompile(`replay: spawned pid (\d+)`).FindStringSubmatch(pe.Stderr)
	if m == nil {
		t.Fatalf("stderr %q does not name the tool's pid", pe.Stderr)
	}
	pid, _ := strconv.Atoi(m[1])
	if !proctest.WaitGone(pid, 5*time.Second) {
		t.Errorf("the tool %d the CLI started still runs", pid)
	}
	noLeaks(t)
}

// checkGone checks that the CLI and the tool it started (named by a replay_child message) are gone.
func checkGone(t *testing.T, cliPID int, msgs []shared.Message) {
	t.Helper()
	if cliPID == 0 {
		t.Error("no CLI pid (the fake reports it in the initialize answer)")
	} else if !proctest.WaitGone(cliPID, 5*time.Second) {
		t.Errorf("the CLI %d still runs", cliPID)
	}
	child := 0
	for _, m := range msgs {
		if p := childPID(m); p != 0 {
			child = p
		}
	}
	if child == 0 {
		t.Error("no replay_child message: the tool's pid is unknown")
		return
	}
	if !proctest.WaitGone(child, 5*time.Second) {
		t.Errorf("the tool %d the CLI started still runs: orphaned", child)
	}
}

// TestToolsOutsideTheProcessGroup: the CLI starts a tool in a session of its own (setsid, as CLI
// 2.1.330 does for Bash), out of reach of a signal to its process group. The tool is gone after
// Close, and after a crash.
func TestToolsOutsideTheProcessGroup(t *testing.T) {
	for _, end := range []string{"Close", "crash"} {
		t.Run(end, func(t *testing.T) {
			tail := "eof"
			if end == "crash" {
				tail = "exit 4"
			}
			f := newFake(t, initExpect, initAnswer, userExpect, "spawn setsid sleep 300", resultLine, tail)
			s := f.start(t)
			cliPID := s.Info().PID
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			msgs, _, err := receiveAll(t, s)
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			if end == "crash" {
				for range s.Receive(testCtx(t)) {
				}
				<-s.Done()
			}
			s.Close()
			checkGone(t, cliPID, msgs)
			noLeaks(t)
		})
	}
}
