package main

import (
	stdzip "archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// localProxy is a module proxy in a directory (GOPROXY=file://DIR) that serves this repository's
// modules the way a user's go command meets them once they are pushed: each module at its
// current version (@latest) and at every version a go.mod of the repository pins, built from
// that commit with `git archive` as the go command builds a module from a repository.
type localProxy struct {
	dir     string
	current map[string]string // module path -> the version @latest serves
	served  []module.Version
}

// buildProxy writes the proxy into dir. A module whose files are as HEAD has them is served at
// HEAD's pseudo-version; one with uncommitted changes at a pseudo-version of now with revision
// 000000000000, from the work tree (tracked and new files, less ignored ones).
func (r *repo) buildProxy(dir string) (*localProxy, error) {
	p := &localProxy{dir: dir, current: map[string]string{}}
	head, err := r.resolveCommit("HEAD")
	if err != nil {
		return nil, err
	}
	for _, m := range r.modules {
		if err := r.serveCurrent(p, m, head); err != nil {
			return nil, err
		}
	}
	// Every version pinned by a go.mod served so far, and by theirs in turn.
	var queue []*modfile.File
	for _, m := range r.modules {
		queue = append(queue, m.file)
	}
	seen := map[module.Version]bool{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, req := range f.Require {
			dep, ok := r.byPath[req.Mod.Path]
			if !ok || seen[req.Mod] || req.Mod.Version == p.current[dep.path] || module.IsZeroPseudoVersion(req.Mod.Version) {
				continue
			}
			seen[req.Mod] = true
			pinned, err := r.servePinned(p, dep, req.Mod)
			if err != nil {
				return nil, err
			}
			queue = append(queue, pinned)
		}
	}
	return p, nil
}

// serveCurrent writes m as the work tree has it: at HEAD's pseudo-version when its files are as
// HEAD has them, at one of now otherwise.
func (r *repo) serveCurrent(p *localProxy, m *gomod, head commit) error {
	dirty, err := r.dirty(m)
	if err != nil {
		return err
	}
	v, err := r.pseudoVersion(m, head)
	if err != nil {
		return err
	}
	t := head.time
	var files []zip.File
	if dirty {
		t = time.Now().UTC().Truncate(time.Second)
		base, _ := module.PseudoVersionBase(v)
		v = module.PseudoVersion(semverMajor(v), base, t, "000000000000")
		files, err = r.workTreeFiles(m)
	} else {
		files, err = r.commitFiles(m, head)
	}
	if err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(m.goModPath())))
	if err != nil {
		return err
	}
	if err := p.write(module.Version{Path: m.path, Version: v}, t, goMod, files, true); err != nil {
		return err
	}
	p.current[m.path] = v
	return nil
}

// servePinned writes dep at the version mv, a pseudo-version of a commit of the repository, and
// returns its go.mod.
func (r *repo) servePinned(p *localProxy, dep *gomod, mv module.Version) (*modfile.File, error) {
	c, err := r.pinnedCommit(mv.Version)
	if err != nil {
		return nil, fmt.Errorf("modpin: %s: %w", mv, err)
	}
	goMod, err := r.fileAt(c, dep.goModPath())
	if err != nil {
		return nil, err
	}
	files, err := r.commitFiles(dep, c)
	if err != nil {
		return nil, err
	}
	if err := p.write(mv, c.time, goMod, files, false); err != nil {
		return nil, err
	}
	return modfile.Parse(mv.String()+"/go.mod", goMod, nil)
}

// write adds one module version to the proxy: .info, .mod, .zip, and @latest when latest.
func (p *localProxy) write(mv module.Version, t time.Time, goMod []byte, files []zip.File, latest bool) error {
	escPath, err := module.EscapePath(mv.Path)
	if err != nil {
		return err
	}
	escVersion, err := module.EscapeVersion(mv.Version)
	if err != nil {
		return err
	}
	vdir := filepath.Join(p.dir, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{mv.Version, t})
	if err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.Create(&z, mv, files); err != nil {
		return fmt.Errorf("modpin: zip of %s: %w", mv, err)
	}
	for name, data := range map[string][]byte{
		escVersion + ".info": info,
		escVersion + ".mod":  goMod,
		escVersion + ".zip":  z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return err
		}
	}
	// An empty list: pseudo-versions are not listed, so @latest answers "go get M".
	if _, err := os.Stat(filepath.Join(vdir, "list")); err != nil {
		if err := os.WriteFile(filepath.Join(vdir, "list"), nil, 0o644); err != nil {
			return err
		}
	}
	if latest {
		if err := os.WriteFile(filepath.Join(p.dir, filepath.FromSlash(escPath), "@latest"), info, 0o644); err != nil {
			return err
		}
	}
	p.served = append(p.served, mv)
	return nil
}

