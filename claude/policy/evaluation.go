package policy

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookwire/agent-sdk-go/claude/policy/shellparse"
)

// This file holds what changes how the shell itself evaluates: special variables, shell options,
// arithmetic on data (bash evaluates a[$(...)] in a variable's value), the @ operators of
// parameter expansion, indirection, and the variables a command gives the programs it runs.

// specialVars are the shell's variables whose value changes what the shell runs or how it reads
// the command: assigning one is denied.
var specialVars = setOf("PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "BASH_ENV", "ENV", "GLOBIGNORE", "CDPATH", "IFS", "PATH",
	"SHELLOPTS", "BASHOPTS", "EXECIGNORE", "FIGNORE", "HISTFILE", "INPUTRC", "MAILPATH", "HOSTFILE", "POSIXLY_CORRECT", "TMOUT",
	"FUNCNEST", "COMP_WORDBREAKS", "HOME", "PWD", "OLDPWD", "SHELL")

// specialPrefixes are prefixes of such variables (BASH_ALIASES, BASH_CMDS, LD_PRELOAD, ...).
var specialPrefixes = []string{"BASH_", "LD_", "DYLD_", "GIT_", "LESS", "PAGER", "EDITOR", "VISUAL", "NODE_OPTIONS", "PYTHON", "PERL", "RUBY", "GCONV", "MALLOC"}

// envSafe are the variables a command may give the programs it runs: none of them makes a
// program run code or write elsewhere.
var envSafe = setOf("CGO_ENABLED", "GOOS", "GOARCH", "GOARM", "GOAMD64", "GO111MODULE", "GOFLAGS", "GOMAXPROCS", "GOTRACEBACK",
	"GOPRIVATE", "GONOPROXY", "NODE_ENV", "CI", "TZ", "LANG", "LANGUAGE", "TERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "COLUMNS",
	"LINES", "RUST_BACKTRACE", "RUST_LOG", "DEBUG", "VERBOSE", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "TERM_PROGRAM",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE",
	"GIT_TERMINAL_PROMPT", "USER", "LOGNAME", "NPM_CONFIG_LOGLEVEL")

// envPaths are the variables a command may give programs that name where they write: their
// value is checked as a write.
var envPaths = setOf("GOCACHE", "GOMODCACHE", "GOPATH", "GOBIN", "GOTMPDIR", "XDG_CACHE_HOME", "CARGO_TARGET_DIR", "npm_config_cache", "TMPDIR")

var goFlagsSafe = regexp.MustCompile(`^(-mod=(mod|vendor|readonly)|-trimpath|-race|-v|-x|-count=\d+|-buildvcs=(true|false|auto)|-tags=[\w,.]+|-p=\d+|-cover|-short|-failfast|-timeout=\w+)$`)

// exported checks a variable name=value given to the programs a command runs (VAR=x cmd, export,
// env VAR=x). value is nil when it is not given here.
func (a *analyzer) exported(name string, value *arg, cwd string) {
	switch {
	case a.stop():
	case isSpecial(name) && !envSafe[name]:
		a.deny(deny(RuleEnvironment, "%s given to programs changes what they run or where they work (GIT_*, LD_*, BASH_ENV, PATH, PAGER, ...); leave it as the session set it", name))
	case envPaths[name]:
		if value != nil && value.known && looksLikePath(value.val) {
			a.writePath(*value, cwd, "the variable "+name+" (a program writes where it points)")
		} else if value != nil && !value.known {
			a.deny(deny(RuleUnresolvable, "the variable %s is set to %s, known only when the command runs", name, value.val))
		}
	case name == "GOFLAGS" && value != nil:
		for _, f := range strings.Fields(value.val) {
			if !value.known || !goFlagsSafe.MatchString(f) {
				a.deny(deny(RuleEnvironment, "GOFLAGS=%s: only -mod, -trimpath, -race, -v, -tags, -count and the like are known harmless; pass flags to go directly", value.val))
				return
			}
		}
	case envSafe[name] || strings.HasPrefix(name, "LC_"):
	default:
		a.deny(deny(RuleEnvironment, "the variable %s would be given to the programs the command runs, and the policy does not know it harmless (variables such as GIT_SSH_COMMAND, LESSOPEN or LD_PRELOAD make programs run code); set it in the session's environment instead (v2.WithEnv)", name))
	}
}

