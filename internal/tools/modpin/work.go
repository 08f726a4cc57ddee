package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// replaceComment heads the replace block that pin writes into each go.work.
const replaceComment = `// The modules of the workspace require the repository's own modules at pseudo-versions of its
// commits, which no module proxy may serve yet (a commit not pushed, or no network), and the go
// command reads each required version's go.mod even in workspace mode. Here each pinned version
// is the working tree, so that a build on an empty module cache fetches none of them; a user's
// build (no go.work) fetches them. Written by modpin pin, checked by modpin check.
`

// workspace is one go.work of the repository.
type workspace struct {
	name string // slash path from the repository root: "go.work", "contrib/temporal/go.work"
	file *modfile.WorkFile
}

// dir is the workspace's directory, a slash path from the repository root.
func (ws *workspace) dir() string { return path.Dir(ws.name) }

// workspaces reads every go.work of the repository (tracked or new, outside testdata).
func (r *repo) workspaces() ([]*workspace, error) {
	list, err := git(r.root, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "go.work", "*/go.work")
	if err != nil {
		return nil, err
	}
	var wss []*workspace
	for _, name := range strings.Split(list, "\x00") {
		if name == "" || slices.Contains(strings.Split(name, "/"), "testdata") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(name)))
		if err != nil {
			continue // deleted in the work tree
		}
		f, err := modfile.ParseWork(name, data, nil)
		if err != nil {
			return nil, err
		}
		wss = append(wss, &workspace{name: name, file: f})
	}
	return wss, nil
}

// used lists the repository's modules that ws uses.
func (r *repo) used(ws *workspace) []*gomod {
	var mods []*gomod
	for _, u := range ws.file.Use {
		dir := path.Clean(path.Join(ws.dir(), filepath.ToSlash(u.Path)))
		for _, m := range r.modules {
			if m.dir == dir {
				mods = append(mods, m)
			}
		}
	}
	return mods
}

// workReplace is one replace line of a go.work: a pinned version of a repository module, and the
// directory (relative to the go.work) that stands for it.
type workReplace struct {
	old module.Version
	dir string
}

// wantReplaces is the replace block ws needs: every version of a repository module that a go.mod
// of the workspace requires, replaced by that module's directory. The replaced go.mod files are
// the working tree's, whose requirements are in the set too, so no version of the repository's
// modules is fetched.
func (r *repo) wantReplaces(ws *workspace) []workReplace {
	seen := map[module.Version]bool{}
	var want []workReplace
	for _, m := range r.used(ws) {
		for _, req := range m.file.Require {
			dep, ok := r.byPath[req.Mod.Path]
			if !ok || seen[req.Mod] {
				continue
			}
			seen[req.Mod] = true
			want = append(want, workReplace{old: req.Mod, dir: relDir(ws.dir(), dep.dir)})
		}
	}
	slices.SortFunc(want, func(a, b workReplace) int {
		return cmp.Or(cmp.Compare(a.old.Path, b.old.Path), cmp.Compare(a.old.Version, b.old.Version))
	})
	return want
}

// relDir is the go.work spelling of directory to (slash, from the repository root) seen from
// directory from: "./", "./contrib/otel", "../..", "../pgstore".
func relDir(from, to string) string {
	rel, err := filepath.Rel(filepath.FromSlash(from), filepath.FromSlash(to))
	if err != nil {
		return to
	}
	rel = filepath.ToSlash(rel)
	switch {
	case rel == ".":
		return "./"
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return rel
	default:
		return "./" + rel
	}
}

// checkReplaces reports how ws's replaces of the repository's modules differ from wantReplaces.
func (r *repo) checkReplaces(ws *workspace) []error {
	want := map[module.Version]string{}
	for _, w := range r.wantReplaces(ws) {
		want[w.old] = w.dir
	}
	fix := "(run `" + invocation + " pin`)"
	var errs []error
	have := map[module.Version]bool{}
	for _, rep := range ws.file.Replace {
		if !r.inRepo(rep.Old.Path) {
			continue
		}
		where := fmt.Sprintf("%s:%d: replace %s => %s", ws.name, rep.Syntax.Start.Line, rep.Old, rep.New.Path)
		dir, ok := want[rep.Old]
		switch {
		case rep.Old.Version == "":
			errs = append(errs, fmt.Errorf("%s: replace only the pinned versions, so that the go.mod pins stay checked %s", where, fix))
		case !ok:
			errs = append(errs, fmt.Errorf("%s: no go.mod of the workspace requires that version %s", where, fix))
		case rep.New.Version != "" || path.Clean(rep.New.Path) != path.Clean(dir):
			errs = append(errs, fmt.Errorf("%s: want => %s, the module's working tree %s", where, dir, fix))
		}
		have[rep.Old] = true
	}
	for _, w := range r.wantReplaces(ws) {
		if !have[w.old] {
			errs = append(errs, fmt.Errorf("%s: no replace of %s, which a go.mod of the workspace requires: a build on an empty module cache would fetch it, and no proxy serves it %s", ws.name, w.old, fix))
		}
	}
	return errs
}

