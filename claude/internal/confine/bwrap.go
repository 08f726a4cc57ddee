package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Bubblewrap returns the command line that runs a program confined by bubblewrap instead of
// Landlock, for a CLI that runs bubblewrap itself (its sandbox, v2.WithSandbox): a process in a
// Landlock domain may not mount, so the CLI's bubblewrap cannot run inside one, while it can
// inside another bubblewrap. The program (the CLI and its arguments) follows the returned words.
//
// The file system is read-only but for the writable directories of the Plan (bound read-write)
// and /dev; the paths of Spec.Protected that exist inside them are bound read-only again; a
// denied directory is an empty read-only tmpfs, a denied file /dev/null. The program dies with
// bubblewrap (--die-with-parent). It shares the host's network, user, processes and /proc (which
// the CLI's bubblewrap needs: see below), so /proc/sys stays as writable as the user may write it.
func (p *Plan) Bubblewrap() ([]string, error) {
	bin, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("%w: WithSandbox with confinement needs bubblewrap (bwrap) around the CLI: %v", ErrUnavailable, err)
	}
	// The host's /proc, read-write: the CLI's bubblewrap mounts a new proc in a user namespace,
	// which the kernel allows only where a fully visible, writable proc is mounted already (and
	// it writes its uid_map there); so no PID namespace here either.
	args := []string{bin, "--die-with-parent", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--bind", "/proc", "/proc"}
	for _, d := range p.writable {
		args = append(args, "--bind", d, d)
	}
	for _, prot := range p.spec.Protected {
		if _, err := os.Lstat(prot); err == nil && p.insideWritable(prot) {
			args = append(args, "--ro-bind", prot, prot)
		}
	}
	for _, d := range resolved(p.spec.DenyRead) {
		fi, err := os.Stat(d)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("confine: a denied path: %w", err)
		case fi.IsDir():
			args = append(args, "--tmpfs", d, "--remount-ro", d)
		default:
			args = append(args, "--ro-bind", "/dev/null", d)
		}
	}
	return append(args, "--"), nil
}

// insideWritable reports whether path is below one of the writable directories.
func (p *Plan) insideWritable(path string) bool {
	path = filepath.Clean(path)
	for _, d := range p.writable {
		if within(path, d) {
			return true
		}
	}
	return false
}
