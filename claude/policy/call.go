package policy

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assign checks one assignment of a simple command: given to its program (exported) or kept in
// the shell.
func (a *analyzer) assign(as *syntax.Assign, cwd string, exported bool) {
	if as.Name == nil {
		return
	}
	if !exported {
		a.shellVar(as.Name.Value)
		return
	}
	var v *arg
	if as.Value != nil {
		s, ok := a.literal(as.Value, cwd)
		v = &arg{val: s, known: ok}
		if !ok {
			v.val = flat(as.Value)
		}
	}
	a.exported(as.Name.Value, v, cwd)
}

// call analyses a simple command in each directory the shell may be in.
func (a *analyzer) call(c *syntax.CallExpr, st state, piped bool, s *syntax.Stmt) state {
	a.seen[c] = true
	a.substs(c, st)
	if len(c.Args) == 0 {
		for _, as := range c.Assigns {
			a.assign(as, "", false)
		}
	}
	if len(c.Args) == 0 || a.stop() {
		return st
	}
	var out *state
	for _, cwd := range a.cwds(st) {
		one := st
		if cwd != "" {
			one = state{cwds: []string{cwd}, linked: st.linked}
		}
		for _, as := range c.Assigns {
			a.assign(as, cwd, len(c.Args) > 0)
		}
		args, d := a.fields(c.Args, cwd)
		if d != nil {
			a.deny(*d)
			return st
		}
		after := a.run(args, cwd, one, piped, s)
		if out == nil {
			out = &after
		} else {
			u := union(*out, after)
			out = &u
		}
		if a.stop() {
			break
		}
	}
	return *out
}

