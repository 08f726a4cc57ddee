//go:build unix

package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"
)

// TestRealCLI_Wrapper: WithWrapper runs the CLI through the user's command. The wrapper script
// starts a background sleep (in its process group), writes its own pid and the sleep's to a
// marker file, and execs the CLI. The session works, the CLI is the wrapper's process, and Close
// ends it and the sleep.
func TestRealCLI_Wrapper(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "wrapped answer")
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	wrapper := filepath.Join(dir, "wrap.sh")
	writeFile(t, wrapper, "#!/bin/sh\nsleep 300 &\necho \"$$ $!\" > \"$WRAP_MARKER\"\nexec \"$@\"\n")
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	s := env.session(t, v2.WithWrapper(wrapper), v2.WithEnv("WRAP_MARKER="+marker), v2.WithCloseGrace(500*time.Millisecond))
	if res := run(t, s, "hi"); res.Result != "wrapped answer" {
		t.Errorf("result %q", res.Result)
	}
	b, err := os.ReadFile(marker)
	if err != nil {
		t.Fatalf("the wrapper did not run: %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		t.Fatalf("marker %q", b)
	}
	wrapPID, _ := strconv.Atoi(f[0])
	sleepPID, _ := strconv.Atoi(f[1])
	t.Cleanup(func() { syscall.Kill(sleepPID, syscall.SIGKILL) })
	if cli := s.Info().PID; cli != wrapPID {
		t.Errorf("the CLI's pid %d is not the wrapper's %d: the CLI did not run through it", cli, wrapPID)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if !proctest.WaitGone(wrapPID, 5*time.Second) {
		t.Errorf("the wrapped CLI %d still runs after Close", wrapPID)
	}
	if !proctest.WaitGone(sleepPID, 5*time.Second) {
		t.Errorf("the wrapper's sleep %d still runs after Close", sleepPID)
	}
}

// TestRealCLI_WrapperFails: a wrapper that exits without running the CLI makes CreateSession fail
// with a *shared.ProcessError carrying its exit code and what it wrote on stderr.
func TestRealCLI_WrapperFails(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "unused")
	wrapper := filepath.Join(t.TempDir(), "wrap.sh")
	// It exits at once, often before the SDK writes initialize, whose write then fails with
	// EPIPE: the transport still reports the process's own failure.
	writeFile(t, wrapper, "#!/bin/sh\necho 'no sandbox here' >&2\nexit 3\n")
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := env.create(t, v2.WithWrapper(wrapper))
	var pe *shared.ProcessError
	if !errors.As(err, &pe) || pe.ExitCode != 3 || !strings.Contains(pe.Stderr, "no sandbox here") {
		t.Fatalf("CreateSession = %v, want a *shared.ProcessError with exit code 3", err)
	}
}
