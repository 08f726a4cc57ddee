package v2_test

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// testSpawner runs the CLI as the program's own exec.Cmd: it adds a variable of its own to the
// environment, and passes the CLI's stdout through its own writer (not a file: exec.Cmd then
// copies it on a goroutine, as a stream from a container API or an SSH channel would be), which
// counts the protocol lines.
type testSpawner struct {
	mu    sync.Mutex
	calls []subprocess.SpawnCommand
	cmd   *exec.Cmd
	out   lineCounter
}

func (sp *testSpawner) Spawn(_ context.Context, c subprocess.SpawnCommand) (subprocess.Process, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir, cmd.Env = c.Dir, append(slices.Clone(c.Env), "SPAWNED_BY=testSpawner")
	sp.out.w = c.Stdout
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, &sp.out, c.Stderr
	sp.mu.Lock()
	sp.calls, sp.cmd = append(sp.calls, c), cmd
	sp.mu.Unlock()
	return subprocess.CmdProcess(cmd)
}

func (sp *testSpawner) spawned() ([]subprocess.SpawnCommand, *exec.Cmd) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return slices.Clone(sp.calls), sp.cmd
}

// lineCounter passes what is written on to w and counts the newlines.
type lineCounter struct {
	w     interface{ Write([]byte) (int, error) }
	mu    sync.Mutex
	lines int
}

func (l *lineCounter) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.lines += bytes.Count(p, []byte{'\n'})
	l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineCounter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines
}

// TestRealCLI_Spawner: WithSpawner starts the CLI through the program's own code (issue 38
// item 10). The spawner gets the command line, directory and environment the SDK would have
// run; the session works through the spawner's streams; the CLI's environment has what the
// spawner added; Close ends the spawned process. A session with a confining WithPolicy refuses
// the spawner with a *ConfinementError naming WithoutOSConfinement, before anything is spawned,
// and runs with WithoutOSConfinement.
func TestRealCLI_Spawner(t *testing.T) {
	t.Parallel()
	t.Run("runs", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("t1", "Bash", bash("echo \"spawned:$SPAWNED_BY\"")), claudetest.TextReply("spawned answer")}
		})
		sp := &testSpawner{}
		s := env.session(t, v2.WithSpawner(sp), v2.WithAllowedTools("Bash"))
		if res := run(t, s, "hi"); res.Result != "spawned answer" {
			t.Errorf("result %q", res.Result)
		}
		if got := env.requestsContaining("spawned:testSpawner"); len(got) == 0 {
			t.Error("the Bash command did not see the spawner's variable: the CLI did not run through the spawner")
		}
		calls, cmd := sp.spawned()
		if len(calls) != 1 {
			t.Fatalf("Spawn called %d times, want 1", len(calls))
		}
		c := calls[0]
		if c.Dir != env.project || !slices.Contains(c.Args, "--input-format=stream-json") && !slices.Contains(c.Args, "stream-json") {
			t.Errorf("SpawnCommand: dir %q, args %q", c.Dir, c.Args)
		}
		if !slices.ContainsFunc(c.Env, func(kv string) bool { return strings.HasPrefix(kv, "AGENT_SDK_PROC_") }) {
			t.Error("SpawnCommand.Env lacks the transport's process tag")
		}
		if s.Info().PID != cmd.Process.Pid {
			t.Errorf("the CLI's pid %d is not the spawned process's %d", s.Info().PID, cmd.Process.Pid)
		}
		if n := sp.out.count(); n < 3 {
			t.Errorf("the spawner's stdout writer saw %d lines", n)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
		if cmd.ProcessState == nil {
			t.Error("Close returned before the spawned process was waited for")
		}
	})
	t.Run("refused_with_policy", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "unconfined answer")
		sp := &testSpawner{}
		_, err := env.create(t, v2.WithSpawner(sp), v2.WithPolicy(policy.Confined(env.project)))
		var ce *v2.ConfinementError
		if !errors.As(err, &ce) || !errors.Is(err, v2.ErrConfinementUnavailable) || !strings.Contains(err.Error(), "WithoutOSConfinement") {
			t.Fatalf("CreateSession = %v, want a *v2.ConfinementError naming WithoutOSConfinement", err)
		}
		if calls, _ := sp.spawned(); len(calls) != 0 {
			t.Errorf("Spawn was called %d times for a refused session", len(calls))
		}
		s := env.session(t, v2.WithSpawner(sp), v2.WithPolicy(policy.Confined(env.project)), v2.WithoutOSConfinement())
		if res := run(t, s, "hi"); res.Result != "unconfined answer" {
			t.Errorf("with WithoutOSConfinement: result %q", res.Result)
		}
	})
}

// TestSpawnerValidation: a nil Spawner and one with WithWrapper are option errors.
func TestSpawnerValidation(t *testing.T) {
	for name, opts := range map[string][]v2.Option{
		"nil":     {v2.WithSpawner(nil)},
		"wrapper": {v2.WithSpawner(&testSpawner{}), v2.WithWrapper("ssh", "box")},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := v2.CreateSession(context.Background(), append(opts, v2.WithCLIPath("/nonexistent/claude"))...)
			var oe *v2.OptionError
			if !errors.As(err, &oe) || oe.Option != "WithSpawner" {
				t.Fatalf("CreateSession = %v, want a WithSpawner *v2.OptionError", err)
			}
			if diff := cmp.Diff("WithSpawner", oe.Option); diff != "" {
				t.Error(diff)
			}
		})
	}
}
