package v2_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// orphanHelperEnv makes TestOrphanHelper run (as a helper process of TestRealCLI_NoOrphans).
const orphanHelperEnv = "AGENT_SDK_ORPHAN_HELPER"

// TestOrphanHelper is the SDK process of TestRealCLI_NoOrphans: it starts a session whose model
// runs a Bash command that starts a background sleep, a setsid sleep and a foreground sleep, and
// waits in Run until it is killed. Its settings come from the environment.
func TestOrphanHelper(t *testing.T) {
	if os.Getenv(orphanHelperEnv) == "" {
		t.Skip("a helper of TestRealCLI_NoOrphans")
	}
	get := func(k string) string { return os.Getenv(orphanHelperEnv + "_" + k) }
	opts := []v2.Option{v2.WithCLIPath(get("CLI")), v2.WithCwd(get("PROJECT")),
		v2.WithBaseEnv(claudetest.CLIEnv(get("HOME"), get("URL"))...), v2.WithAllowedTools("Bash")}
	if get("CONFINED") == "1" {
		opts = append(opts, v2.WithPolicy(policy.Confined(get("PROJECT")).WithKernelConfinement()))
	}
	s, err := v2.CreateSession(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = s.Run(context.Background(), "go") // never returns: the test kills this process
}

// The SDK's process is SIGKILLed while its session's CLI runs a Bash command with children (one
// in the background, one that left the CLI's process group and session with setsid): the CLI
// and all of them end (the CLI's parent-death signal, from the OS thread that started it, and the
// watchdog that kills the group and the tagged processes when the SDK's end of its pipe closes).
// Before them the CLI went on with the next model call (issue 37).
func TestRealCLI_NoOrphans(t *testing.T) {
	t.Parallel()
	for _, confined := range []bool{false, true} {
		t.Run(fmt.Sprintf("confined=%v", confined), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_o", "Bash", bash(
					"tail -f /dev/null & echo $! > pids; setsid tail -f /dev/null & echo $! >> pids; echo $$ >> pids; tail -f /dev/null")),
					claudetest.TextReply("done")}
			})
			helper := exec.Command(os.Args[0], "-test.run=^TestOrphanHelper$", "-test.v")
			helper.Env = append(os.Environ(), orphanHelperEnv+"=1", orphanHelperEnv+"_CLI="+claudetest.RequireCLI(t),
				orphanHelperEnv+"_PROJECT="+env.project, orphanHelperEnv+"_HOME="+env.home, orphanHelperEnv+"_URL="+env.api.URL(),
				orphanHelperEnv+"_CONFINED="+map[bool]string{false: "0", true: "1"}[confined])
			out := &strings.Builder{}
			helper.Stdout, helper.Stderr = out, out
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
			pids := waitFor(t, func() []int {
				ps := readPids(filepath.Join(env.project, "pids"))
				if len(ps) < 3 {
					return nil
				}
				return append(ps, childrenOf(helper.Process.Pid)...)
			}, func() string {
				var results []string
				for _, r := range env.api.Requests() {
					for _, b := range r.ToolResults() {
						results = append(results, b.ContentText())
					}
				}
				return fmt.Sprintf("tool results %q; the helper said:\n%s", results, out)
			})
			if len(pids) < 4 {
				t.Fatalf("found no CLI among the helper's children; processes %v; helper said:\n%s", pids, out)
			}
			if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = helper.Wait()
			waitFor(t, func() []int {
				if alive := aliveOf(pids); len(alive) > 0 {
					return nil
				}
				return []int{0}
			}, func() string { return fmt.Sprintf("still running: %v of %v", aliveOf(pids), pids) })
		})
	}
}

// waitFor calls f until it returns a non-empty slice, for at most 30 s (then the test fails).
// The processes it watches end on their own; there is no event to wait for but /proc.
func waitFor(t *testing.T, f func() []int, context func() string) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if v := f(); len(v) > 0 {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("condition not met within 30 s: %s", context())
	return nil
}

// readPids reads the process ids the Bash command wrote.
func readPids(path string) []int {
	b, _ := os.ReadFile(path)
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// childrenOf returns pid's children, from /proc.
func childrenOf(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, f := range tasks {
		out = append(out, readPids(f)...)
	}
	return out
}

// aliveOf returns those of pids that still run (a zombie has ended).
func aliveOf(pids []int) []int {
	var alive []int
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if _, rest, ok := strings.Cut(string(b), ") "); ok && !strings.HasPrefix(rest, "Z") {
			alive = append(alive, pid)
		}
	}
	return alive
}
