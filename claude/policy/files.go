package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// fileChangers are the programs whose operands are files they create, change or remove: the
// flags of each that take a value, and whether it acts on the directory entry itself (rm removes
// a symbolic link, not its target).
var fileChangers = map[string]struct {
	valueFlags string
	entry      bool
}{
	"rm": {entry: true}, "rmdir": {entry: true}, "unlink": {entry: true},
	"shred": {valueFlags: "nsu"}, "touch": {valueFlags: "drt"}, "mkdir": {valueFlags: "m"}, "truncate": {valueFlags: "sr"},
	"tee": {},
}

// changeFiles handles fileChangers: every operand is written; rm -r's are checked recursively;
// touch -r's and truncate -r's reference file is read.
func (a *analyzer) changeFiles(c invocation) {
	spec := fileChangers[c.base]
	p := parseFlags(c.args, spec.valueFlags, []string{"--date", "--reference", "--mode", "--size", "--iterations", "--random-source"}, false)
	recursive := c.base == "rm" && p.has("-r", "-R", "--recursive")
	for _, x := range p.ops {
		if spec.entry {
			x = a.entry(x, c.cwd)
		}
		a.writePath(x, c.cwd, c.base)
		if recursive {
			a.recursive(x, c.cwd, c.base+" -r")
		}
	}
	if c.base == "rm" {
		return
	}
	for _, x := range p.values("-r", "--reference") {
		a.readPath(x, c.cwd, c.base)
	}
}

// chmod handles chmod, chown and chgrp: the operands after the mode or owner are written.
func (a *analyzer) chmod(c invocation) {
	p := parseFlags(c.args, "", []string{"--reference", "--from"}, false)
	ops := p.ops
	if !p.has("--reference") && len(ops) > 0 {
		ops = ops[1:] // the mode or owner
	}
	for _, x := range ops {
		a.writePath(x, c.cwd, c.base)
		if p.has("-R", "--recursive") {
			a.recursive(x, c.cwd, c.base+" -R")
		}
	}
}

// dd writes of= and reads if=.
func (a *analyzer) dd(c invocation) {
	for _, x := range c.args {
		switch {
		case !x.known:
			a.deny(deny(RuleUnresolvable, "dd %s is known only when the command runs; name it literally", x.val))
		case strings.HasPrefix(x.val, "of="):
			a.writePath(arg{val: x.val[3:], known: true}, c.cwd, c.base)
		case strings.HasPrefix(x.val, "if="):
			a.readPath(arg{val: x.val[3:], known: true}, c.cwd, c.base)
		}
	}
}

// mktemp writes its template's directory, or the temporary directory.
func (a *analyzer) mktemp(c invocation) {
	p := parseFlags(c.args, "pt", []string{"--tmpdir", "--suffix"}, false)
	dir := os.TempDir()
	if v := p.values("-p", "--tmpdir"); len(v) > 0 && v[0].val != "" {
		dir = v[0].val
	}
	if len(p.ops) > 0 && strings.Contains(p.ops[0].val, "/") && !p.has("-p", "--tmpdir", "-t") {
		a.writePath(p.ops[0], c.cwd, c.base)
	} else {
		a.writePath(arg{val: filepath.Join(dir, "x"), known: true}, c.cwd, c.base+" (in "+dir+")")
	}
}

// downloadFlags are curl's and wget's flags that take a value.
var downloadFlags = map[string]string{"curl": "oKTdHXuAeEwxr", "wget": "OoaPeU"}

