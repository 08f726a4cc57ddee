package policy

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookwire/agent-sdk-go/claude/policy/shellparse"
)

// This file holds the programs that run code: shells, interpreters, sed and awk scripts, and the
// programs the analysis does not model.

var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// program handles a program the policy does not model (a build tool, a script): it may write the
// files it is given, so every operand and flag value that looks like a path must be writable.
func (a *analyzer) program(base string, rest []arg, cwd string) {
	for _, x := range rest {
		if a.stop() {
			return
		}
		if !x.known {
			if a.p.kernel {
				continue // the kernel bounds what it writes
			}
			a.deny(deny(RuleUnresolvable, "%s is given %s, known only when the command runs; %s may write it. Name paths literally", base, x.val, base))
			return
		}
		v := x.val
		if _, after, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(v, "-") || !strings.ContainsAny(v[:strings.Index(v, "=")], "/~")) {
			v = after // --out=path, DESTDIR=path
		} else if strings.HasPrefix(v, "-") {
			continue
		}
		if looksLikePath(v) {
			a.writePath(arg{val: v, known: true}, cwd, base+" (a program may write the paths it is given)")
		}
		if strings.ContainsAny(v, " \t\n;&|") {
			a.operandScript(v, cwd)
		}
	}
}

// operandScript analyses an operand that reads as shell code: programs such as watch, flock,
// parallel or script run their argument with sh -c. An operand Bash cannot parse is not code sh
// could run either, and is left alone.
func (a *analyzer) operandScript(v, cwd string) {
	f, err := shellparse.Parse(v)
	if err != nil {
		return
	}
	st := state{cwds: []string{cwd}}
	if cwd == "" {
		st = state{unknown: "a change of directory the policy cannot follow"}
	}
	a.nested(func() state {
		a.prescan(f)
		a.evaluation(f)
		return a.stmts(f.Stmts, st)
	}, st)
}

