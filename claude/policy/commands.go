package policy

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// invocation is one simple command as the analysis runs it: the program's base name, its
// arguments after expansion, the directory it runs in ("" when unknown) and the state before it.
type invocation struct {
	name  string // the program as written (a function is looked up by it)
	base  string // its base name without .exe: what the tables below are keyed by
	args  []arg  // the arguments after the program
	cwd   string
	st    state
	piped bool         // it reads a pipe
	stmt  *syntax.Stmt // the statement it is part of, for its here-documents; nil when nested
}

// handler analyses one invocation and returns the state after it.
type handler func(a *analyzer, c invocation) state

// acts makes a handler of fn, an analysis that does not change the directory.
func acts(fn func(a *analyzer, c invocation)) handler {
	return func(a *analyzer, c invocation) state {
		fn(a, c)
		return c.st
	}
}

// strictFree are the shell builtins Strict lets run without listing: they change nothing
// outside the shell (their redirections are checked like any other).
var strictFree = []string{"cd", "pushd", "popd", "pwd", "echo", "printf", "true", "false", "test", "[", "exit",
	"return", "set", "shift", "export", "unset", "read", ":", "wait", "local", "declare", "type", "command"}

// run analyses one simple command, given as its expanded arguments, run in cwd ("" when unknown),
// and returns the state after it.
func (a *analyzer) run(args []arg, cwd string, st state, piped bool, s *syntax.Stmt) state {
	a.steps++
	if a.steps > maxSteps {
		a.deny(deny(RuleTooComplex, "the command runs more than %d simple commands as analysed; simplify it", maxSteps))
		return st
	}
	if len(args) == 0 || a.stop() {
		return st
	}
	if !args[0].known {
		a.deny(deny(RuleUnknownCommand, "the program %s is known only when the command runs; name it literally", args[0].val))
		return st
	}
	c := invocation{name: args[0].val, args: args[1:], cwd: cwd, st: st, piped: piped, stmt: s}
	c.base = strings.TrimSuffix(path.Base(filepath.ToSlash(c.name)), ".exe")
	if !a.permitted(c) {
		return st
	}
	if body := a.funcs[c.name]; body != nil {
		return a.nested(func() state { return a.stmt(body, st) }, st)
	}
	if isScriptPath(c.name) {
		return a.scriptFile(c, arg{val: c.name, known: true}, "")
	}
	if m := models[c.base]; m != nil {
		return a.modelled(m, c)
	}
	if isInterpreter(c.base) {
		a.interpreter(c)
		return st
	}
	if kernelOnly[c.base] {
		return a.unknownProgram(c, "it runs the project's own code: a build file, tests, package scripts")
	}
	return a.unknownProgram(c, "no model of its options")
}

// permitted applies Strict's list and the dangerous-command rules to c, and reports whether the
// analysis goes on.
func (a *analyzer) permitted(c invocation) bool {
	if a.p.mode == ModeStrict && !slices.Contains(strictFree, c.base) && !slices.Contains(a.p.commands, c.base) {
		a.deny(deny(RuleNotListed, "%s is not one of the commands this policy runs (%s)", c.base, strings.Join(a.p.commands, ", ")))
		return false
	}
	strs := make([]string, len(c.args))
	for i, x := range c.args {
		strs[i] = x.val
	}
	for i := range a.p.rules {
		if r := &a.p.rules[i]; r.match(c.base, strs, c.piped) {
			a.deny(Decision{Rule: r.Name, Reason: r.Reason})
			return false
		}
	}
	return true
}

// nested runs fn one shell level deeper.
func (a *analyzer) nested(fn func() state, st state) state {
	a.shells++
	defer func() { a.shells-- }()
	if a.shells > maxShells {
		a.deny(deny(RuleTooComplex, "shells, eval and functions nest deeper than %d levels; simplify the command", maxShells))
		return st
	}
	return fn()
}

func joinKnown(args []arg) (string, bool) {
	var parts []string
	for _, x := range args {
		if !x.known {
			return "", false
		}
		parts = append(parts, x.val)
	}
	return strings.Join(parts, " "), true
}

