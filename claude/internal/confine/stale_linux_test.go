package confine

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// staleChildEnv makes the test binary TestStalePrivateDirsAreSwept's child: it prepares a plan,
// prints its private directory and waits to be killed.
const staleChildEnv = "CONFINE_TEST_STALE_CHILD"

// A process killed while its session ran (SIGKILL: no Close) leaves its private directory; the
// next Prepare in the same temporary directory removes it, and leaves alone the private
// directory of a plan that is still open, and one without a lock file (not the SDK's to judge).
func TestStalePrivateDirsAreSwept(t *testing.T) {
	if os.Getenv(staleChildEnv) != "" {
		p, err := Prepare(Spec{WriteDirs: []string{os.Getenv("CONFINE_TEST_ROOT")}})
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString(p.Dir() + "\n")
		select {} // until killed
	}
	if err := Check(); err != nil {
		t.Skip(err)
	}
	tmp, root := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	live, err := Prepare(Spec{WriteDirs: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	unlocked := filepath.Join(tmp, privatePrefix+"nolock")
	if err := os.Mkdir(unlocked, 0o700); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestStalePrivateDirsAreSwept$")
	cmd.Env = append(os.Environ(), staleChildEnv+"=1", "CONFINE_TEST_ROOT="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("the child printed no directory: %v", err)
	}
	dead := strings.TrimSpace(line)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(dead); err != nil {
		t.Fatalf("the killed child's private directory %s is not there to sweep: %v", dead, err)
	}

	next, err := Prepare(Spec{WriteDirs: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the killed process's private directory %s is still there (%v)", dead, err)
	}
	if _, err := os.Stat(dead + lockSuffix); !os.IsNotExist(err) {
		t.Errorf("its lock file is still there (%v)", err)
	}
	for _, keep := range []string{live.Dir(), live.Dir() + lockSuffix, unlocked, next.Dir()} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", keep, err)
		}
	}
	if err := next.Close(); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{next.Dir(), next.Dir() + lockSuffix} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("Close left %s (%v)", gone, err)
		}
	}
}

// Plans prepared at once in one temporary directory sweep while others are being made: none
// takes another's new directory for stale (its lock file appears only once locked).
func TestConcurrentPreparesKeepEachOthersDirs(t *testing.T) {
	if err := Check(); err != nil {
		t.Skip(err)
	}
	tmp, root := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const n = 16
	plans := make([]*Plan, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { plans[i], errs[i] = Prepare(Spec{WriteDirs: []string{root}}) })
	}
	wg.Wait()
	for i, p := range plans {
		if errs[i] != nil {
			t.Errorf("Prepare %d: %v", i, errs[i])
			continue
		}
		if _, err := os.Stat(filepath.Join(p.Dir(), "config")); err != nil {
			t.Errorf("plan %d's private directory was swept: %v", i, err)
		}
		defer p.Close()
	}
}
