package policy

import (
	"slices"
	"strings"
)

// This file holds the allowlist's machinery: a model of each program the analysis lets run, with
// the options it knows and what each does. The models themselves are in models*.go.

// The kinds of an option's value, and of a program's operands.
const (
	kFlag  = iota // an option without a value
	kText         // a value or operand that names no file (a pattern, a message, a URL)
	kRead         // a file the program reads
	kWrite        // a file the program creates, changes or removes
	kCode         // code the program runs, or a program it starts: always denied
	kDir          // the directory the program works in: later relative paths are below it
)

// opt is one option of a model.
type opt struct {
	kind     int
	optional bool // the value is only ever attached (--color=auto): never the next argument
	two      bool // two values follow (jq --arg name value)
}

// model says what a program does with its arguments. A program without a model, an option a
// model does not list and a subcommand it does not list are denied (RuleUnknownProgram,
// RuleUnknownOption), unless the policy runs under kernel confinement (WithKernelConfinement).
type model struct {
	opts   map[string]opt
	ops    []int // the kinds of the leading operands; the last one is the kind of the rest
	digits bool  // -NUM is an option (head -20)
	stop   bool  // the first operand ends the options (env, xargs, find)
	free   bool  // every argument is text, dashes included (echo, printf)
	golike bool  // Go's flag syntax: -name=value is the option -name with a value
	strict bool  // an unknown option is denied under kernel confinement too (the program reaches a daemon)
	kernel bool  // the program runs the project's code (make, go test, a script): RuleUnknownProgram unless under kernel confinement
	subs   map[string]*model
	// handle, when set, decides the operands itself (after the options were checked).
	handle handler
	// check, when set, runs after the options were checked and before the operands.
	check func(a *analyzer, c invocation, m margs)
	// prep, when set, rewrites the arguments before they are read (tar's "czf" as "-czf").
	prep func(args []arg) []arg
	// pat are the options that give the pattern, when the first operand is one otherwise (grep -e).
	pat []string
}

// margs are a command's arguments as its model reads them.
type margs struct {
	ops   []arg
	opts  map[string][]arg
	sub   string // the subcommand, when the model has subcommands
	after []arg  // the subcommand's own arguments
}

func (m margs) values(names ...string) []arg {
	var out []arg
	for _, n := range names {
		out = append(out, m.opts[n]...)
	}
	return out
}

func (m margs) has(names ...string) bool {
	for _, n := range names {
		if _, ok := m.opts[n]; ok {
			return true
		}
	}
	return false
}

// spec builds a model from an option list ("-l -o:w --output:w --color:t? -e:x") and the kinds of
// its operands ("r", "tr": a pattern then files, "w", "t", "" for none allowed).
func spec(options, operands string) *model {
	m := &model{opts: map[string]opt{}}
	for _, f := range strings.Fields(options) {
		name, kind, _ := strings.Cut(f, ":")
		o := opt{kind: kFlag}
		if strings.HasSuffix(kind, "?") {
			o.optional, kind = true, strings.TrimSuffix(kind, "?")
		}
		if strings.HasSuffix(kind, "2") {
			o.two, kind = true, strings.TrimSuffix(kind, "2")
		}
		switch kind {
		case "t":
			o.kind = kText
		case "r":
			o.kind = kRead
		case "w":
			o.kind = kWrite
		case "x":
			o.kind = kCode
		case "d":
			o.kind = kDir
		}
		m.opts[name] = o
	}
	for _, c := range operands {
		m.ops = append(m.ops, map[rune]int{'t': kText, 'r': kRead, 'w': kWrite, 'x': kCode}[c])
	}
	return m
}

// with sets the model's extras and returns it.
func (m *model) with(fn func(m *model)) *model { fn(m); return m }

