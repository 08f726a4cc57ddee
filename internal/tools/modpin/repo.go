package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// repo is the git repository and the Go modules in it.
type repo struct {
	root    string   // absolute path of the work tree
	modules []*gomod // every module, the root module first
	byPath  map[string]*gomod
}

// gomod is one module of the repository, as its go.mod reads in the work tree.
type gomod struct {
	dir  string // slash path relative to the repository root; "." for the root module
	path string // module path
	file *modfile.File
}

// goModPath is the go.mod's path relative to the repository root, as a message names it.
func (m *gomod) goModPath() string { return path.Join(m.dir, "go.mod") }

// openRepo finds the repository around the current directory and reads every go.mod in it
// (tracked or new, outside testdata).
func openRepo() (*repo, error) {
	top, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("modpin: run it inside the repository: %w", err)
	}
	r := &repo{root: strings.TrimSpace(top), byPath: map[string]*gomod{}}
	list, err := git(r.root, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "go.mod", "*/go.mod")
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, f := range strings.Split(list, "\x00") {
		if f == "" || slices.Contains(strings.Split(f, "/"), "testdata") {
			continue
		}
		if _, err := os.Stat(filepath.Join(r.root, f)); err != nil {
			continue // deleted in the work tree
		}
		dirs = append(dirs, path.Dir(f))
	}
	slices.Sort(dirs) // "." sorts first
	dirs = slices.Compact(dirs)
	for _, dir := range dirs {
		name := path.Join(dir, "go.mod")
		data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, err
		}
		if f.Module == nil {
			return nil, fmt.Errorf("modpin: %s has no module line", name)
		}
		m := &gomod{dir: dir, path: f.Module.Mod.Path, file: f}
		r.modules = append(r.modules, m)
		r.byPath[m.path] = m
	}
	if len(r.modules) == 0 || r.modules[0].dir != "." {
		return nil, fmt.Errorf("modpin: no go.mod at the repository root %s", r.root)
	}
	return r, nil
}

// core is the root module.
func (r *repo) core() *gomod { return r.modules[0] }

// inRepo reports whether a module path belongs to a module of this repository.
func (r *repo) inRepo(modPath string) bool { _, ok := r.byPath[modPath]; return ok }

// nested lists the directories of the modules nested in m's directory.
func (r *repo) nested(m *gomod) []string {
	var dirs []string
	for _, o := range r.modules {
		if o != m && (m.dir == "." || strings.HasPrefix(o.dir, m.dir+"/")) {
			dirs = append(dirs, o.dir)
		}
	}
	return dirs
}

// pathspec is the git pathspec of m's own files: its directory less the modules nested in it.
func (r *repo) pathspec(m *gomod) []string {
	spec := []string{m.dir}
	for _, d := range r.nested(m) {
		spec = append(spec, ":(exclude)"+d)
	}
	return spec
}

// commit is one commit, as a pseudo-version needs it.
type commit struct {
	hash string
	time time.Time // the committer's time, which the go command puts in a pseudo-version
}

// resolveCommit finds the commit a revision (a hash, a prefix of one, HEAD) names.
func (r *repo) resolveCommit(rev string) (commit, error) {
	out, err := git(r.root, "show", "-s", "--format=%H %ct", rev+"^{commit}", "--")
	if err != nil {
		return commit{}, fmt.Errorf("modpin: no commit %q in this repository (a shallow clone? fetch the history): %w", rev, err)
	}
	hash, secs, _ := strings.Cut(strings.TrimSpace(out), " ")
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return commit{}, fmt.Errorf("modpin: commit time of %s: %w", rev, err)
	}
	return commit{hash: hash, time: time.Unix(n, 0).UTC()}, nil
}

// isAncestor reports whether commit a is HEAD or in its history.
func (r *repo) isAncestor(a string) bool {
	_, err := git(r.root, "merge-base", "--is-ancestor", a, "HEAD")
	return err == nil
}

// pseudoVersion is the version the go command gives module m at commit c: a pseudo-version
// based on the highest release tag of m (DIR/vX.Y.Z for a nested module) in c's history, or
// v0.0.0 when there is none.
func (r *repo) pseudoVersion(m *gomod, c commit) (string, error) {
	prefix := ""
	if m.dir != "." {
		prefix = m.dir + "/"
	}
	out, err := git(r.root, "tag", "--merged", c.hash, "--list", prefix+"v*")
	if err != nil {
		return "", err
	}
	_, pathMajor, _ := module.SplitPathVersion(m.path)
	older := ""
	for _, tag := range strings.Fields(out) {
		v := strings.TrimPrefix(tag, prefix)
		if semver.IsValid(v) && semver.Build(v) == "" && module.CheckPathMajor(v, pathMajor) == nil && semver.Compare(v, older) > 0 {
			older = v
		}
	}
	major := semver.Major(older)
	if pathMajor != "" {
		major = module.PathMajorPrefix(pathMajor)
	}
	return module.PseudoVersion(major, older, c.time, c.hash[:12]), nil
}

// fileAt reads a file (a slash path from the repository root) at a commit.
func (r *repo) fileAt(c commit, name string) ([]byte, error) {
	out, err := git(r.root, "show", c.hash+":"+name)
	if err != nil {
		return nil, fmt.Errorf("modpin: %s at %.12s: %w", name, c.hash, err)
	}
	return []byte(out), nil
}

// dirty reports whether m's own files differ from HEAD in the work tree (changed, staged or new).
func (r *repo) dirty(m *gomod) (bool, error) {
	out, err := git(r.root, append([]string{"status", "--porcelain", "--"}, r.pathspec(m)...)...)
	return strings.TrimSpace(out) != "", err
}

// git runs git in dir and returns its standard output; its error carries git's standard error.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