// commitFiles lists module m's files at commit c as the go command does when it makes a
// module zip from a repository: `git archive` of the module's directory (zip.Create then drops
// nested modules, vendor directories and symbolic links), plus the repository's LICENSE for a
// nested module that has none.
func (r *repo) commitFiles(m *gomod, c commit) ([]zip.File, error) {
	args := []string{"-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", c.hash}
	if m.dir != "." {
		args = append(args, "--", m.dir)
	}
	out, err := git(r.root, args...)
	if err != nil {
		return nil, err
	}
	zr, err := stdzip.NewReader(strings.NewReader(out), int64(len(out)))
	if err != nil {
		return nil, fmt.Errorf("modpin: git archive of %s at %.12s: %w", m.dir, c.hash, err)
	}
	var files []zip.File
	haveLicense := false
	for _, f := range zr.File {
		name, ok := relToModule(m, f.Name)
		if !ok || strings.HasSuffix(f.Name, "/") {
			continue
		}
		haveLicense = haveLicense || name == "LICENSE"
		files = append(files, archiveFile{name: name, f: f})
	}
	if !haveLicense && m.dir != "." {
		if data, err := r.fileAt(c, "LICENSE"); err == nil {
			files = append(files, dataFile{name: "LICENSE", data: data})
		}
	}
	return files, nil
}

// workTreeFiles lists module m's files in the work tree: tracked and new files that git does not
// ignore, as a commit of the work tree would hold them.
func (r *repo) workTreeFiles(m *gomod) ([]zip.File, error) {
	out, err := git(r.root, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", m.dir)
	if err != nil {
		return nil, err
	}
	var files []zip.File
	haveLicense := false
	for _, f := range strings.Split(out, "\x00") {
		name, ok := relToModule(m, f)
		if !ok {
			continue
		}
		full := filepath.Join(r.root, filepath.FromSlash(f))
		info, err := os.Lstat(full)
		if err != nil {
			continue // deleted in the work tree
		}
		haveLicense = haveLicense || name == "LICENSE"
		files = append(files, diskFile{name: name, full: full, info: info})
	}
	if !haveLicense && m.dir != "." {
		if data, err := os.ReadFile(filepath.Join(r.root, "LICENSE")); err == nil {
			files = append(files, dataFile{name: "LICENSE", data: data})
		}
	}
	return files, nil
}

// relToModule is a repository path relative to m's directory, or false outside it.
func relToModule(m *gomod, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	if m.dir == "." {
		return name, true
	}
	rel, ok := strings.CutPrefix(name, m.dir+"/")
	return rel, ok && rel != ""
}

// semverMajor is "v0" for v0.0.0-..., as module.PseudoVersion wants its major.
func semverMajor(v string) string {
	major, _, _ := strings.Cut(v, ".")
	return major
}

type archiveFile struct {
	name string
	f    *stdzip.File
}

func (a archiveFile) Path() string                 { return a.name }
func (a archiveFile) Lstat() (fs.FileInfo, error)  { return a.f.FileInfo(), nil }
func (a archiveFile) Open() (io.ReadCloser, error) { return a.f.Open() }

type diskFile struct {
	name, full string
	info       fs.FileInfo
}

func (d diskFile) Path() string                 { return d.name }
func (d diskFile) Lstat() (fs.FileInfo, error)  { return d.info, nil }
func (d diskFile) Open() (io.ReadCloser, error) { return os.Open(d.full) }

type dataFile struct {
	name string
	data []byte
}

func (d dataFile) Path() string                 { return d.name }
func (d dataFile) Lstat() (fs.FileInfo, error)  { return dataInfo{d}, nil }
func (d dataFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(d.data)), nil }

type dataInfo struct{ f dataFile }

func (i dataInfo) Name() string       { return path.Base(i.f.name) }
func (i dataInfo) Size() int64        { return int64(len(i.f.data)) }
func (i dataInfo) Mode() fs.FileMode  { return 0o644 }
func (i dataInfo) ModTime() time.Time { return time.Time{} }
func (i dataInfo) IsDir() bool        { return false }
func (i dataInfo) Sys() any           { return nil }
