package policy

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one argument of a command after expansion. When known is false the shell decides its
// value at run time ($VAR, $(cmd), ~user): val holds the word as written, for messages.
type arg struct {
	val   string
	known bool
	// resolved says val is absolute with the links of its directory resolved, and names the
	// entry itself (a final link is not followed: rm removes the link).
	resolved bool
}

// env gives the expander HOME and PWD only; every other variable is unset, which NoUnset makes an
// error: an unknown value.
type env struct{ home, pwd string }

func (e env) Get(name string) expand.Variable {
	switch name {
	case "HOME":
		if e.home != "" {
			return expand.Variable{Set: true, Kind: expand.String, Str: e.home}
		}
	case "PWD":
		if e.pwd != "" {
			return expand.Variable{Set: true, Kind: expand.String, Str: e.pwd}
		}
	}
	return expand.Variable{}
}

func (e env) Each(func(string, expand.Variable) bool) {}

var errTooManyDirs = errors.New("too many directories to glob")

// knowable reports whether w can be expanded before the command runs: no substitution, no
// parameter but a plain $HOME or $PWD the command line never assigns, no ~user.
func (a *analyzer) knowable(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch v := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			ok = false
		case *syntax.ParamExp:
			ok = a.plainParam(v)
		}
		return ok
	})
	return ok && a.knowableTilde(w)
}

// plainParam reports whether v is a plain $HOME or ${PWD} the command line never assigns.
func (a *analyzer) plainParam(v *syntax.ParamExp) bool {
	name := ""
	if v.Param != nil {
		name = v.Param.Value
	}
	return (name == "HOME" || name == "PWD") && !a.redefined[name] && !v.Excl && !v.Length && !v.Width &&
		v.Index == nil && v.Slice == nil && v.Repl == nil && v.Names == 0 && v.Exp == nil
}

// knowableTilde reports whether w's leading ~, if any, is the policy's home: not ~user, ~+, ~-,
// or ~"..." (bash does not expand a quoted rest), nor a $HOME the command line assigns.
func (a *analyzer) knowableTilde(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return true
	}
	l, isLit := w.Parts[0].(*syntax.Lit)
	if !isLit || !strings.HasPrefix(l.Value, "~") {
		return true
	}
	rest := strings.TrimPrefix(l.Value, "~")
	return (rest == "" || strings.HasPrefix(rest, "/")) && (rest != "" || len(w.Parts) == 1) && !a.redefined["HOME"]
}

// fields expands words as arguments, in the shell's cwd (empty when unknown: a relative glob
// then stays unexpanded): quotes removed, braces, ~ and $HOME expanded, globs matched against
// the file system. A word that cannot be known is one unknown arg.
func (a *analyzer) fields(words []*syntax.Word, cwd string) ([]arg, *Decision) {
	var out []arg
	for _, w := range words {
		if !a.knowable(w) {
			out = append(out, arg{val: flat(w)})
			continue
		}
		if n := braceEstimate(w); n > maxArgs {
			d := deny(RuleTooComplex, "a brace expansion of about %d words; name the files", n)
			return nil, &d
		}
		cfg := &expand.Config{Env: env{a.p.home, cwd}, NoUnset: true, ReadDir2: a.readDir}
		if cwd == "" {
			cfg.ReadDir2 = nil
		}
		fs, err := expand.Fields(cfg, w)
		if errors.Is(err, errTooManyDirs) {
			d := deny(RuleTooComplex, "the globs of this command read more than %d directories; name the files", maxGlobDirs)
			return nil, &d
		}
		if err != nil {
			if strings.Contains(err.Error(), "brace expansion would exceed") {
				d := deny(RuleTooComplex, "a brace expansion of more than 16384 words; name the files")
				return nil, &d
			}
			out = append(out, arg{val: flat(w)})
			continue
		}
		for _, f := range fs {
			out = append(out, arg{val: f, known: true})
		}
		a.words += len(fs)
		if a.words > maxWords {
			d := deny(RuleTooComplex, "the command expands to more than %d words in all; split it", maxWords)
			return nil, &d
		}
		if len(out) > maxArgs {
			d := deny(RuleTooComplex, "more than %d arguments after expansion; split the command", maxArgs)
			return nil, &d
		}
	}
	return out, nil
}

// readDir is os.ReadDir with a budget per analysis.
func (a *analyzer) readDir(dir string) ([]fs.DirEntry, error) {
	a.dirs++
	if a.dirs > maxGlobDirs {
		return nil, errTooManyDirs
	}
	return os.ReadDir(dir)
}

// flat returns w as written, for messages.
func flat(w *syntax.Word) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// literal returns the value of w when it has one without running anything and without globbing
// (a script for sh -c, a program name), quotes removed.
func (a *analyzer) literal(w *syntax.Word, cwd string) (string, bool) {
	if !a.knowable(w) {
		return "", false
	}
	s, err := expand.Literal(&expand.Config{Env: env{a.p.home, cwd}, NoUnset: true}, w)
	return s, err == nil
}

var (
	braceSeq  = regexp.MustCompile(`\{(-?\d+)\.\.(-?\d+)(?:\.\.-?\d+)?\}`)
	braceList = regexp.MustCompile(`\{[^{}]*,[^{}]*\}`)
)

// braceEstimate returns about how many words the brace expansions of w's literal parts make, so
// that a huge one ({1..100000}) is denied before it is expanded.
func braceEstimate(w *syntax.Word) int {
	n := 1
	for _, part := range w.Parts {
		l, ok := part.(*syntax.Lit)
		if !ok || !strings.Contains(l.Value, "{") {
			continue
		}
		for _, m := range braceSeq.FindAllStringSubmatch(l.Value, -1) {
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			span := x - y
			if span < 0 {
				span = -span
			}
			n *= min(span+1, 1<<20)
		}
		for _, m := range braceList.FindAllString(l.Value, -1) {
			n *= strings.Count(m, ",") + 1
		}
		if n > 1<<20 {
			return n
		}
	}
	return n
}
