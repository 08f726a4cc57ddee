package policy

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// expandHome replaces a leading "~" or "~/" with the home directory.
func (p *Policy) expandHome(s string) string {
	if s == "~" {
		return p.home
	}
	if strings.HasPrefix(s, "~/") {
		return p.home + s[1:]
	}
	return s
}

// under reports whether the resolved path p is dir or below it, by whole components, ignoring case
// where the file system does (macOS, Windows).
func (p *Policy) under(name, dir string) bool {
	if p.fold {
		name, dir = strings.ToLower(name), strings.ToLower(dir)
	}
	sep := string(filepath.Separator)
	return name == dir || strings.HasSuffix(dir, sep) && strings.HasPrefix(name, dir) || strings.HasPrefix(name, dir+sep)
}

// underAny reports whether name is under one of dirs.
func (p *Policy) underAny(name string, dirs []string) bool {
	for _, d := range dirs {
		if p.under(name, d) {
			return true
		}
	}
	return false
}

// matchPattern reports whether the resolved path name matches a protection pattern: an absolute or
// ~ pattern by prefix; any other by a run of components, each matched as a glob.
func (p *Policy) matchPattern(name, pattern string) bool {
	if strings.HasPrefix(pattern, "~") || filepath.IsAbs(pattern) {
		abs, ok := p.absPatterns[pattern]
		if !ok {
			abs = p.absPattern(pattern)
		}
		return p.under(name, abs)
	}
	if p.fold {
		name, pattern = strings.ToLower(name), strings.ToLower(pattern)
	}
	comps := strings.Split(filepath.ToSlash(name), "/")
	pat := strings.Split(strings.Trim(filepath.ToSlash(pattern), "/"), "/")
	for i := 0; i+len(pat) <= len(comps); i++ {
		ok := true
		for j, pc := range pat {
			if m, err := path.Match(pc, comps[i+j]); err != nil || !m {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// matchAny returns the first of patterns that name matches, or "".
func (p *Policy) matchAny(name string, patterns []string) string {
	for _, pat := range patterns {
		if p.matchPattern(name, pat) {
			return pat
		}
	}
	return ""
}

// checkWrite judges a write of the resolved path name.
func (p *Policy) checkWrite(name, shown string) Decision {
	if !p.underAny(name, p.realWrite) {
		return deny(RuleOutsideRoots, "%s is outside the write roots (%s); write inside them", describe(shown, name), strings.Join(p.realWrite, ", "))
	}
	if pat := p.matchAny(name, p.protected); pat != "" {
		return deny(RuleProtected, "%s is protected (pattern %q): it is never written, even inside the write roots; leave it alone", shown, pat)
	}
	return allow
}

// checkLinks denies a write into a regular file that has more than one name (a hard link): the
// other names may be outside the write roots or protected. Removing a name is no such write.
func (p *Policy) checkLinks(name, shown string) Decision {
	if fi, err := os.Lstat(name); err == nil && hardLinks(fi) > 1 {
		return deny(RuleSymlinkOutside, "%s has %d hard links: writing it changes the file under its other names too, which may be outside the write roots or protected; write a new file instead", shown, hardLinks(fi))
	}
	return allow
}

// checkRead judges a read of the resolved path name.
func (p *Policy) checkRead(name, shown string) Decision {
	if pat := p.matchAny(name, p.denyRead); pat != "" {
		return deny(RuleDenyRead, "%s holds credentials (pattern %q): it is never read", shown, pat)
	}
	if p.realRead != nil && !p.underAny(name, p.realRead) {
		return deny(RuleReadOutside, "%s is outside the read roots (%s)", describe(shown, name), strings.Join(p.realRead, ", "))
	}
	return allow
}

// WritePath decides whether a tool may write path, named relative to cwd (or absolute).
func (p *Policy) WritePath(cwd, path string) Decision {
	if p.err != nil {
		return deny(RuleInvalidPolicy, "%v", p.err)
	}
	real, err := p.resolve(cwd, path)
	if err != nil {
		return deny(RuleUnresolvable, "%s: %v; name a plain path inside the write roots", path, err)
	}
	if d := p.checkWrite(real, path); !d.Allow {
		return d
	}
	return p.checkLinks(real, path)
}

// ReadPath decides whether a tool may read path, named relative to cwd (or absolute).
func (p *Policy) ReadPath(cwd, path string) Decision {
	if p.err != nil {
		return deny(RuleInvalidPolicy, "%v", p.err)
	}
	real, err := p.resolve(cwd, path)
	if err != nil {
		return deny(RuleUnresolvable, "%s: %v", path, err)
	}
	return p.checkRead(real, path)
}

// describe names a path as given and, when different, as resolved.
func describe(shown, real string) string {
	if shown == real {
		return shown
	}
	return shown + " (" + real + ")"
}

// absPattern returns an absolute or ~ pattern as a resolved path.
func (p *Policy) absPattern(pattern string) string {
	abs := filepath.Clean(p.expandHome(pattern))
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs
}
