//go:build unix

package subprocess

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"syscall"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"
)

// Tests of the Unix stop sequence: signals, process groups.

func TestCloseKillsAStubbornCLI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		script     string
		wantSignal syscall.Signal
	}{
		{"ignores stdin EOF: SIGTERM", script("hang"), syscall.SIGTERM},
		{"ignores stdin EOF and SIGTERM: SIGKILL", script("ignore-term", "hang"), syscall.SIGKILL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The fake writes a line once it has set up its signals, so Close does not race them.
			tr := startFake(t, Config{CloseGrace: 50 * time.Millisecond}, strings.Replace(tt.script, "hang", "out {\"type\":\"ready\"}\nhang", 1))
			nextRaw(t, tr, "ready")
			start := time.Now()
			if err := tr.Close(); err != nil {
				t.Errorf("Close = %v, want nil (the SDK stopped it)", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Close took %v", d)
			}
			ws := tr.proc.cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != tt.wantSignal {
				t.Errorf("the CLI ended with %v, want killed by %v", tr.proc.cmd.ProcessState, tt.wantSignal)
			}
		})
	}
}

func childPID(t *testing.T, tr *Transport) int {
	t.Helper()
	var c struct {
		PID int `json:"pid"`
	}
	if err := json.Unmarshal(nextRaw(t, tr, "child").Raw, &c); err != nil || c.PID == 0 {
		t.Fatalf("child line: %v", err)
	}
	t.Cleanup(func() { syscall.Kill(c.PID, syscall.SIGKILL) })
	return c.PID
}

// TestCloseKillsTheProcessGroup: a tool the CLI started (a grandchild holding stdout) is gone
// after Close.
func TestCloseKillsTheProcessGroup(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{CloseGrace: 50 * time.Millisecond}, script("spawn-sleep", "hang"))
	pid := childPID(t, tr)
	if proctest.Gone(pid) {
		t.Fatal("the grandchild is not running")
	}
	tr.Close()
	if !proctest.WaitGone(pid, 5*time.Second) {
		t.Errorf("the grandchild %d still runs after Close", pid)
	}
}

// TestExitWithAGrandchildHoldingStdout: the CLI exits on its own while a tool it started still
// holds stdout; the transport must still end (and stop the tool), not wait for the tool.
func TestExitWithAGrandchildHoldingStdout(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("spawn-sleep", "stderr bye", "exit 4"))
	pid := childPID(t, tr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tr.Next(ctx)
	var pe *shared.ProcessError
	if !errors.As(err, &pe) || pe.ExitCode != 4 || pe.Stderr != "bye" {
		t.Fatalf("Next = %v, want the *shared.ProcessError of the exit", err)
	}
	if !proctest.WaitGone(pid, 5*time.Second) {
		t.Errorf("the grandchild %d still runs", pid)
	}
}

// TestProcessErrorNamesTheSignal: a CLI killed by a signal is a *ProcessError naming the signal,
// which unwraps to the *exec.ExitError.
func TestProcessErrorNamesTheSignal(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("stderr dying", "kill-self"))
	_, err := drain(t, tr)
	var pe *shared.ProcessError
	if !errors.As(err, &pe) || pe.Signal != "SIGKILL" || pe.ExitCode != -1 {
		t.Fatalf("end = %#v, want a *shared.ProcessError for SIGKILL", err)
	}
	if want := "v2: CLI was killed by signal SIGKILL; stderr: dying"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != -1 {
		t.Errorf("errors.As(*exec.ExitError) = %v, want the Wait error", ee)
	}
}
