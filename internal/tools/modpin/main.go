// Command modpin keeps the repository's modules fetchable by a user, and proves it.
//
// The modules nested in the repository (contrib/otel, examples, ...) require the core, and each
// other, at pseudo-versions of commits in the repository's history: the version a user's go
// command fetches. Development builds use the working tree through go.work, which a user's build
// never sees, and no go.mod has a replace.
//
// Usage, from anywhere in the repository:
//
//	GOWORK=off go run -C internal/tools ./modpin check
//	GOWORK=off go run -C internal/tools ./modpin pin [-module DIR] [REV]
//
// The go command reads every required version's go.mod, even for a module that go.work builds
// from the working tree, and no module proxy can serve a commit that is not pushed. So each
// go.work replaces every pinned version of the repository's modules by its working tree (a
// replace block that pin writes and check checks): a workspace build on an empty module cache
// fetches only third-party modules. GOWORK=off because modpin is not part of that build.
//
// check fails when a go.mod has a replace or the placeholder version
// v0.0.0-00010101000000-000000000000, or pins a version that is not the go command's name of a
// commit in HEAD's history, or when a go.work's replace block is not the one pin writes. Then it
// serves the repository's modules from a module proxy in a temporary directory
// (GOPROXY=file://...: the module zips made with golang.org/x/mod/zip from `git archive` of each
// pinned commit, as the go command makes them, and from the work tree for the current version),
// puts the pinned versions in the module cache (for go commands outside the workspace: `go mod
// tidy` in a nested module, GOWORK=off builds), vets each module of go.work that requires another
// on its own (GOWORK=off: its go.mod and go.sum as they are, which type-checks every package and
// test against the pinned versions), and builds and vets a user's module outside the repository
// that imports the core, contrib/otel, contrib/pgstore and claudetest, with GOFLAGS=-mod=mod and
// no replace: first after `go get` of contrib/otel and contrib/pgstore (the core at the version
// they require), then with the core at the latest. The consumer has a module cache of its own and
// builds with -trimpath, so that its compiled packages are cached across runs.
//
// pin sets every requirement of a nested module's go.mod on a module of the repository to that
// module's pseudo-version at REV (default HEAD: commit the core's change first, then pin it),
// drops replaces of them, and runs `go mod tidy` there against the local proxy to update go.sum.
// With -module DIR it rewrites only DIR/go.mod. Then it rewrites each go.work's replace block and
// each go.work.sum: emptied, then filled by the go command as it loads the workspace's module
// graph and packages (for Linux, Windows and macOS), so that no workspace build adds a line.
//
// A requirement names an earlier commit than the one that writes it, so a nested module may use
// a new core API only once the commit that adds it is in the history; until then go.work builds
// it from the working tree and check reports the pin that is too old.
package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// invocation is how a developer runs modpin, as its messages say.
const invocation = "GOWORK=off go run -C internal/tools ./modpin"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "check":
		err = check()
	case "pin":
		fs := flag.NewFlagSet("pin", flag.ExitOnError)
		only := fs.String("module", "", "rewrite only this module's go.mod (its directory from the repository root)")
		fs.Parse(os.Args[2:])
		if fs.NArg() > 1 {
			usage()
		}
		err = pin(fs.Arg(0), *only)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintf(os.Stderr, "usage: %s check\n       %s pin [-module DIR] [REV]\n", invocation, invocation)
	os.Exit(2)
}

