//go:build unix

package v2_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Reliability with the real CLI: what only the real CLI can prove. The replay CLI covers the other
// faults (internal/replay, docs/RELIABILITY.md).

// TestRealCLI_CloseStopsToolsTheCLIStarted: a Bash tool call starts `sleep 300` in the background
// and returns, or is still running `sleep 300` when Close is called. After Close neither the CLI
// nor the sleep runs: tools the CLI started are not orphaned, although CLI 2.1.330 runs Bash
// commands in a session of their own (out of reach of a signal to the CLI's process group).
func TestRealCLI_CloseStopsToolsTheCLIStarted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		command func(fifo string) string
		running bool // Close is called while the tool runs
	}{
		{"in the background", func(fifo string) string { return "nohup sleep 300 >/dev/null 2>&1 & echo $! > " + fifo }, false},
		{"still running", func(fifo string) string { return "echo $$ > " + fifo + "; exec sleep 300" }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var fifo string
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				fifo = p + "/pid.fifo"
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash(tt.command(fifo))), claudetest.TextReply("started")}
			})
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithCloseGrace(500*time.Millisecond))
			turn := make(chan error, 1)
			go func() {
				_, err := s.Run(testCtx(t), "start a sleep")
				turn <- err
			}()
			// The tool writes the sleep's pid into the FIFO: reading it waits until the tool runs.
			pidc := make(chan []byte, 1)
			go func() {
				b, _ := os.ReadFile(fifo)
				pidc <- b
			}()
			var b []byte
			select {
			case b = <-pidc:
			case <-time.After(60 * time.Second):
				t.Fatal("the tool did not run")
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || proctest.Gone(pid) {
				t.Fatalf("the sleep (%q) is not running", b)
			}
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if !tt.running {
				if err := <-turn; err != nil {
					t.Fatalf("Run: %v", err)
				}
			}
			cli := s.Info().PID
			if err := s.Close(); err != nil {
				t.Errorf("Close = %v", err)
			}
			if tt.running {
				if err := <-turn; !errors.Is(err, shared.ErrClosed) {
					t.Errorf("the turn ended with %v, want ErrClosed", err)
				}
			}
			if cli != 0 && !proctest.WaitGone(cli, 5*time.Second) {
				t.Errorf("the CLI %d still runs after Close", cli)
			}
			if !proctest.WaitGone(pid, 5*time.Second) {
				t.Errorf("the sleep %d the CLI started still runs after Close: orphaned", pid)
			}
		})
	}
}

// TestRealCLI_CrashMidHook: the real CLI is killed while a hook runs. The hook's ctx is cancelled at
// once (its timeout is a minute), the turn ends with a *shared.ProcessError naming the signal,
// and Close returns that same error.
func TestRealCLI_CrashMidHook(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/ran.txt")), claudetest.TextReply("done")}
	})
	pid := make(chan int, 1)
	ctxErr := make(chan error, 1)
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHookTimeout(time.Minute),
		v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			syscall.Kill(<-pid, syscall.SIGKILL)
			<-ctx.Done()
			ctxErr <- ctx.Err()
			return shared.Allow(), nil
		})))
	pid <- s.Info().PID
	start := time.Now()
	_, err := s.Run(testCtx(t), "touch a file")
	var pe *shared.ProcessError
	if !errors.As(err, &pe) || pe.Signal != "SIGKILL" {
		t.Fatalf("Run = %v, want a *shared.ProcessError for SIGKILL", err)
	}
	if err := <-ctxErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the hook's ctx ended with %v, want context.Canceled (the crash)", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the crash took %v to surface", d)
	}
	if env.exists("ran.txt") {
		t.Error("the tool ran")
	}
	for range 2 {
		if cerr := s.Close(); cerr != error(pe) {
			t.Errorf("Close = %v, want the crash %v", cerr, pe)
		}
	}
}
