package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// TestReadable: the grants cover everything but the denied paths: a denied directory's siblings
// are granted whole, its parent only for listing, and a link into a denied path is left out.
func TestReadable(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".ssh", ".config/gh", ".config/other", "src"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, "keys")); err != nil {
		t.Fatal(err)
	}
	g := readable([]string{filepath.Join(home, ".ssh"), filepath.Join(home, ".config/gh"), filepath.Join(home, ".netrc")})
	for _, want := range []string{filepath.Join(home, "src"), filepath.Join(home, ".config/other")} {
		if !slices.Contains(g.trees, want) {
			t.Errorf("%s not granted whole: %v", want, g.trees)
		}
	}
	if !slices.Contains(g.files, filepath.Join(home, ".bashrc")) {
		t.Errorf(".bashrc not granted: %v", g.files)
	}
	for _, denied := range []string{".ssh", "keys", ".config/gh", ".config"} {
		p := filepath.Join(home, denied)
		if slices.Contains(g.trees, p) || slices.Contains(g.files, p) {
			t.Errorf("%s granted", p)
		}
	}
	if !slices.Contains(g.lists, filepath.Join(home, ".config")) || !slices.Contains(g.lists, "/") {
		t.Errorf("the parents of the denied paths are not listable: %v", g.lists)
	}
}

// TestApplyConfinesOnlyTheChild: a child started from the restricted, locked thread cannot write
// outside the writable directories, read a denied file nor signal a process outside its domain,
// while this process still can write. (It can signal this process, which holds the thread.)
func TestApplyConfinesOnlyTheChild(t *testing.T) {
	if err := Check(); err != nil {
		t.Skip(err)
	}
	root, outside, deny := t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(deny, "secret")
	if err := os.WriteFile(secret, []byte("S"), 0o600); err != nil {
		t.Fatal(err)
	}
	victim := exec.Command("sleep", "60") // outside the domain: the child may not signal it
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = victim.Process.Kill(); _ = victim.Wait() })
	p, err := Prepare(Spec{WriteDirs: []string{root}, DenyRead: []string{deny}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	script := "echo in > " + root + "/a; echo out > " + outside + "/b; cat " + secret + "; echo tmp > $TMPDIR/c && echo TMP-OK; kill -s TERM " + strconv.Itoa(victim.Process.Pid) + " && echo SIGNALLED"
	out := make(chan string, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := p.Apply(); err != nil {
			out <- "Apply: " + err.Error()
			return
		}
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = append(os.Environ(), p.Env()...)
		b, _ := cmd.CombinedOutput()
		out <- string(b)
	}()
	got := <-out
	if _, err := os.Stat(filepath.Join(root, "a")); err != nil {
		t.Errorf("the write inside failed: %v; the child said %s", err, got)
	}
	if _, err := os.Stat(filepath.Join(outside, "b")); err == nil {
		t.Errorf("the child wrote outside; it said %s", got)
	}
	if strings.Contains(got, "S\n") || !strings.Contains(got, "TMP-OK") {
		t.Errorf("the child said %q: want no secret, and TMP-OK", got)
	}
	if v, _ := ll.LandlockGetABIVersion(); v >= 6 && strings.Contains(got, "SIGNALLED") {
		t.Errorf("the child could signal a process outside its domain (Landlock ABI %d scopes signals)", v)
	}
	if err := os.WriteFile(filepath.Join(outside, "parent"), nil, 0o644); err != nil {
		t.Errorf("this process was confined too: %v", err)
	}
}

// BenchmarkPrepare is the SDK's share of a confined start: the private directory, the links of
// the config directory, the read grants (a walk of / and HOME down to the denied paths), the
// ruleset. (Applying it is one system call on one thread.)
func BenchmarkPrepare(b *testing.B) {
	home, _ := os.UserHomeDir()
	spec := Spec{WriteDirs: []string{b.TempDir()}, DenyRead: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".aws"), filepath.Join(home, ".config/gh")},
		ConfigDir: filepath.Join(home, ".claude"), GlobalConfig: filepath.Join(home, ".claude.json"), ProjectKey: "-bench-confine"}
	b.Cleanup(func() { os.RemoveAll(filepath.Join(spec.ConfigDir, "projects", spec.ProjectKey)) })
	for b.Loop() {
		p, err := Prepare(spec)
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

// BenchmarkStart compares starting (and waiting for) /bin/true as the transport starts the CLI,
// from a locked thread, confined (Prepare, Apply, Close included) and not, interleaved: the whole
// start-time cost of confinement without the CLI's own start-up, whose noise hides it.
func BenchmarkStart(b *testing.B) {
	home, _ := os.UserHomeDir()
	spec := Spec{WriteDirs: []string{b.TempDir()}, DenyRead: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".aws"), filepath.Join(home, ".config/gh")},
		ConfigDir: filepath.Join(home, ".claude"), GlobalConfig: filepath.Join(home, ".claude.json"), ProjectKey: "-bench-confine"}
	b.Cleanup(func() { os.RemoveAll(filepath.Join(spec.ConfigDir, "projects", spec.ProjectKey)) })
	start := func(confined bool) error {
		var p *Plan
		if confined {
			var err error
			if p, err = Prepare(spec); err != nil {
				return err
			}
			defer p.Close()
		}
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread() // never unlocked
			if p != nil {
				if err := p.Apply(); err != nil {
					done <- err
					return
				}
			}
			done <- exec.Command("/bin/true").Run()
		}()
		return <-done
	}
	for _, confined := range []bool{false, true} {
		b.Run(map[bool]string{false: "unconfined", true: "landlock"}[confined], func(b *testing.B) {
			for b.Loop() {
				if err := start(confined); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRulesetSkipsVanishedGrants: the read grants are found by walking the file system, so an
// entry may be gone by the time the ruleset is built (another session's private directory in
// /tmp, a file of HOME); the start must go on without granting it, not fail. It failed a
// parallel test run before the grants were made IgnoreIfMissing.
func TestRulesetSkipsVanishedGrants(t *testing.T) {
	if err := Check(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	g := readGrants{trees: []string{gone + "-tree"}, lists: []string{gone + "-list"}, files: []string{gone + "-file", "/etc/hostname"}}
	r, err := rulesetOf(g, []string{dir})
	if err != nil {
		t.Fatalf("rulesetOf with grants that vanished: %v", err)
	}
	r.close()
}