func isSpecial(name string) bool {
	return specialVars[name] || slices.ContainsFunc(specialPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// shellVar checks an assignment that stays in the shell (x=1 alone, local x).
func (a *analyzer) shellVar(name string) {
	if isSpecial(name) && !envSafe[name] && name != "HOME" && name != "PWD" {
		a.deny(deny(RuleShellEval, "setting %s changes what the shell runs or how it reads the command; leave it as the session set it", name))
	}
}

// setFlags are the options set may change: none changes what the shell runs.
var setFlags = "euxvCfnhbBmHPT"

var setOptions = setOf("errexit", "nounset", "pipefail", "xtrace", "verbose", "noclobber", "noglob", "noexec", "physical", "hashall", "braceexpand", "monitor", "histexpand", "notify", "vi", "emacs")

// set allows the options that change nothing the shell runs (set -euo pipefail, set -x); others
// (set -a, set -k, set -o posix) are denied.
func (a *analyzer) set(c invocation) state {
	for i := 0; i < len(c.args); i++ {
		x := c.args[i]
		switch {
		case !x.known:
			a.deny(deny(RuleShellEval, "set %s is known only when the command runs", x.val))
		case x.val == "--" || x.val == "-":
			return c.st // the positional parameters follow
		case (strings.HasPrefix(x.val, "-") || strings.HasPrefix(x.val, "+")) && strings.HasSuffix(x.val, "o") && len(x.val) > 1:
			if strings.Trim(x.val[1:len(x.val)-1], setFlags) != "" {
				a.deny(deny(RuleShellEval, "set %s changes how the shell evaluates (allexport, keyword, ...); use set -e, -u, -x, -o pipefail", x.val))
			}
			if i+1 < len(c.args) { // set -euo pipefail
				i++
				if !c.args[i].known || !setOptions[c.args[i].val] {
					a.deny(deny(RuleShellEval, "set -o %s changes how the shell evaluates; use set -e, -u, -x, -o pipefail", c.args[i].val))
				}
			}
		case strings.HasPrefix(x.val, "-") || strings.HasPrefix(x.val, "+"):
			if strings.Trim(x.val[1:], setFlags) != "" {
				a.deny(deny(RuleShellEval, "set %s changes how the shell evaluates (allexport, keyword, ...); use set -e, -u, -x, -o pipefail", x.val))
			}
		default:
			return c.st // set a b: positional parameters
		}
	}
	return c.st
}

// shopt only queries: setting a shell option (dotglob, globstar, cdable_vars, expand_aliases,
// extglob) changes what names and globs mean, which the analysis reads as Bash's defaults.
func shopt(a *analyzer, c invocation) state {
	for _, x := range c.args {
		if !x.known || x.val == "-s" || x.val == "-u" || x.val == "-o" || strings.HasPrefix(x.val, "-") && strings.ContainsAny(x.val, "suo") {
			a.deny(deny(RuleShellEval, "shopt -s/-u changes how the shell expands names and globs (dotglob, globstar, cdable_vars, expand_aliases), which the policy reads as Bash's defaults; do without it"))
			return c.st
		}
	}
	return c.st
}

// evaluation checks f for what makes the shell evaluate data as code: arithmetic that reads a
// variable whose value the command does not fix, array subscripts, ${x@P}, ${!x}, declare -i/-n;
// and the special variables the command assigns. It runs once per parsed script, before the walk.
func (a *analyzer) evaluation(f *syntax.File) {
	unsafe := unfixed(f)
	syntax.Walk(f, func(n syntax.Node) bool {
		if a.stop() {
			return false
		}
		a.evaluates(n, unsafe)
		return true
	})
}

// unfixed returns the variables f gives a value that is not a number or arithmetic: read from
// input, a loop over words, an array, any text.
func unfixed(f *syntax.File) map[string]bool {
	unsafe := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch v := n.(type) {
		case *syntax.Assign:
			if v.Name != nil && !numericWord(v.Value) || v.Array != nil || v.Index != nil {
				if v.Name != nil {
					unsafe[v.Name.Value] = true
				}
			}
		case *syntax.WordIter:
			if v.Name != nil && slices.ContainsFunc(v.Items, func(w *syntax.Word) bool { return !numericWord(w) }) {
				unsafe[v.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(v.Args) > 1 {
				switch shellparse.Flat(v.Args[0]) {
				case "read", "mapfile", "readarray", "getopts", "printf":
					for _, w := range v.Args[1:] {
						unsafe[shellparse.Flat(w)] = true
					}
				}
			}
		}
		return true
	})
	return unsafe
}

// evaluates checks one node of the walk.
func (a *analyzer) evaluates(n syntax.Node, unsafe map[string]bool) {
	switch v := n.(type) {
	case *syntax.ArithmExp:
		a.arith(v.X, unsafe)
	case *syntax.ArithmCmd:
		a.arith(v.X, unsafe)
	case *syntax.LetClause:
		for _, x := range v.Exprs {
			a.arith(x, unsafe)
		}
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{v.Init, v.Cond, v.Post} {
			a.arith(x, unsafe)
		}
	case *syntax.ParamExp:
		a.paramExp(v, unsafe)
	case *syntax.Assign:
		a.arith(v.Index, unsafe)
	case *syntax.BinaryTest:
		if v.Op >= syntax.TsEql && v.Op <= syntax.TsGtr {
			for _, w := range []syntax.TestExpr{v.X, v.Y} {
				if w, ok := w.(*syntax.Word); ok {
					a.arith(w, unsafe)
				}
			}
		}
	case *syntax.DeclClause:
		a.declClause(v)
	}
}

// paramExp denies ${x@P} and the other @ operators, ${!x} (indirection evaluates the subscript
// in x's value), and checks subscripts and substring offsets as arithmetic.
func (a *analyzer) paramExp(v *syntax.ParamExp, unsafe map[string]bool) {
	switch {
	case v.Exp != nil && v.Exp.Op == syntax.OtherParamOps:
		a.deny(deny(RuleShellEval, "${%s@...} transforms a value into code or a prompt the shell evaluates; do without it", paramName(v)))
	case v.Excl && v.Names == 0:
		a.deny(deny(RuleShellEval, "${!%s} reads the variable named by a value, evaluating its subscript; name variables directly", paramName(v)))
	}
	a.arith(v.Index, unsafe)
	if v.Slice != nil {
		a.arith(v.Slice.Offset, unsafe)
		a.arith(v.Slice.Length, unsafe)
	}
}

func paramName(v *syntax.ParamExp) string {
	if v.Param == nil {
		return ""
	}
	return v.Param.Value
}

var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z_0-9]*`)

// arith denies arithmetic that can run code: bash evaluates the value of a variable used in
// arithmetic as arithmetic again, and an array subscript in it (a[$(cmd)]) as a command. A
// variable is allowed only when the command line gives it no value or only numbers and
// arithmetic; array subscripts and substitutions inside arithmetic are denied.
func (a *analyzer) arith(x syntax.ArithmExpr, unsafe map[string]bool) {
	if x == nil || a.stop() {
		return
	}
	syntax.Walk(x, func(n syntax.Node) bool {
		if a.stop() {
			return false
		}
		switch v := n.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(v.Value, "[]") {
				a.deny(deny(RuleShellEval, "an array subscript in arithmetic (%s) is evaluated as code by bash; use plain variables", v.Value))
			}
			for _, name := range identifier.FindAllString(v.Value, -1) {
				if unsafe[name] {
					a.deny(deny(RuleShellEval, "arithmetic on %s, whose value the command does not fix, lets bash run code hidden in it (a[$(...)]); compute with values the command sets", name))
				}
			}
		case *syntax.ParamExp:
			name := paramName(v)
			if name == "@" || name == "*" || name != "" && (name[0] >= '0' && name[0] <= '9') || unsafe[name] {
				a.deny(deny(RuleShellEval, "arithmetic on $%s, whose value the command does not fix, lets bash run code hidden in it (a[$(...)]); compute with values the command sets", name))
			}
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.DblQuoted, *syntax.SglQuoted:
			a.deny(deny(RuleShellEval, "a substitution inside arithmetic is evaluated as arithmetic, which runs code hidden in its output; compute outside it"))
		}
		return true
	})
}

// numericWord reports whether w is empty, a number, a brace sequence of numbers, or one $((...)).
func numericWord(w *syntax.Word) bool {
	if w == nil || len(w.Parts) == 0 {
		return true
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.ArithmExp:
			return true
		case *syntax.Lit:
			return strings.Trim(p.Value, "0123456789-{}.,") == ""
		}
	}
	return false
}

// declClause checks declare, local, export, readonly and typeset: -i (integer: assignments become
// arithmetic) and -n (a name reference) are denied; assigned names are checked as exported or
// shell variables.
func (a *analyzer) declClause(d *syntax.DeclClause) {
	export := d.Variant != nil && d.Variant.Value == "export"
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			flag := shellparse.Flat(as.Value)
			if strings.HasPrefix(flag, "-") || strings.HasPrefix(flag, "+") {
				if strings.ContainsAny(flag, "in") {
					a.deny(deny(RuleShellEval, "%s %s makes later assignments arithmetic or name references, which bash evaluates; use plain variables", d.Variant.Value, flag))
					return
				}
				export = export || strings.Contains(flag, "x")
			}
		}
	}
	for _, as := range d.Args {
		if as.Name == nil {
			continue
		}
		if export {
			var v *arg
			if as.Value != nil {
				s, ok := a.literal(as.Value, "")
				v = &arg{val: s, known: ok}
				if !ok {
					v.val = flat(as.Value)
				}
			}
			a.exported(as.Name.Value, v, "")
		} else {
			a.shellVar(as.Name.Value)
		}
	}
}
