package policy

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// FuzzBashSandbox is the differential check of the analysis against what a command does: for a
// generated command that the policy allows (without kernel confinement), running it with bash in a
// throw-away fixture inside bubblewrap (the whole file system read-only but the fixture, no
// network) must change nothing outside the project and no protected path in it. A command the
// policy denies is not run: denying when unsure is agreement.
//
// Cost: a sandboxed run takes ~20-200 ms on a loaded machine, so one process runs at most
// sandboxBudget of them and then only decides, as FuzzBash does: 100 while fuzzing (per fuzz
// worker: CI's 40000 executions of each target stay within about half a minute of sandboxed
// work), 40 when go test runs the seeds; POLICY_SANDBOX_RUNS overrides both. Without bwrap the target skips, except under CI=true,
// where that is a failure.
func FuzzBashSandbox(f *testing.F) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("CI") == "true" {
			f.Fatal("bwrap is not installed (apt-get install bubblewrap); CI runs the sandbox differential fuzz")
		}
		f.Skip("bwrap is not installed")
	}
	for _, c := range benign {
		f.Add(c)
	}
	for _, c := range modelBenign {
		f.Add(c)
	}
	for _, e := range append(escapes, classEscapes...) {
		f.Add(e.cmd)
	}
	shared := newFixture(f)
	sp := shared.policy()
	f.Fuzz(func(t *testing.T, cmd string) {
		if d := sp.Bash(shared.root, cmd); !d.Allow || sandboxRuns.Add(1) > sandboxBudget() {
			return
		}
		// A fixture of its own, for the command to change; decided there again.
		fx := newFixture(t)
		if d := fx.policy().Bash(fx.root, cmd); !d.Allow {
			return
		}
		base := filepath.Dir(fx.root)
		before := snapshot(t, base, fx.root)
		runSandboxed(bwrap, base, fx.root, fx.home, cmd)
		after := snapshot(t, base, fx.root)
		for path, was := range before {
			if now, ok := after[path]; !ok || now != was {
				t.Fatalf("allowed %q, and in the sandbox it changed %s (%s -> %s)", cmd, path, was, now)
			}
		}
		for path, now := range after {
			if _, ok := before[path]; !ok {
				t.Fatalf("allowed %q, and in the sandbox it created %s (%s)", cmd, path, now)
			}
		}
	})
}

var sandboxRuns atomic.Int64

// sandboxBudget is how many commands one process runs in the sandbox.
func sandboxBudget() int64 {
	if n, err := strconv.ParseInt(os.Getenv("POLICY_SANDBOX_RUNS"), 10, 64); err == nil {
		return n
	}
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		return 100
	}
	return 40
}

// runSandboxed runs cmd with bash in project, inside bubblewrap: / read-only, base (the fixture)
// writable at the same path, a private /tmp, /dev and /proc, no network, at most one second.
func runSandboxed(bwrap, base, project, home, cmd string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--bind", base, base, "--unshare-all", "--die-with-parent", "--new-session", "--chdir", project,
		"--setenv", "HOME", home, "--setenv", "XDG_CACHE_HOME", "/tmp/cache", "--setenv", "XDG_CONFIG_HOME", "/tmp/config",
		"--setenv", "GOCACHE", "/tmp/gocache", "--setenv", "GOTELEMETRY", "off", "--", "/bin/bash", "-c", cmd)
	c.WaitDelay = time.Second
	_ = c.Run() // what it printed or returned does not matter: what it changed does
}

// snapshot describes every entry below base but those of project that are not protected: its
// type, size, mode, modification time and link target.
func snapshot(t *testing.T, base, project string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(project, path)
		inProject := rel == "." || !strings.HasPrefix(rel, "..")
		if inProject && !isProtectedFixturePath(rel) {
			return nil
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return nil
		}
		desc := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			desc += " -> " + target
		}
		out[path] = desc
		return nil
	})
	return out
}

// isProtectedFixturePath reports whether rel, a path in the fixture's project, is one of
// DefaultProtected's.
func isProtectedFixturePath(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == ".git" || strings.HasPrefix(part, ".env") {
			return true
		}
	}
	return strings.HasPrefix(filepath.ToSlash(rel), ".claude/settings")
}
