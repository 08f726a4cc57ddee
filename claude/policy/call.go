package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// pathVars are variables whose value lists directories to search, not a file to write.
var pathVars = map[string]bool{"PATH": true, "MANPATH": true, "PYTHONPATH": true, "NODE_PATH": true, "LD_LIBRARY_PATH": true, "CLASSPATH": true}

// call analyses a simple command in each directory the shell may be in.
func (a *analyzer) call(c *syntax.CallExpr, st state, piped bool, s *syntax.Stmt) state {
	a.seen[c] = true
	a.substs(c, st)
	if len(c.Args) == 0 || a.stop() {
		return st
	}
	var out *state
	for _, cwd := range a.cwds(st) {
		one := st
		if cwd != "" {
			one = state{cwds: []string{cwd}}
		}
		for _, as := range c.Assigns {
			if as.Name == nil || as.Value == nil || pathVars[as.Name.Value] {
				continue
			}
			if v, ok := a.literal(as.Value, cwd); ok && looksLikePath(v) {
				a.writePath(arg{val: v, known: true}, cwd, "the variable "+as.Name.Value+" (a program may write where it points)")
			}
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

// find: -delete and -exec's commands act on the files below its starting points.
func (a *analyzer) find(c invocation) {
	roots, i := findRoots(c.args)
	rest := c.args
	filtered := false
	for j := i; j < len(rest) && !a.stop(); j++ {
		switch x := rest[j]; x.val {
		case "-delete":
			for _, r := range roots {
				a.writePath(r, c.cwd, "find -delete")
				if !filtered {
					a.recursive(r, c.cwd, "find -delete")
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j = a.findExec(c, roots, j+1)
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(rest) {
				a.writePath(rest[j+1], c.cwd, "find "+x.val)
			}
			j++
		case "-depth", "-print", "-print0", "-xdev", "-mount":
		default:
			filtered = true
		}
	}
	for _, r := range roots {
		a.readPath(r, c.cwd, "find")
	}
}

// findRoots returns find's starting points (default ".") and the index of its first expression
// argument.
func findRoots(rest []arg) (roots []arg, i int) {
	for ; i < len(rest); i++ {
		x := rest[i]
		if x.known && (strings.HasPrefix(x.val, "-") || x.val == "(" || x.val == "!" || x.val == "\\(") {
			if x.val == "-H" || x.val == "-L" || x.val == "-P" {
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
	for _, r := range roots {
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
