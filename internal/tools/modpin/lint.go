package main

import (
	"fmt"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// lintGoMod checks the rules every go.mod of the repository keeps so that a user can fetch its
// module: no replace directive (the go command ignores one in a dependency, so a build that needs
// it works here and nowhere else; development uses go.work), and every requirement on a module
// of this repository at a pseudo-version of a real commit, never the placeholder
// v0.0.0-00010101000000-000000000000 that only a replace can satisfy.
// The commits themselves are checked by checkPins, which needs git.
func lintGoMod(name string, f *modfile.File, inRepo func(string) bool) []error {
	var errs []error
	for _, r := range f.Replace {
		errs = append(errs, fmt.Errorf("%s:%d: replace %s => %s: a user's build ignores a replace in a dependency; development uses go.work (delete the line, then `"+invocation+" pin`)",
			name, r.Syntax.Start.Line, r.Old.Path, r.New.Path))
	}
	for _, req := range f.Require {
		if !inRepo(req.Mod.Path) {
			continue
		}
		switch v := req.Mod.Version; {
		case module.IsZeroPseudoVersion(v):
			errs = append(errs, fmt.Errorf("%s:%d: requires %s at the placeholder %s, which no one can download (run `"+invocation+" pin`)",
				name, req.Syntax.Start.Line, req.Mod.Path, v))
		case !module.IsPseudoVersion(v):
			errs = append(errs, fmt.Errorf("%s:%d: requires %s at %s: want a pseudo-version of a commit of this repository (run `"+invocation+" pin`)",
				name, req.Syntax.Start.Line, req.Mod.Path, v))
		}
	}
	return errs
}

// checkPins checks that every requirement on a module of the repository names a commit in
// HEAD's history at which that module exists, with the pseudo-version the go command would
// give it, and returns one line per requirement for the log.
func (r *repo) checkPins() (log []string, errs []error) {
	for _, m := range r.modules {
		for _, req := range m.file.Require {
			dep, ok := r.byPath[req.Mod.Path]
			if !ok || !module.IsPseudoVersion(req.Mod.Version) || module.IsZeroPseudoVersion(req.Mod.Version) {
				continue // lintGoMod reports these
			}
			where := fmt.Sprintf("%s:%d: %s@%s", m.goModPath(), req.Syntax.Start.Line, req.Mod.Path, req.Mod.Version)
			c, err := r.pinnedCommit(req.Mod.Version)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", where, err))
				continue
			}
			if !r.isAncestor(c.hash) {
				errs = append(errs, fmt.Errorf("%s: commit %.12s is not in HEAD's history, so a user cannot fetch it from main (pin a commit of main: `"+invocation+" pin`)", where, c.hash))
				continue
			}
			if _, err := r.fileAt(c, dep.goModPath()); err != nil {
				errs = append(errs, fmt.Errorf("%s: the module has no go.mod at commit %.12s", where, c.hash))
				continue
			}
			want, err := r.pseudoVersion(dep, c)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", where, err))
				continue
			}
			if want != req.Mod.Version {
				errs = append(errs, fmt.Errorf("%s: the go command names commit %.12s %s (its time or base tag differs; run `"+invocation+" pin %.12s`)", where, c.hash, want, c.hash))
				continue
			}
			behind, _ := git(r.root, append([]string{"rev-list", "--count", c.hash + "..HEAD", "--"}, r.pathspec(dep)...)...)
			log = append(log, fmt.Sprintf("%s (commit %.12s; %s later commits change %s)", where, c.hash, strings.TrimSpace(behind), dep.dir))
		}
	}
	return log, errs
}

// pinnedCommit is the commit a pseudo-version names.
func (r *repo) pinnedCommit(version string) (commit, error) {
	rev, err := module.PseudoVersionRev(version)
	if err != nil {
		return commit{}, err
	}
	return r.resolveCommit(rev)
}
