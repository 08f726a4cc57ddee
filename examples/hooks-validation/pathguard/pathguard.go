// Package pathguard decides whether a file path an agent wants to write stays inside a project
// directory, the way the operating system will resolve it: relative paths are taken against the
// tool call's working directory, symbolic links of the part of the path that exists are resolved,
// ".." is applied after them, and the result is compared with the project by whole path
// components, so that /work/app2 is not inside /work/app.
//
// It works on Unix paths, and checks at one instant: a process that swaps a directory for a
// symbolic link between the check and the write wins the race. A hook is a policy, not a sandbox.
package pathguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/policy/shellparse"
)

// ErrEmptyPath is returned for an empty path: there is nothing to check, so callers must refuse.
var ErrEmptyPath = errors.New("pathguard: empty path")

// Inside reports whether path, resolved by Resolve against cwd, is root itself or below it. root
// must be an absolute path to an existing directory; its own symbolic links are resolved too. An
// error means the path cannot be judged (empty, relative with a relative cwd, a dangling or
// looping symbolic link): callers must treat it as outside.
func Inside(root, cwd, path string) (bool, error) {
	if !filepath.IsAbs(root) {
		return false, fmt.Errorf("pathguard: root %q is not absolute", root)
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false, fmt.Errorf("pathguard: root: %w", err)
	}
	p, err := Resolve(cwd, path)
	if err != nil {
		return false, err
	}
	return p == r || r == "/" || strings.HasPrefix(p, r+"/"), nil
}

// Resolve returns the absolute path the operating system would reach for path: joined to cwd when
// relative, with the symbolic links of its longest existing prefix resolved (".." after a symbolic
// link goes up from the link's target, as in the kernel), and the rest, which does not exist yet,
// cleaned. A prefix that exists but cannot be resolved (a dangling or looping link) is an error:
// writing through a dangling link creates its target, wherever that is.
func Resolve(cwd, path string) (string, error) {
	switch {
	case path == "":
		return "", ErrEmptyPath
	case strings.HasPrefix(path, "~"):
		// Some tools expand a leading ~ to a home directory, others do not: refuse to guess.
		return "", fmt.Errorf("pathguard: %q starts with ~", path)
	case strings.ContainsRune(path, 0):
		return "", fmt.Errorf("pathguard: %q holds a NUL byte", path)
	}
	if !filepath.IsAbs(path) {
		if !filepath.IsAbs(cwd) {
			return "", fmt.Errorf("pathguard: relative path %q with a cwd that is not absolute (%q)", path, cwd)
		}
		path = cwd + "/" + path // not filepath.Join: it would apply ".." before resolving links
	}
	parts := strings.Split(path, "/") // parts[0] is "" (the root)
	for n := len(parts); n >= 1; n-- {
		prefix := strings.Join(parts[:n], "/")
		if prefix == "" {
			prefix = "/"
		}
		real, err := filepath.EvalSymlinks(prefix)
		if err == nil {
			return filepath.Clean(real + "/" + strings.Join(parts[n:], "/")), nil
		}
		if _, lerr := os.Lstat(prefix); lerr == nil {
			return "", fmt.Errorf("pathguard: cannot resolve %q: %w", prefix, err)
		}
	}
	return "", fmt.Errorf("pathguard: cannot resolve %q", path) // unreachable: "/" exists
}

// Harmless lists the redirection targets BashWriteTargets leaves out: they are not files in the
// project, but writing to them does no harm.
var Harmless = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// ErrUnknownTarget says a command writes through a redirection whose target cannot be known
// without running the shell: a parameter, a command substitution, a glob, a ~, or a relative path
// after a cd. Callers must refuse the command.
var ErrUnknownTarget = errors.New("pathguard: a redirection target cannot be known before the command runs")

// BashWriteTargets returns the files a shell command line writes through output redirections (>
// >> >| &> &>> <> >&file and fd-prefixed forms such as 2>), as written, except Harmless ones,
// nested ones included (in $(...), subshells, functions, loops). It covers redirections only:
// files written by the commands themselves (cp, mv, tee, dd of=, sed -i, touch, a script, ...)
// are not seen. A target it cannot know gives ErrUnknownTarget; a line the shell parser
// (mvdan.cc/sh/v3/syntax) rejects gives its error.
func BashWriteTargets(cmd string) ([]string, error) {
	f, err := shellparse.Parse(cmd)
	if err != nil {
		return nil, err
	}
	changesDir := false
	for _, c := range shellparse.Calls(f) {
		if w, _ := shellparse.Static(c.Args[0]); w == "cd" || w == "pushd" || w == "popd" {
			changesDir = true
		}
	}
	var targets []string
	for _, r := range shellparse.Redirects(f) {
		if !shellparse.Writes(r) {
			continue
		}
		t, ok := shellparse.Static(r.Word)
		switch {
		case !ok || t == "" || shellparse.Glob(r.Word) || shellparse.Tilde(r.Word):
			return nil, fmt.Errorf("%w: %s", ErrUnknownTarget, r.Op)
		case Harmless[t]:
			continue
		case changesDir && !filepath.IsAbs(t):
			return nil, fmt.Errorf("%w: %s %s after a change of directory", ErrUnknownTarget, r.Op, t)
		}
		targets = append(targets, t)
	}
	return targets, nil
}