// download handles curl and wget: their output flags are written; saving under the remote name
// in a directory the policy cannot follow is denied.
func (a *analyzer) download(c invocation) {
	p := parseFlags(c.args, downloadFlags[c.base],
		[]string{"--output", "--output-dir", "--config", "--output-document", "--directory-prefix", "--append-output", "--header", "--data", "--user", "--request"}, false)
	for _, x := range p.values("-o", "--output", "--output-dir", "-O", "-P", "--output-document", "--directory-prefix", "-a", "--append-output") {
		if c.base == "curl" && x.val == "" {
			continue
		}
		a.writePath(x, c.cwd, c.base)
	}
	if c.base == "wget" && !p.has("-O", "--output-document", "-P", "--directory-prefix") && c.cwd == "" {
		a.deny(deny(RuleUnresolvable, "wget saves in a directory the policy cannot follow; use -O with a literal path"))
	}
	if c.base == "curl" && p.has("-O", "--remote-name", "--remote-name-all") && c.cwd == "" {
		a.deny(deny(RuleUnresolvable, "curl -O saves in a directory the policy cannot follow; use -o with a literal path"))
	}
	// curl -d @file, --data-binary @file, -F name=@file and name=<file send a file: a read.
	m, _, _ := a.parseModel(models[c.base], c.base, c.args)
	for _, v := range m.values("-d", "--data", "--data-binary", "--data-urlencode", "--json", "-F", "--form") {
		_, file, ok := strings.Cut(v.val, "@")
		if !ok {
			_, file, ok = strings.Cut(v.val, "=<")
		}
		if !v.known || ok && file != "" && file != "-" {
			a.readPath(arg{val: file, known: v.known}, c.cwd, c.base+" (a file it sends)")
		}
	}
}

// recursive denies a recursive change of x when x is a write root, an ancestor of one, or holds a
// protected path.
func (a *analyzer) recursive(x arg, cwd, what string) {
	if a.stop() || !x.known {
		return
	}
	real, err := a.resolve(cwd, x.val)
	if err != nil {
		return // writePath has denied it
	}
	for _, r := range a.p.realWrite {
		if a.p.under(r, real) {
			a.deny(deny(RuleRecursiveRoot, "%s %s would remove or change the write root %s itself; name what inside it to change", what, x.val, r))
			return
		}
	}
	if m := a.protectedBelowReal(real); m != "" {
		a.deny(deny(RuleRecursiveRoot, "%s %s would reach the protected %s; name the directories or files inside it to change", what, x.val, m))
	}
}

// protectedBelow returns a protected path directly below the directory x names (.git, .env), or "".
func (a *analyzer) protectedBelow(x arg, cwd string) string {
	if !x.known || cwd == "" && !isAbsLike(x.val) {
		return ""
	}
	real, err := a.resolve(cwd, x.val)
	if err != nil {
		return ""
	}
	return a.protectedBelowReal(real)
}

func (a *analyzer) protectedBelowReal(real string) string {
	for _, pat := range a.p.protected {
		if strings.HasPrefix(pat, "~") || filepath.IsAbs(pat) {
			if abs := a.p.absPatterns[pat]; abs != "" && a.p.under(abs, real) {
				return abs
			}
			continue
		}
		// Directly below, and one level further (a nested repository's .git): deeper is not
		// searched, to keep a decision's work bounded.
		for _, glob := range []string{filepath.Join(real, pat), filepath.Join(real, "*", pat)} {
			if m, _ := filepath.Glob(glob); len(m) > 0 {
				return m[0]
			}
		}
	}
	return ""
}

// entry returns x such that resolving it reaches the directory entry x names, not what a final
// symbolic link points to: rm, rmdir, unlink and mv act on the link itself (unless the name ends
// with a slash).
func (a *analyzer) entry(x arg, cwd string) arg {
	if !x.known || x.val == "" || strings.HasSuffix(x.val, "/") || (cwd == "" && !isAbsLike(x.val)) {
		return x
	}
	base := filepath.Base(x.val)
	if base == "." || base == ".." || base == "/" {
		return x
	}
	dir, err := a.resolve(cwd, filepath.Dir(x.val))
	if err != nil {
		return x
	}
	return arg{val: filepath.Join(dir, base), known: true, resolved: true}
}
