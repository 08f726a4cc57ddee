package confine

import (
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Check returns nil if this kernel offers Landlock at MinABI or later, else an error wrapping
// ErrUnavailable that says what it has.
func Check() error {
	v, err := ll.LandlockGetABIVersion()
	switch {
	case err != nil:
		return fmt.Errorf("%w: Landlock is not enabled in this kernel (%v)", ErrUnavailable, err)
	case v < MinABI:
		return fmt.Errorf("%w: the kernel's Landlock ABI is %d, the SDK needs %d (Linux 6.2)", ErrUnavailable, v, MinABI)
	}
	return nil
}

// handledFS are the file system rights the ruleset restricts: every one up to ABI 5 (ioctl on
// devices), downgraded to what the kernel has (never below MinABI: Check).
const handledFS = landlock.AccessFSSet(1<<16 - 1)

// ruleset is a Landlock ruleset ready to be applied.
type ruleset struct {
	fd    int
	flags uint32
}

// newRuleset builds the ruleset of spec: read everything but spec.DenyRead; write below
// spec.WriteDirs and writable (the private directory, the transcripts); write to devices but
// create nothing in /dev outside /dev/shm; signal no process outside the CLI's tree (ABI 6).
func newRuleset(spec Spec, writable []string) (ruleset, error) {
	return rulesetOf(readable(spec.DenyRead), writable)
}

// rulesetOf builds the ruleset of the read grants g and the writable directories rw.
func rulesetOf(g readGrants, rw []string) (ruleset, error) {
	for _, d := range rw {
		if _, err := os.Stat(d); err != nil {
			return ruleset{-1, 0}, fmt.Errorf("confine: a writable directory: %w", err)
		}
	}
	rules := []landlock.Rule{
		// The read grants name every entry of a directory on the way to a denied path, found by
		// walking the file system just before: an entry removed since (another session's private
		// directory, a file of HOME) is not granted, instead of failing the start.
		landlock.RODirs(g.trees...).IgnoreIfMissing(),
		landlock.PathAccess(ll.AccessFSReadDir, g.lists...).IgnoreIfMissing(),
		landlock.ROFiles(g.files...).IgnoreIfMissing(),
		landlock.RWDirs(rw...).WithRefer(),
		landlock.PathAccess(ll.AccessFSReadFile|ll.AccessFSWriteFile|ll.AccessFSTruncate|ll.AccessFSIoctlDev, "/dev").IgnoreIfMissing(),
		landlock.RWDirs("/dev/shm").IgnoreIfMissing(),
	}
	cfg := landlock.Config{HandledAccessFS: handledFS, Scoped: landlock.ScopedSet(ll.ScopeSignal)}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return ruleset{-1, 0}, fmt.Errorf("confine: building the Landlock ruleset: %w", err)
	}
	if fd < 0 { // BestEffort found nothing to restrict: never run unconfined
		return ruleset{-1, 0}, fmt.Errorf("%w: the Landlock ruleset restricts nothing on this kernel", ErrUnavailable)
	}
	return ruleset{fd, flags}, nil
}

func (r *ruleset) close() {
	if r.fd >= 0 {
		_ = syscall.Close(r.fd)
		r.fd = -1
	}
}

// Apply restricts the calling OS thread, and so every process it starts from then on, with the
// ruleset (and sets no_new_privs on it, which Landlock requires). The caller must hold
// runtime.LockOSThread and never unlock it: the thread must end with its goroutine, never run
// another one. Apply may be called once.
func (p *Plan) Apply() error {
	if p.rules.fd < 0 {
		return fmt.Errorf("%w: the ruleset was applied or closed already", ErrUnavailable)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("confine: prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := ll.LandlockRestrictSelf(p.rules.fd, p.rules.flags); err != nil {
		return fmt.Errorf("confine: landlock_restrict_self: %w", err)
	}
	p.rules.close()
	return nil
}