// parseModel reads args with m's options. It returns false, having denied, on an option m does
// not know (RuleUnknownOption: the caller turns that into the kernel's rule when it applies) or
// one that runs code.
func (a *analyzer) parseModel(m *model, prog string, args []arg) (margs, string, bool) {
	out := margs{opts: map[string][]arg{}}
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case !x.known:
			if m.hasRisky() && !m.stop {
				return out, "the argument " + x.val + ", known only when the command runs, may be an option of " + prog, false
			}
			out.ops = append(out.ops, x)
		case x.val == "--":
			out.ops = append(out.ops, args[i+1:]...)
			return out, "", true
		case x.val == "-" || !strings.HasPrefix(x.val, "-") || m.free:
			if m.subs != nil && out.sub == "" && len(out.ops) == 0 {
				out.sub, out.after = x.val, args[i+1:]
				return out, "", true
			}
			out.ops = append(out.ops, x)
			if m.stop {
				out.ops = append(out.ops, args[i+1:]...)
				return out, "", true
			}
		default:
			n, why := a.option(m, args, i, &out)
			if why != "" {
				return out, why, false
			}
			i = n
		}
	}
	return out, "", true
}

// hasRisky reports whether m has an option that writes or runs code: an unknown argument could
// be one.
func (m *model) hasRisky() bool {
	for _, o := range m.opts {
		if o.kind == kWrite || o.kind == kCode || o.kind == kDir {
			return true
		}
	}
	return false
}

// option reads the option at args[i] into out and returns the index of its last argument, or
// why it is refused.
func (a *analyzer) option(m *model, args []arg, i int, out *margs) (int, string) {
	x := args[i].val
	name, val, attached := strings.Cut(x, "=")
	if o, ok := m.opts[name]; ok && (strings.HasPrefix(x, "--") || len(name) > 2 || !attached || m.golike) {
		return a.optValue(m, name, o, val, attached, args, i, out)
	}
	if strings.HasPrefix(x, "--") {
		return i, "unknown"
	}
	if m.digits && strings.Trim(x[1:], "0123456789") == "" {
		return i, ""
	}
	cluster := x[1:]
	for j := 0; j < len(cluster); j++ {
		name := "-" + cluster[j:j+1]
		o, ok := m.opts[name]
		if !ok {
			return i, "unknown"
		}
		if o.kind == kFlag {
			out.opts[name] = append(out.opts[name], arg{})
			continue
		}
		rest := cluster[j+1:]
		return a.optValue(m, name, o, rest, rest != "", args, i, out)
	}
	return i, ""
}

// optValue records option name with its value (attached, or the next argument) and returns the
// index of its last argument.
func (a *analyzer) optValue(m *model, name string, o opt, val string, attached bool, args []arg, i int, out *margs) (int, string) {
	v := arg{val: val, known: true}
	switch {
	case o.kind == kFlag || o.optional && !attached:
		if attached && o.kind == kFlag {
			return i, "unknown" // --flag=value for a flag without one
		}
	case !attached && i+1 < len(args):
		i++
		v = args[i]
		if o.two && i+1 < len(args) {
			i++
			v = args[i]
		}
	case !attached:
		return i, "takes a value"
	}
	if o.kind == kCode {
		return i, "code"
	}
	out.opts[name] = append(out.opts[name], v)
	return i, ""
}