// check runs every check in the package doc, in order, and stops at the first that fails.
func check() error {
	r, err := openRepo()
	if err != nil {
		return err
	}
	fmt.Println("-- go.mod files: no replace, no placeholder, pins of commits in HEAD's history")
	var errs []error
	for _, m := range r.modules {
		errs = append(errs, lintGoMod(m.goModPath(), m.file, r.inRepo)...)
	}
	log, pinErrs := r.checkPins()
	errs = append(errs, pinErrs...)
	fmt.Println("-- go.work files: each pinned version of the repository's modules replaced by its working tree")
	wss, err := r.workspaces()
	if err != nil {
		return err
	}
	for _, ws := range wss {
		errs = append(errs, r.checkReplaces(ws)...)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, l := range log {
		fmt.Println(l)
	}

	tmp, err := os.MkdirTemp("", "modpin-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	p, err := r.buildProxy(tmp)
	if err != nil {
		return err
	}
	fmt.Printf("-- local proxy %s serves:\n", fileURL(tmp))
	for _, mv := range p.served {
		fmt.Println("  ", mv)
	}

	env, err := goEnv(p, r.core().path, nil)
	if err != nil {
		return err
	}
	if err := seedModuleCache(p, env); err != nil {
		return err
	}

	work, err := r.workModules()
	if err != nil {
		return err
	}
	for _, m := range r.modules {
		if !r.requiresRepo(m) {
			continue
		}
		if !work[m.dir] {
			fmt.Printf("-- module %s: not in go.work, so not built here (its go.mod rules are checked above)\n", m.dir)
			continue
		}
		// vet type-checks every package and test; go build would write a command's binary here.
		fmt.Printf("-- module %s on its own (GOWORK=off, the versions its go.mod requires): go vet ./...\n", m.dir)
		if _, err := runGo(filepath.Join(r.root, filepath.FromSlash(m.dir)), env, "vet", "./..."); err != nil {
			return fmt.Errorf("modpin: %s does not build with the versions its go.mod requires (if it needs a newer core, commit the core's change and run `"+invocation+" pin`): %w", m.dir, err)
		}
	}
	if err := r.checkConsumer(p); err != nil {
		return err
	}
	fmt.Println("-- modpin check passed")
	return nil
}

// seedModuleCache downloads every pinned version the proxy serves into the module cache, where
// go commands outside the workspace find them (`go mod tidy` in a nested module, GOWORK=off
// builds; the workspace itself replaces them by the working tree). A version whose
// go.mod needs a newer Go than this one (contrib/temporal) is downloaded by the toolchain its
// go.mod names (its toolchain line, else its go line), as its own workspace builds it.
func seedModuleCache(p *localProxy, env []string) error {
	byToolchain := map[string][]string{} // "" is this go
	for _, mv := range p.served {
		if p.current[mv.Path] == mv.Version {
			continue
		}
		tc, err := p.toolchainFor(mv)
		if err != nil {
			return err
		}
		byToolchain[tc] = append(byToolchain[tc], mv.String())
	}
	for _, tc := range slices.Sorted(maps.Keys(byToolchain)) {
		versions := byToolchain[tc]
		fmt.Println("-- module cache:", strings.Join(versions, " "), tc)
		e := env
		if tc != "" {
			e = append(slices.Clone(env), "GOTOOLCHAIN="+tc)
		}
		if _, err := runGo(os.TempDir(), e, append([]string{"mod", "download"}, versions...)...); err != nil {
			return err
		}
	}
	return nil
}

// toolchainFor returns the toolchain that mv's go.mod asks for when it needs a newer Go than the
// running one, or "".
func (p *localProxy) toolchainFor(mv module.Version) (string, error) {
	escPath, err := module.EscapePath(mv.Path)
	if err != nil {
		return "", err
	}
	escVersion, err := module.EscapeVersion(mv.Version)
	if err != nil {
		return "", err
	}
	name := filepath.Join(p.dir, filepath.FromSlash(escPath), "@v", escVersion+".mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax(name, data, nil)
	if err != nil {
		return "", err
	}
	return toolchainOf(f), nil
}

// toolchainOf returns the toolchain f asks for (its toolchain line, else its go line) when it
// needs a newer Go than the running one, or "".
func toolchainOf(f *modfile.File) string {
	if f.Go == nil || semver.Compare("v"+f.Go.Version, "v"+strings.TrimPrefix(runtime.Version(), "go")) <= 0 {
		return ""
	}
	if f.Toolchain != nil {
		return f.Toolchain.Name
	}
	return "go" + f.Go.Version
}

// requiresRepo reports whether m requires a module of the repository.
func (r *repo) requiresRepo(m *gomod) bool {
	for _, req := range m.file.Require {
		if r.inRepo(req.Mod.Path) {
			return true
		}
	}
	return false
}

// workModules is the set of module directories that go.work uses.
func (r *repo) workModules() (map[string]bool, error) {
	name := filepath.Join(r.root, "go.work")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("modpin: the repository needs a go.work for development: %w", err)
	}
	wf, err := modfile.ParseWork(name, data, nil)
	if err != nil {
		return nil, err
	}
	dirs := map[string]bool{}
	for _, u := range wf.Use {
		dirs[filepath.ToSlash(filepath.Clean(u.Path))] = true
	}
	return dirs, nil
}

// pin rewrites the nested modules' requirements on the repository's modules to rev.
func pin(rev, only string) error {
	r, err := openRepo()
	if err != nil {
		return err
	}
	c, err := r.pinTarget(rev)
	if err != nil {
		return err
	}
	var changed []*gomod
	for _, m := range r.modules[1:] {
		if only != "" && m.dir != filepath.ToSlash(filepath.Clean(only)) {
			continue
		}
		ok, err := r.pinModule(m, c)
		if err != nil {
			return err
		}
		if ok {
			changed = append(changed, m)
		}
	}
	if len(changed) == 0 {
		fmt.Printf("modpin: every pin already names %.12s\n", c.hash)
	} else if err := tidy(changed); err != nil {
		return err
	}
	return syncWorkspaces()
}

// syncWorkspaces rewrites each go.work's replaces of the pinned versions (see writeReplaces) and
// its go.work.sum (see refreshWorkSum).
func syncWorkspaces() error {
	r, err := openRepo() // the go.mod files as pin and tidy left them
	if err != nil {
		return err
	}
	wss, err := r.workspaces()
	if err != nil {
		return err
	}
	for _, ws := range wss {
		changed, err := r.writeReplaces(ws)
		if err != nil {
			return err
		}
		if changed {
			fmt.Printf("%s: the replace block names the pinned versions\n", ws.name)
		}
		if err := r.refreshWorkSum(ws); err != nil {
			return err
		}
	}
	return nil
}

// pinTarget resolves rev ("" is HEAD), a commit in HEAD's history, and warns when the pins name
// HEAD while the core has uncommitted changes.
func (r *repo) pinTarget(rev string) (commit, error) {
	if rev == "" {
		rev = "HEAD"
	}
	c, err := r.resolveCommit(rev)
	if err != nil {
		return commit{}, err
	}
	if !r.isAncestor(c.hash) {
		return commit{}, fmt.Errorf("modpin: %s (%.12s) is not in HEAD's history", rev, c.hash)
	}
	if dirty, err := r.dirty(r.core()); err == nil && dirty && rev == "HEAD" {
		fmt.Fprintln(os.Stderr, "modpin: warning: the core has uncommitted changes; the pins name HEAD, without them")
	}
	return c, nil
}

// pinModule drops m's replaces of the repository's modules, requires each of them at c, and
// writes m's go.mod when that changed it.
func (r *repo) pinModule(m *gomod, c commit) (changed bool, err error) {
	before, err := m.file.Format()
	if err != nil {
		return false, err
	}
	for _, rep := range slices.Clone(m.file.Replace) {
		if r.inRepo(rep.Old.Path) {
			if err := m.file.DropReplace(rep.Old.Path, rep.Old.Version); err != nil {
				return false, err
			}
		}
	}
	for _, req := range m.file.Require {
		if dep, ok := r.byPath[req.Mod.Path]; ok {
			if err := r.pinRequire(m, dep, c); err != nil {
				return false, err
			}
		}
	}
	m.file.Cleanup()
	after, err := m.file.Format()
	if err != nil || string(after) == string(before) {
		return false, err
	}
	return true, os.WriteFile(filepath.Join(r.root, filepath.FromSlash(m.goModPath())), after, 0o644)
}

// pinRequire makes m require dep at the pseudo-version of c, when dep's go.mod at c can be
// fetched.
func (r *repo) pinRequire(m, dep *gomod, c commit) error {
	goMod, err := r.fileAt(c, dep.goModPath())
	if err != nil {
		return fmt.Errorf("modpin: %s requires %s, which has no go.mod at %.12s", m.goModPath(), dep.path, c.hash)
	}
	f, err := modfile.Parse(dep.goModPath(), goMod, nil)
	if err != nil {
		return err
	}
	if errs := lintGoMod(dep.goModPath(), f, r.inRepo); len(errs) > 0 {
		return fmt.Errorf("modpin: %s at %.12s cannot be fetched, pin a later commit: %w", dep.path, c.hash, errors.Join(errs...))
	}
	v, err := r.pseudoVersion(dep, c)
	if err != nil {
		return err
	}
	return m.file.AddRequire(dep.path, v)
}

// tidy rereads the go.mod files, then lets go mod tidy update the changed modules' go.sum from a
// local proxy of the repository's modules, and prints their pins.
func tidy(changed []*gomod) error {
	r, err := openRepo()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "modpin-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	p, err := r.buildProxy(tmp)
	if err != nil {
		return err
	}
	env, err := goEnv(p, r.core().path, nil)
	if err != nil {
		return err
	}
	for _, m := range changed {
		menv := env
		if tc := toolchainOf(m.file); tc != "" { // contrib/temporal: tidied by the Go its go.mod names
			menv = append(slices.Clip(env), "GOTOOLCHAIN="+tc)
		}
		if _, err := runGo(filepath.Join(r.root, filepath.FromSlash(m.dir)), menv, "mod", "tidy"); err != nil {
			return err
		}
		var pins []string
		for _, req := range r.byPath[m.path].file.Require {
			if r.inRepo(req.Mod.Path) {
				pins = append(pins, module.Version{Path: req.Mod.Path, Version: req.Mod.Version}.String())
			}
		}
		fmt.Printf("%s: %s\n", m.goModPath(), strings.Join(pins, ", "))
	}
	return nil
}
