package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// repo is every Go file of the repository's modules, parsed. The files are read from the work
// tree as git lists them (tracked, or new and not ignored), whatever their build constraints: a
// file built only on Windows counts as much as any other. No go command runs, so a module that
// needs another toolchain (contrib/temporal) is checked like the rest.
type repo struct {
	root    string
	fset    *token.FileSet
	modules []module // longest path first, so the first match is the module owning a directory
	files   []*file
}

// module is one go.mod of the repository.
type module struct {
	dir  string // slash path relative to the repository root; "." for the core
	path string
}

// file is one parsed .go file.
type file struct {
	name    string // slash path relative to the repository root
	module  module
	pkg     string // import path of its package
	test    bool   // a _test.go file
	lines   int
	imports []string
	ast     *ast.File // the whole file for non-test files, the imports only for tests
}

// loadRepo parses the repository at root.
func loadRepo(root string) (*repo, error) {
	names, err := gitFiles(root, "go.mod", "*/go.mod", "*.go")
	if err != nil {
		return nil, err
	}
	return loadFiles(root, names)
}

// loadFiles parses the go.mod and .go files named (slash paths relative to root).
func loadFiles(root string, names []string) (*repo, error) {
	r := &repo{root: root, fset: token.NewFileSet()}
	for _, name := range names {
		if path.Base(name) != "go.mod" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return nil, fmt.Errorf("housecheck: %w", err)
		}
		mf, err := modfile.ParseLax(name, data, nil)
		if err != nil || mf.Module == nil {
			return nil, fmt.Errorf("housecheck: %s: no module line (%v)", name, err)
		}
		r.modules = append(r.modules, module{dir: path.Dir(name), path: mf.Module.Mod.Path})
	}
	slices.SortFunc(r.modules, func(a, b module) int { return len(b.dir) - len(a.dir) })
	for _, name := range names {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := r.parse(name)
		if err != nil {
			return nil, err
		}
		r.files = append(r.files, f)
	}
	return r, nil
}

// parse reads one .go file: the whole of it, or only its imports for a test file.
func (r *repo) parse(name string) (*file, error) {
	src, err := os.ReadFile(filepath.Join(r.root, name))
	if err != nil {
		return nil, fmt.Errorf("housecheck: %w", err)
	}
	f := &file{name: name, test: strings.HasSuffix(name, "_test.go"), lines: strings.Count(string(src), "\n")}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		f.lines++
	}
	mode := parser.ParseComments | parser.SkipObjectResolution
	if f.test {
		mode = parser.ImportsOnly
	}
	if f.ast, err = parser.ParseFile(r.fset, name, src, mode); err != nil {
		return nil, fmt.Errorf("housecheck: %w", err)
	}
	for _, spec := range f.ast.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		f.imports = append(f.imports, p)
	}
	dir := path.Dir(name)
	f.module = r.moduleOf(dir)
	f.pkg = f.module.path
	if dir != f.module.dir {
		f.pkg += "/" + strings.TrimPrefix(dir, f.module.dir+"/")
		if f.module.dir == "." {
			f.pkg = f.module.path + "/" + dir
		}
	}
	return f, nil
}

// moduleOf is the module that owns the directory dir.
func (r *repo) moduleOf(dir string) module {
	for _, m := range r.modules {
		if m.dir == "." || dir == m.dir || strings.HasPrefix(dir, m.dir+"/") {
			return m
		}
	}
	return module{dir: ".", path: "?"}
}

// moduleOfImport is the repository module an import path belongs to, if any.
func (r *repo) moduleOfImport(p string) (module, bool) {
	best, ok := module{}, false
	for _, m := range r.modules {
		if within(p, m.path) && len(m.path) > len(best.path) {
			best, ok = m, true
		}
	}
	return best, ok
}

// generated reports whether a file says it is generated (the go command's convention).
func (f *file) generated() bool {
	return f.ast != nil && ast.IsGenerated(f.ast)
}

// within reports whether the import path p is prefix or a package under it.
func within(p, prefix string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

// gitFiles lists the work tree's files matching the patterns, tracked or new, outside testdata
// and the directories the go command ignores (names starting with "." or "_").
func gitFiles(root string, patterns ...string) ([]string, error) {
	args := append([]string{"-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--"}, patterns...)
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("housecheck: git ls-files in %s: %w", root, err)
	}
	var names []string
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" || ignoredPath(name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			continue // deleted in the work tree
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// ignoredPath reports whether the go command would skip the file: under testdata, or under a
// directory whose name starts with "." or "_".
func ignoredPath(name string) bool {
	parts := strings.Split(name, "/")
	for _, p := range parts[:len(parts)-1] {
		if p == "testdata" || strings.HasPrefix(p, ".") || strings.HasPrefix(p, "_") {
			return true
		}
	}
	return false
}