// looksLikePath reports whether an operand of an unknown program could name a file outside the
// directory: it has a slash, starts with ~ or is "..".
func looksLikePath(v string) bool {
	if strings.Contains(v, "://") {
		return false // a URL
	}
	return strings.Contains(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.Contains(v, `\`)
}

// shellValueFlags are a shell's flags whose value is the next argument.
var shellValueFlags = []string{"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}

// shellArgs returns whether a shell's arguments hold -c, and the index of its first operand (the
// script for -c, or a script file).
func shellArgs(rest []arg) (cflag bool, i int) {
	for ; i < len(rest); i++ {
		x := rest[i]
		switch {
		case !x.known:
			return cflag, i
		case x.val == "--":
			return cflag, i + 1
		case slices.Contains(shellValueFlags, x.val):
			i++
		case strings.HasPrefix(x.val, "--"):
		case !strings.HasPrefix(x.val, "-") && !strings.HasPrefix(x.val, "+") || x.val == "-":
			return cflag, i
		case strings.Contains(x.val, "c"):
			cflag = true
		}
	}
	return cflag, i
}

// shell handles sh, bash, ...: -c's script is analysed as a new shell; a script file runs as a
// program; a script read from a here-document is analysed too.
func (a *analyzer) shell(c invocation) state {
	rest, st := c.args, c.st
	cflag, i := shellArgs(rest)
	cwd := ""
	if st.unknown == "" && len(st.cwds) > 0 {
		cwd = st.cwds[0]
	}
	switch {
	case cflag && i < len(rest):
		if !rest[i].known {
			a.deny(deny(RuleUnresolvable, "%s -c runs a script known only when the command runs; run the commands directly", c.base))
			return st
		}
		a.nested(func() state { return a.script(rest[i].val, st.clone(), false) }, st)
	case cflag:
		a.deny(deny(RuleUnparsable, "%s -c without a script", c.base))
	case i < len(rest) && rest[i].val != "-":
		return a.scriptFile(c, rest[i], c.base) // a script file
	default:
		body, ok := a.stdinScript(c.stmt, cwd)
		if !ok {
			a.deny(deny(RuleNestedCode, "%s reads its commands from stdin, which the policy cannot read; pass them with %s -c '...' or run them directly", c.base, c.base))
			return st
		}
		a.nested(func() state { return a.script(body, st.clone(), false) }, st)
	}
	return st
}

// stdinScript returns the here-document or here-string s feeds a shell's stdin, when it is known.
func (a *analyzer) stdinScript(s *syntax.Stmt, cwd string) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				return "", true
			}
			return a.literalDoc(r.Hdoc, cwd)
		case syntax.WordHdoc:
			return a.literal(r.Word, cwd)
		}
	}
	return "", false
}

// literalDoc returns a here-document's body when it has no substitution.
func (a *analyzer) literalDoc(w *syntax.Word, cwd string) (string, bool) {
	if !a.knowable(w) {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return a.literal(w, cwd)
		}
		b.WriteString(l.Value)
	}
	return b.String(), true
}

// inline are each interpreter's flags whose value is code to run.
var inline = map[string]string{"python": "c", "node": "ep", "nodejs": "ep", "perl": "eE", "ruby": "e", "php": "r",
	"bun": "e", "lua": "e", "Rscript": "e", "osascript": "e", "pwsh": "c", "powershell": "c", "tclsh": "", "irb": "", "deno": ""}

var inlineLong = []string{"--eval", "--print", "--command", "-Command", "-EncodedCommand", "-c"}

// moduleFlags are an interpreter's flags after which it runs a module or library (python -m
// pytest), as any program.
var moduleFlags = []string{"-m", "-r", "--require", "-I", "-W", "-X"}

var interpreterName = regexp.MustCompile(`^(python|pypy|ruby|perl|node|php|lua)[0-9.]*$`)

func isInterpreter(base string) bool {
	if _, ok := inline[base]; ok {
		return true
	}
	return interpreterName.MatchString(base)
}

// interpreter denies code given inline (python -c, node -e, a here-document): it is another
// language, which the policy does not read. A script file runs as any program.
func (a *analyzer) interpreter(c invocation) {
	letters := inline[strings.TrimRight(c.base, "0123456789.")]
	for i := 0; i < len(c.args); i++ {
		x := c.args[i]
		if !x.known || !strings.HasPrefix(x.val, "-") || x.val == "-" {
			if x.known && x.val != "-" {
				a.unknownProgram(c, "it runs the script "+x.val)
				return // the script file and its arguments
			}
			break // unknown, or "-": the script comes from stdin
		}
		switch {
		case isInlineFlag(x.val, letters):
			a.deny(deny(RuleNestedCode, "%s %s runs inline code the policy does not read; write the code to a file in the project and run that file", c.base, x.val))
			return
		case slices.Contains(moduleFlags, x.val):
			if x.val == "-m" || x.val == "-r" || x.val == "--require" {
				a.unknownProgram(c, "it runs the module "+x.val) // python -m pytest
				return
			}
			i++ // -W ignore, -X dev, -I dir: a value
		case x.val == "--version" || x.val == "-V":
			return
		}
	}
	a.deny(deny(RuleNestedCode, "%s reads its program from stdin (a pipe or here-document); write the code to a file in the project and run that file", c.base))
}

// isInlineFlag reports whether flag gives an interpreter whose inline-code letters are letters
// its code.
func isInlineFlag(flag, letters string) bool {
	return slices.Contains(inlineLong, flag) || strings.HasPrefix(flag, "--eval=") || strings.HasPrefix(flag, "--print=") ||
		(!strings.HasPrefix(flag, "--") && strings.ContainsAny(flag[1:], letters) && letters != "")
}

var sedEffects = regexp.MustCompile(`(^|[;{}\n])\s*[0-9$,/!~+\s]*[wWe](\s|$)|/[gpiImMe0-9]*w\s|/[gpiImMw0-9]*e([\s;}]|$)`)

var awkEffects = regexp.MustCompile(`system\s*\(|\|\s*(getline|")|"\s*\||(print|printf)[^;}]*>|fflush|close\s*\(`)

// sed: -i edits its files in place; a w or e command writes a file or runs one.
func (a *analyzer) sed(c invocation) {
	p := parseFlags(c.args, "efl", []string{"--expression", "--file", "--line-length"}, false)
	scripts := p.values("-e", "--expression")
	ops := p.ops
	if len(scripts) == 0 && len(p.values("-f", "--file")) == 0 && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	for _, x := range scripts {
		if !x.known || sedEffects.MatchString(x.val) {
			a.deny(deny(RuleNestedCode, "this sed script writes a file or runs a command (w, e) or is known only at run time; use sed -i on project files or plain commands"))
			return
		}
	}
	for _, x := range p.values("-f", "--file") {
		a.readPath(x, c.cwd, "sed -f")
	}
	inPlace := p.has("-i", "--in-place")
	for k := range p.flags { // -i.bak arrives as -i with a value, -ni as -n -i
		if strings.HasPrefix(k, "--in-place") {
			inPlace = true
		}
	}
	for _, x := range ops {
		if inPlace {
			a.writePath(x, c.cwd, "sed -i")
		} else {
			a.readPath(x, c.cwd, "sed")
		}
	}
}

// awk: a program that writes files or runs commands is denied; its file operands are read.
func (a *analyzer) awk(c invocation) {
	p := parseFlags(c.args, "fvF", nil, true)
	if len(p.values("-f")) == 0 && len(p.ops) > 0 && awkEffects.MatchString(p.ops[0].val) {
		a.deny(deny(RuleNestedCode, "this awk program writes files or runs commands (system, print >, |); do that with plain commands"))
	}
	if len(p.ops) > 1 {
		for _, x := range p.ops[1:] {
			a.readPath(x, c.cwd, c.base)
		}
	}
}
