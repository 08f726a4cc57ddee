package v2_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// noLandlockEnv makes the test binary run TestNoLandlockFailsClosed's child half: a process
// whose kernel, as far as it can tell, has no Landlock.
const noLandlockEnv = "V2_TEST_NO_LANDLOCK"

// On a kernel without Landlock, a policy session does not start unconfined: CreateSession fails
// with a *ConfinementError that says Landlock is missing and names WithoutOSConfinement, before
// the CLI (a script that would leave a mark) runs; with WithoutOSConfinement the CLI starts. The
// kernel here has Landlock, so the test runs its half in a child process under a seccomp filter
// that fails landlock_create_ruleset with ENOSYS, what a kernel built without Landlock answers:
// the SDK's real check (go-landlock's ABI probe) sees no Landlock, no seam in the SDK.
func TestNoLandlockFailsClosed(t *testing.T) {
	if os.Getenv(noLandlockEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoLandlockFailsClosed$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), noLandlockEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestNoLandlockFailsClosed") {
			t.Fatalf("the child without Landlock: %v\n%s", err, out)
		}
		return
	}
	if err := denyLandlock(); err != nil {
		t.Fatalf("installing the seccomp filter: %v", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, 1); errno != unix.ENOSYS {
		t.Fatalf("landlock_create_ruleset under the filter: errno %v, want ENOSYS", errno)
	}
	project, bin := t.TempDir(), t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the private directory would be made
	mark := filepath.Join(t.TempDir(), "cli-ran")
	cli := filepath.Join(bin, "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\n: > "+mark+"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := []v2.Option{v2.WithCLIPath(cli), v2.WithCwd(project), v2.WithPolicy(policy.Confined(project))}
	checkFailsClosed(t, opts, mark, tmp, "Landlock is not enabled")
}

// denyLandlock installs, on every thread of the process, a seccomp filter that fails
// landlock_create_ruleset with ENOSYS and allows every other system call.
func denyLandlock() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_LANDLOCK_CREATE_RULESET, Jt: 0, Jf: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return errno
	}
	return nil
}