// cd returns the state after cd (or pushd). Bash's cd is logical: "dir/.." is dir's parent as
// written, not the parent of where a link dir points; when the two differ, or the shell's
// directory was entered through a link and the target climbs with "..", the directory is unknown.
func (a *analyzer) cd(c invocation) state {
	p := parseFlags(c.args, "", nil, false)
	target := arg{val: a.p.home, known: a.p.home != "" && !a.redefined["HOME"]}
	if len(p.ops) > 0 {
		target = p.ops[0]
	}
	if !target.known || target.val == "-" || strings.HasPrefix(target.val, "+") {
		return state{unknown: "cd " + target.val}
	}
	if c.cwd == "" && !isAbsLike(target.val) {
		return c.st
	}
	real, err := a.resolve(c.cwd, target.val)
	if err != nil {
		return state{unknown: "cd " + target.val + ": " + err.Error()}
	}
	climbs := slices.Contains(strings.Split(filepath.ToSlash(target.val), "/"), "..")
	if climbs && !p.has("-P") {
		if c.st.linked {
			return state{unknown: "cd " + target.val + " climbs from a directory entered through a link"}
		}
		lexical := a.p.expandHome(target.val)
		if !filepath.IsAbs(lexical) {
			lexical = filepath.Join(c.cwd, lexical)
		}
		if logical, err := a.resolve("/", filepath.Clean(lexical)); err != nil || logical != real {
			return state{unknown: "cd " + target.val + " goes up from a link, where bash's cd and the kernel disagree"}
		}
	}
	lexical := a.p.expandHome(target.val)
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(c.cwd, lexical)
	}
	return state{cwds: []string{real}, linked: c.st.linked || filepath.Clean(lexical) != real}
}

func popd(*analyzer, invocation) state { return state{unknown: "popd"} }

// eval analyses its arguments as code run in the current shell.
func (a *analyzer) eval(c invocation) state {
	code, ok := joinKnown(c.args)
	if !ok {
		a.deny(deny(RuleUnresolvable, "eval runs code known only when the command runs; run the commands directly"))
		return c.st
	}
	return a.nested(func() state { return a.script(code, c.st, false) }, c.st)
}

// trap analyses the code a trap runs when it fires.
func (a *analyzer) trap(c invocation) state {
	rest := c.args
	if len(rest) > 1 && rest[0].val != "-p" && rest[0].val != "-l" {
		if !rest[0].known {
			a.deny(deny(RuleUnresolvable, "trap runs code known only when it fires; run the commands directly"))
			return c.st
		}
		a.nested(func() state { return a.script(rest[0].val, c.st.clone(), false) }, c.st)
	}
	return c.st
}

// wrapper handles exec, command, nohup, ...: they run their operands as a command.
func (a *analyzer) wrapper(c invocation) state {
	p := parseFlags(c.args, "a", nil, true)
	if c.base == "command" && p.has("-v", "-V") {
		return c.st
	}
	return a.run(p.ops, c.cwd, c.st, c.piped, c.stmt)
}

// env runs its operands, after the variables it sets, as a command.
func (a *analyzer) env(c invocation) state {
	p := parseFlags(c.args, "u", []string{"--unset"}, true)
	ops := p.ops
	for len(ops) > 0 && ops[0].known && strings.Contains(ops[0].val, "=") {
		name, val, _ := strings.Cut(ops[0].val, "=")
		a.exported(name, &arg{val: val, known: true}, c.cwd)
		ops = ops[1:]
	}
	return a.run(ops, c.cwd, c.st, c.piped, c.stmt)
}

// timingWrappers run their operands as a command; the value says whether the first operand is
// theirs (timeout's duration, taskset's mask, chrt's priority).
var timingWrappers = map[string]bool{"nice": false, "timeout": true, "stdbuf": false, "ionice": false,
	"taskset": true, "chrt": true, "caffeinate": false}

// timing handles nice, timeout, ...: their command is analysed as if run directly.
func (a *analyzer) timing(c invocation) state {
	p := parseFlags(c.args, "nskioecp", []string{"--signal", "--kill-after", "--adjustment"}, true)
	ops := p.ops
	if timingWrappers[c.base] && len(ops) > 0 {
		ops = ops[1:]
	}
	return a.run(ops, c.cwd, c.st, c.piped, c.stmt)
}
