package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks is how many symbolic links one resolution follows, as Linux's limit: more is ELOOP.
const maxLinks = 40

// resolve returns the absolute path the kernel reaches for name, named from cwd: ~ and ~/
// expanded to the home directory (~user is an error), joined to cwd when relative, then walked
// one component at a time as the kernel does: a symbolic link replaced by its target (".." after
// a link goes up from the target), /proc/self/cwd and /proc/self/root as the shell's own (cwd and
// /), other /proc links of a process (fd, exe, another process's cwd) an error. A name below the
// longest existing prefix is appended cleaned; ".." there is an error (the kernel would fail,
// unless the command creates the name first, e.g. as a link). A link that exists but cannot be
// followed (dangling, looping) is an error: writing through a dangling link creates its target,
// wherever that is.
func (p *Policy) resolve(cwd, name string) (string, error) { return p.walk(cwd, name, nil) }

// walk is resolve with the links virt (absolute link path -> target) that the command creates
// before the path is used.
func (p *Policy) walk(cwd, name string, virt map[string]string) (string, error) {
	switch {
	case name == "":
		return "", fmt.Errorf("empty path")
	case strings.ContainsRune(name, 0):
		return "", fmt.Errorf("%q holds a NUL byte", name)
	case strings.HasPrefix(name, "~") && name != "~" && !strings.HasPrefix(name, "~/"):
		return "", fmt.Errorf("%q names another user's home", name)
	}
	name = p.expandHome(name)
	if !filepath.IsAbs(name) {
		if !filepath.IsAbs(cwd) {
			return "", fmt.Errorf("relative path %q with a working directory that is not absolute (%q)", name, cwd)
		}
		name = cwd + string(filepath.Separator) + name
	}
	vol := filepath.VolumeName(name)
	root := vol + string(filepath.Separator)
	todo := splitPath(name[len(vol):])
	cur, links := root, 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		if sub, err, ok := procLink(next, cwd, root); ok {
			if err != nil {
				return "", err
			}
			cur = sub
			continue
		}
		target, isLink := virt[next]
		if !isLink {
			var done bool
			var err error
			cur, target, done, err = step(cur, next, c, todo, name)
			if err != nil || done {
				return cur, err
			}
			if target == "" {
				continue
			}
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("cannot resolve %q: too many levels of symbolic links", name)
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			cur = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		todo = append(splitPath(target), todo...)
	}
	return cur, nil
}

// step looks at next, the component c below cur: it returns cur moved to next when next is no
// link; the link's target when it is one; done with the whole path when next does not exist (the
// rest, todo, is appended cleaned).
func step(cur, next, c string, todo []string, name string) (string, string, bool, error) {
	fi, err := os.Lstat(next)
	if errors.Is(err, fs.ErrNotExist) {
		rest := append([]string{c}, todo...)
		for _, r := range rest {
			if r == ".." {
				return "", "", true, fmt.Errorf("%q uses .. after %q, which does not exist yet", name, strings.Join(rest, "/"))
			}
		}
		return filepath.Clean(cur + string(filepath.Separator) + filepath.Join(rest...)), "", true, nil
	}
	if err != nil {
		return "", "", true, fmt.Errorf("cannot resolve %q: %v", next, err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return next, "", false, nil
	}
	target, err := os.Readlink(next)
	if err != nil {
		return "", "", true, fmt.Errorf("cannot resolve %q: %v", next, err)
	}
	return cur, target, false, nil
}

func splitPath(s string) []string {
	return strings.FieldsFunc(filepath.ToSlash(s), func(r rune) bool { return r == '/' })
}

// procLink resolves next when it is a /proc link of a process: /proc/self/cwd (and
// thread-self's) is the shell's cwd, /proc/self/root is /; any other link of a process (fd, exe,
// map_files, another process's cwd or root) names what only that process knows: an error. ok is
// false for any other path.
func procLink(next, cwd, root string) (string, error, bool) {
	rest, ok := strings.CutPrefix(filepath.ToSlash(next), "/proc/")
	if !ok {
		return "", nil, false
	}
	parts := strings.Split(rest, "/")
	proc := parts[0]
	own := proc == "self" || proc == "thread-self"
	if !own && strings.Trim(proc, "0123456789") != "" {
		return "", nil, false // /proc/sys/..., /proc/mounts: plain files
	}
	switch {
	case len(parts) == 1:
		return next, nil, true
	case len(parts) == 2 && parts[1] == "cwd" && own:
		if !filepath.IsAbs(cwd) {
			return "", fmt.Errorf("%s is the shell's working directory, which the policy cannot follow here", next), true
		}
		return cwd, nil, true
	case len(parts) == 2 && parts[1] == "root" && own:
		return root, nil, true
	case len(parts) == 2 && parts[1] != "cwd" && parts[1] != "root" && parts[1] != "exe":
		return next, nil, true // fd, environ, status: a directory or a file of the process
	}
	return "", fmt.Errorf("%s is a link only the process %s can follow; name the file itself", next, proc), true
}

// resolve is Policy.resolve with the links the command created earlier, and the directories it
// filled with entries the policy cannot see (an archive extracted, a tree copied with its links):
// a path below one of those is an error until the command ends.
func (a *analyzer) resolve(cwd, name string) (string, error) {
	key := cwd + "\x00" + name
	r, ok := a.resolved[key]
	if !ok {
		r.real, r.err = a.p.walk(cwd, name, a.links)
		if len(a.resolved) < maxResolveCache {
			a.resolved[key] = r
		}
	}
	real, err := r.real, r.err
	if err != nil {
		return "", err
	}
	for _, t := range a.tainted {
		if a.p.under(real, t) && real != t {
			return "", fmt.Errorf("%s is below %s, which an earlier part of the command filled from an archive or a copy that keeps links; run the rest as a command of its own", name, t)
		}
	}
	return real, nil
}

// taint records that the command fills x (a directory it extracts or copies into) with entries
// that may be links.
func (a *analyzer) taint(x arg, cwd string) {
	if !x.known || cwd == "" && !isAbsLike(x.val) {
		return
	}
	if real, err := a.resolve(cwd, x.val); err == nil {
		a.tainted = append(a.tainted, real)
	}
}

// maxResolveCache bounds the resolutions one analysis remembers.
const maxResolveCache = 4096

// resolution is a remembered resolve: the same name from the same directory resolves alike until
// the command creates a link (addLink forgets them all).
type resolution struct {
	real string
	err  error
}

// addLink records a link the command creates at path, to target.
func (a *analyzer) addLink(path, target string) {
	a.links[path] = target
	clear(a.resolved)
}
