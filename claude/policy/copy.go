package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// copyLike handles mv, cp, install, ln, rsync and scp: the destination is written; mv's sources
// are removed; ln's targets and cp -s/-l's sources must stay inside the write roots.
func (a *analyzer) copyLike(c invocation) {
	p := parseFlags(c.args, "tSmogeB", []string{"--target-directory", "--suffix", "--mode", "--owner", "--group", "--backup"}, false)
	dest, sources := copyOperands(c.base, p)
	for _, d := range dest {
		if !isRemote(c.base, d) {
			a.writePath(d, c.cwd, c.base)
		}
	}
	link := linkKind(c.base, p)
	for _, src := range sources {
		if !a.copySource(c, src, dest, link) {
			return
		}
	}
	if keepsLinks(c.base, p) {
		for _, d := range dest {
			a.taint(d, c.cwd)
		}
	}
}

// keepsLinks reports whether a copy recreates the links it copies as links (cp -a, -P, -d, -r,
// mv, rsync -a, -l): a path below its destination may then lead anywhere until the command ends.
func keepsLinks(base string, p parsed) bool {
	switch base {
	case "mv":
		return true
	case "cp":
		return p.has("-a", "--archive", "-P", "--no-dereference", "-d", "-r", "-R", "--recursive") && !p.has("-L", "--dereference")
	case "rsync":
		return p.has("-a", "--archive", "-l", "--links")
	}
	return false
}

// copyOperands splits a copy's operands into its destinations and its sources.
func copyOperands(base string, p parsed) (dest, sources []arg) {
	ops := p.ops
	switch t := p.values("-t", "--target-directory"); {
	case len(t) > 0 && base != "rsync" && base != "scp":
		return t, ops
	case base == "install" && p.has("-d", "--directory"):
		return ops, nil
	case base == "ln" && len(ops) == 1:
		return []arg{{val: ".", known: true}}, ops
	case len(ops) > 0:
		return ops[len(ops)-1:], ops[:len(ops)-1]
	}
	return nil, ops
}

// isRemote reports whether d, an operand of scp or rsync, names another host (host:path).
func isRemote(base string, d arg) bool {
	return (base == "scp" || base == "rsync") && d.known && strings.Contains(d.val, ":") &&
		!strings.HasPrefix(d.val, "/") && !strings.HasPrefix(d.val, ".")
}

// The kinds of link a copy makes.
const (
	noLink = iota
	symbolicLink
	hardLink
)

// linkKind returns the kind of link ln or cp makes with flags p.
func linkKind(base string, p parsed) int {
	switch {
	case base == "ln" && p.has("-s", "--symbolic"), base == "cp" && p.has("-s", "--symbolic-link"):
		return symbolicLink
	case base == "ln", base == "cp" && p.has("-l", "--link"):
		return hardLink
	}
	return noLink
}

// copySource checks one source of a copy, and reports whether the analysis goes on.
func (a *analyzer) copySource(c invocation, src arg, dest []arg, link int) bool {
	switch {
	case c.base == "mv":
		src = a.entry(src, c.cwd)
		a.writePath(src, c.cwd, "mv (the source is removed)")
		if src.known {
			a.recursive(src, c.cwd, "mv")
		}
	case link == symbolicLink:
		a.linkTarget(src, dest, c.cwd, c.base)
	case link == hardLink:
		if a.stop() {
			return false
		}
		if !src.known {
			a.deny(deny(RuleUnresolvable, "%s links %s, known only when the command runs", c.base, src.val))
			return false
		}
		real, err := a.resolve(c.cwd, src.val)
		if err != nil || !a.p.underAny(real, a.p.realWrite) {
			a.deny(deny(RuleSymlinkOutside, "%s makes a hard link to %s, outside the write roots: writing the link would change it", c.base, src.val))
		} else if pat := a.p.matchAny(real, a.p.protected); pat != "" {
			a.deny(deny(RuleProtected, "%s makes a hard link to the protected %s (pattern %q): writing the link would change it", c.base, src.val, pat))
		}
	case c.base != "scp" && c.base != "rsync" || !strings.Contains(src.val, ":"):
		a.readPath(src, c.cwd, c.base)
	}
	return true
}

// linkTarget checks the target of a symbolic link: resolved from the link's directory, it must
// be inside the write roots, or later writes through the link would leave them.
func (a *analyzer) linkTarget(target arg, dest []arg, cwd, base string) {
	if a.stop() {
		return
	}
	if !target.known || len(dest) == 0 || !dest[0].known {
		a.deny(deny(RuleUnresolvable, "%s -s with a target known only when the command runs; name it literally", base))
		return
	}
	dir := cwd
	if !filepath.IsAbs(target.val) && !strings.HasPrefix(target.val, "~") {
		// Relative to the directory holding the link.
		linkPath, err := a.resolve(cwd, dest[0].val)
		if err != nil {
			a.deny(deny(RuleUnresolvable, "%s -s %s: %v", base, dest[0].val, err))
			return
		}
		if fi, err := os.Stat(linkPath); err == nil && fi.IsDir() {
			dir = linkPath
		} else {
			dir = filepath.Dir(linkPath)
		}
	}
	real, err := a.resolve(dir, target.val)
	if err != nil {
		a.deny(deny(RuleSymlinkOutside, "%s -s %s: the link's target cannot be resolved (%v); link to an existing path inside the write roots", base, target.val, err))
		return
	}
	if !a.p.underAny(real, a.p.realWrite) {
		a.deny(deny(RuleSymlinkOutside, "%s -s %s makes a link to %s, outside the write roots; a later write through it would leave them. Link to a path inside them", base, target.val, real))
		return
	}
	if pat := a.p.matchAny(real, a.p.protected); pat != "" {
		a.deny(deny(RuleProtected, "%s -s %s makes a link to the protected %s (pattern %q)", base, target.val, real, pat))
		return
	}
	// Later parts of the command follow the new link.
	if at, err := a.resolve(cwd, dest[0].val); err == nil {
		if fi, err := os.Stat(at); err == nil && fi.IsDir() {
			at = filepath.Join(at, filepath.Base(target.val))
		}
		a.addLink(at, target.val)
	}
}