// xargs runs its command with arguments read from stdin: unknown ones.
func (a *analyzer) xargs(c invocation) state {
	p := parseFlags(c.args, "adEILnPsei", []string{"--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, true)
	for _, f := range p.values("-a", "--arg-file") {
		a.readPath(f, c.cwd, "xargs -a")
	}
	cmd := p.ops
	if len(cmd) == 0 {
		cmd = []arg{{val: "echo", known: true}}
	}
	stdin := arg{val: "(an argument xargs reads from stdin)"}
	repl := ""
	if r := p.values("-I", "--replace", "-i"); len(r) > 0 {
		repl = r[0].val
		if repl == "" {
			repl = "{}"
		}
	}
	var out []arg
	for _, x := range cmd {
		if repl != "" && x.known && strings.Contains(x.val, repl) {
			out = append(out, stdin)
			continue
		}
		out = append(out, x)
	}
	if repl == "" {
		out = append(out, stdin)
	}
	a.run(out, c.cwd, c.st, false, nil)
	return c.st
}

// findPrimaries are find's tests and actions that change nothing, with whether each takes a
// value; any other primary is RuleUnknownOption.
var findPrimaries = map[string]bool{"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true,
	"-iwholename": true, "-regex": true, "-iregex": true, "-type": true, "-xtype": true, "-size": true, "-mtime": true,
	"-mmin": true, "-atime": true, "-amin": true, "-ctime": true, "-cmin": true, "-newer": true, "-perm": true, "-user": true,
	"-group": true, "-uid": true, "-gid": true, "-maxdepth": true, "-mindepth": true, "-links": true, "-inum": true,
	"-samefile": true, "-regextype": true, "-printf": true, "-lname": true, "-ilname": true, "-used": true, "-fstype": true,
	"-empty": false, "-depth": false, "-prune": false, "-print": false, "-print0": false, "-ls": false, "-quit": false,
	"-not": false, "!": false, "(": false, ")": false, "\\(": false, "\\)": false, "-a": false, "-o": false, "-and": false,
	"-or": false, ",": false, "-readable": false, "-writable": false, "-executable": false, "-true": false, "-false": false,
	"-nouser": false, "-nogroup": false, "-xdev": false, "-mount": false, "-daystart": false, "-noleaf": false, "-d": false}

// find: -delete and -exec's commands act on the files below its starting points, protected ones
// included unless none is there; -L, -H and -follow make them act through links.
func (a *analyzer) find(c invocation) {
	roots, i := findRoots(c.args)
	rest := c.args
	follows := slices.ContainsFunc(c.args[:i], func(x arg) bool { return x.val == "-L" || x.val == "-H" })
	acts := false
	for j := i; j < len(rest) && !a.stop(); j++ {
		x := rest[j]
		if !x.known {
			a.deny(deny(RuleUnresolvable, "find %s is known only when the command runs; name it literally", x.val))
			return
		}
		switch x.val {
		case "-delete":
			acts = true
			a.findDelete(c, roots)
		case "-exec", "-execdir", "-ok", "-okdir":
			acts = true
			j = a.findExec(c, roots, j+1)
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(rest) {
				a.writePath(rest[j+1], c.cwd, "find "+x.val)
			}
			j++
			if x.val == "-fprintf" {
				j++
			}
		case "-follow":
			follows = true
		default:
			takes, ok := findPrimaries[x.val]
			if !ok && !strings.HasPrefix(x.val, "-newer") {
				a.deny(deny(RuleUnknownOption, "find %s is not a test or action the policy models; use -name, -path, -type, -delete, -exec", x.val))
				return
			}
			if takes || strings.HasPrefix(x.val, "-newer") && x.val != "-newer" {
				j++
			}
		}
	}
	if follows && acts {
		a.deny(deny(RuleSymlinkOutside, "find -L/-H/-follow with -delete or -exec acts on what links point to, anywhere; drop -L"))
	}
	for _, r := range roots {
		a.readPath(r, c.cwd, "find")
	}
}

// findDelete checks find -delete: each starting point is written, and may not hold a protected
// path or be a root.
func (a *analyzer) findDelete(c invocation, roots []arg) {
	for _, r := range roots {
		a.writePath(r, c.cwd, "find -delete")
		if below := a.protectedBelow(r, c.cwd); below != "" && !a.stop() {
			a.deny(deny(RuleRecursiveRoot, "find %s ... -delete may reach the protected %s, whatever its filter; name the directories to search (find src build ...)", r.val, below))
		}
		a.recursive(r, c.cwd, "find (with -delete)")
	}
}

// findRoots returns find's starting points (default ".") and the index of its first expression
// argument.
func findRoots(rest []arg) (roots []arg, i int) {
	for ; i < len(rest); i++ {
		x := rest[i]
		if x.known && (strings.HasPrefix(x.val, "-") || x.val == "(" || x.val == "!" || x.val == "\\(") {
			if x.val == "-H" || x.val == "-L" || x.val == "-P" || x.val == "-O1" || x.val == "-O2" || x.val == "-O3" {
				continue
			}
			break
		}
		roots = append(roots, x)
	}
	if len(roots) == 0 {
		roots = []arg{{val: ".", known: true}}
	}
	return roots, i
}

// findExec analyses the command of an -exec that starts at c.args[start], once per starting point
// standing for {}, and returns the index of its terminator.
func (a *analyzer) findExec(c invocation, roots []arg, start int) int {
	rest := c.args
	k := start
	for k < len(rest) && rest[k].val != ";" && rest[k].val != "+" {
		k++
	}
	// {} stands for each starting point, and for a protected file below one, if any.
	stands := slices.Clone(roots)
	for _, r := range roots {
		if below := a.protectedBelow(r, c.cwd); below != "" {
			stands = append(stands, arg{val: below, known: true})
		}
	}
	for _, r := range stands {
		var sub []arg
		for _, x := range rest[start:k] {
			switch {
			case !x.known || !strings.Contains(x.val, "{}"):
				sub = append(sub, x)
			case !r.known:
				sub = append(sub, arg{val: x.val})
			default:
				sub = append(sub, arg{val: strings.ReplaceAll(x.val, "{}", r.val), known: true})
			}
		}
		a.run(sub, c.cwd, c.st, false, nil)
	}
	return k
}