// modelled analyses c with its model m, and returns the state after it.
func (a *analyzer) modelled(m *model, c invocation) state {
	if m.kernel {
		return a.unknownProgram(c, "it runs the project's own code (a build file, tests, a script)")
	}
	if m.prep != nil {
		c.args = m.prep(c.args)
	}
	p, why, ok := a.parseModel(m, c.base, c.args)
	if !ok {
		return a.refuseOption(c, why)
	}
	if p.sub != "" {
		sm := m.subs[p.sub]
		if sm == nil {
			return a.refuseOption(c, "the subcommand "+p.sub+" is not one the policy models")
		}
		a.optionPaths(m, p, &c)
		sub := c
		sub.base, sub.args = c.base+" "+p.sub, p.after
		return a.modelled(sm, sub)
	}
	a.optionPaths(m, p, &c)
	if a.stop() {
		return c.st
	}
	if m.check != nil {
		m.check(a, c, p)
		if a.stop() {
			return c.st
		}
	}
	if m.handle != nil {
		return m.handle(a, c)
	}
	kinds := m.ops
	if len(kinds) > 1 && kinds[0] == kText && p.has(m.pat...) {
		kinds = kinds[1:] // grep -e PATTERN FILE...: no pattern operand
	}
	for i, x := range p.ops {
		kind := kText
		if len(kinds) > 0 {
			kind = kinds[min(i, len(kinds)-1)]
		} else {
			a.deny(deny(RuleUnknownOption, "%s takes no operand (%s) in the policy's model of it; run it without", c.base, x.val))
			return c.st
		}
		switch kind {
		case kRead:
			a.readPath(x, c.cwd, c.base)
		case kWrite:
			a.writePath(x, c.cwd, c.base)
		case kCode:
			a.deny(deny(RuleNestedCode, "%s runs %s, code the policy does not read", c.base, x.val))
		}
	}
	return c.st
}

// optionPaths checks the files p's options name, and moves c's directory to a kDir option's.
func (a *analyzer) optionPaths(m *model, p margs, c *invocation) {
	for name, vals := range p.opts {
		o := m.opts[name]
		for _, v := range vals {
			switch o.kind {
			case kRead:
				a.readPath(v, c.cwd, c.base+" "+name)
			case kWrite:
				a.writePath(v, c.cwd, c.base+" "+name)
			case kDir:
				a.writePath(v, c.cwd, c.base+" "+name)
				if a.stop() {
					return
				}
				if real, err := a.resolve(c.cwd, v.val); err == nil {
					c.cwd = real
				}
			}
		}
	}
}

// refuseOption denies c for an option its model does not know (why), or, under kernel
// confinement, judges it as a program the policy does not model.
func (a *analyzer) refuseOption(c invocation, why string) state {
	switch why {
	case "code":
		a.deny(deny(RuleNestedCode, "an option of %s makes it run code or another program the policy does not read; do the steps with plain commands", c.base))
		return c.st
	case "unknown", "takes a value":
		why = "one of its options (" + firstOption(c.args) + ") is not one the policy models"
	}
	if m := models[strings.Fields(c.base)[0]]; a.p.kernel && (m == nil || !m.strict) {
		a.program(c.base, c.args, c.cwd)
		return c.st
	}
	a.deny(deny(RuleUnknownOption, "%s: %s; use the common options, or run the session under kernel confinement, where the kernel bounds what it writes", c.base, why))
	return c.st
}

// firstOption returns the options of args, for messages.
func firstOption(args []arg) string {
	var opts []string
	for _, x := range args {
		if strings.HasPrefix(x.val, "-") && len(opts) < 4 {
			opts = append(opts, x.val)
		}
	}
	return strings.Join(opts, " ")
}

// unknownProgram is the one rule for what the analysis does not model: denied, or, under kernel
// confinement, run with the paths it is given checked (the kernel bounds the rest).
func (a *analyzer) unknownProgram(c invocation, why string) state {
	prog, _, _ := strings.Cut(c.base, " ")
	if outsideKernel[prog] {
		a.deny(deny(RuleUnknownProgram, "%s runs commands outside the session's process tree (a daemon, another host), where neither the policy nor kernel confinement reaches; ask the user", prog))
		return c.st
	}
	if a.p.kernel || a.p.mode == ModeStrict && slices.Contains(a.p.commands, prog) {
		a.program(c.base, c.args, c.cwd)
		return c.st
	}
	a.deny(deny(RuleUnknownProgram, "%s is not a program the policy models (%s): what it writes cannot be known from the command line. Run it in a session under kernel confinement (v2's default with a policy on Linux), or ask the user", c.base, why))
	return c.st
}