// writeReplaces rewrites ws's replaces of the repository's modules as one block of
// wantReplaces, and reports whether the file changed.
func (r *repo) writeReplaces(ws *workspace) (bool, error) {
	before := modfile.Format(ws.file.Syntax)
	for _, rep := range slices.Clone(ws.file.Replace) {
		if r.inRepo(rep.Old.Path) {
			if err := ws.file.DropReplace(rep.Old.Path, rep.Old.Version); err != nil {
				return false, err
			}
		}
	}
	ws.file.Cleanup()
	var b bytes.Buffer
	b.Write(bytes.TrimRight(modfile.Format(ws.file.Syntax), "\n"))
	if want := r.wantReplaces(ws); len(want) > 0 {
		b.WriteString("\n\n" + replaceComment + "replace (\n")
		for _, w := range want {
			fmt.Fprintf(&b, "\t%s %s => %s\n", w.old.Path, w.old.Version, w.dir)
		}
		b.WriteString(")")
	}
	b.WriteString("\n")
	f, err := modfile.ParseWork(ws.name, b.Bytes(), nil)
	if err != nil {
		return false, fmt.Errorf("modpin: the rewritten %s does not parse: %w", ws.name, err)
	}
	ws.file = f
	after := modfile.Format(f.Syntax)
	if bytes.Equal(after, before) {
		return false, nil
	}
	return true, os.WriteFile(filepath.Join(r.root, filepath.FromSlash(ws.name)), after, 0o644)
}

// refreshWorkSum rewrites ws's go.work.sum with the checksums that the workspace's builds need
// beyond its modules' go.sum files, so that no build adds a line: it empties the file, then lets
// the go command fill it while it loads the module graph (go list -m all) and every package and
// test of the workspace's modules for Linux, Windows and macOS (CI builds all three). A go.work
// that needs a newer Go than this one is loaded by the Go it names.
func (r *repo) refreshWorkSum(ws *workspace) error {
	name := filepath.Join(r.root, filepath.FromSlash(ws.name)+".sum")
	old, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		return err
	}
	env := append(os.Environ(), "GOWORK="+filepath.Join(r.root, filepath.FromSlash(ws.name)), "GOFLAGS=")
	if ws.file.Go != nil {
		if tc := toolchainOf(&modfile.File{Go: ws.file.Go}); tc != "" {
			env = append(env, "GOTOOLCHAIN="+tc)
		}
	}
	var patterns []string
	for _, m := range r.used(ws) {
		patterns = append(patterns, filepath.Join(r.root, filepath.FromSlash(m.dir))+"/...")
	}
	dir := filepath.Join(r.root, filepath.FromSlash(ws.dir()))
	type goStep struct {
		goos string // "" is this system
		args []string
	}
	steps := []goStep{{"", []string{"list", "-m", "all"}}}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		steps = append(steps, goStep{goos, append([]string{"list", "-deps", "-test", "-f", "{{.ImportPath}}"}, patterns...)})
	}
	for _, s := range steps {
		e := env
		if s.goos != "" {
			e = append(slices.Clip(env), "GOOS="+s.goos)
		}
		if _, err := runGo(dir, e, s.args...); err != nil {
			os.WriteFile(name, old, 0o644) // as it was: the failure is the news
			return fmt.Errorf("modpin: refreshing %s.sum: %w", ws.name, err)
		}
	}
	now, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, old) {
		fmt.Printf("%s.sum: rewritten (%d lines, was %d)\n", ws.name, bytes.Count(now, []byte("\n")), bytes.Count(old, []byte("\n")))
	}
	return nil
}
