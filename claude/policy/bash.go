package policy

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookwire/agent-sdk-go/claude/policy/shellparse"
)

// The analysis's bounds: beyond them a command is denied (RuleTooComplex), so that every decision
// takes bounded time whatever the input.
const (
	maxCommandBytes = 64 << 10 // a command line's length
	maxDepth        = 100      // nesting of the syntax tree as walked
	maxShells       = 8        // nested sh -c, eval, function calls
	maxGlobDirs     = 512      // directories read to expand globs
	maxArgs         = 2048     // arguments of one command after expansion
	maxSteps        = 2000     // simple commands analysed (functions called many times)
	maxWords        = 8192     // words after expansion, over the whole command
	maxNodes        = 40000    // nodes of the syntax tree of one script
	maxTreeDepth    = 400      // depth of the syntax tree (a long arithmetic expression nests)
)

// state is the shell's working directory as far as the analysis knows it: one of cwds, or, when
// unknown is set, any directory (a relative path then cannot be judged).
type state struct {
	cwds    []string
	unknown string // why the directory is unknown; "" when cwds holds it
	linked  bool   // the shell entered it through a link: bash's $PWD is not the kernel's
}

func (s state) clone() state {
	return state{cwds: slices.Clone(s.cwds), unknown: s.unknown, linked: s.linked}
}

// union returns the states either of which the shell may be in.
func union(x, y state) state {
	if x.unknown != "" {
		return x
	}
	if y.unknown != "" {
		return y
	}
	out := x.clone()
	out.linked = x.linked || y.linked
	for _, c := range y.cwds {
		if !slices.Contains(out.cwds, c) {
			out.cwds = append(out.cwds, c)
		}
	}
	return out
}

// analyzer walks one command line. It stops at the first denial.
type analyzer struct {
	p         *Policy
	denied    *Decision
	depth     int
	shells    int
	dirs      int
	steps     int
	words     int
	redefined map[string]bool
	funcs     map[string]*syntax.Stmt
	piped     map[*syntax.Stmt]bool
	seen      map[syntax.Node]bool // the calls and substitutions analysed at least once
	links     map[string]string    // the symbolic links the command creates (path -> target), followed by resolve
	resolved  map[string]resolution
	tainted   []string // the directories it fills with entries it cannot see (resolve denies below them)
}

// Bash decides whether the Bash tool may run command with the working directory cwd.
func (p *Policy) Bash(cwd, command string) Decision {
	if p.err != nil {
		return deny(RuleInvalidPolicy, "%v", p.err)
	}
	a := &analyzer{p: p, redefined: map[string]bool{}, funcs: map[string]*syntax.Stmt{},
		piped: map[*syntax.Stmt]bool{}, seen: map[syntax.Node]bool{}, links: map[string]string{}, resolved: map[string]resolution{}}
	st := state{cwds: []string{cwd}}
	if real, err := p.resolve(cwd, "."); err == nil {
		st.cwds = []string{real}
	} else {
		st = state{unknown: "the tool's working directory " + cwd + " cannot be resolved"}
	}
	a.script(command, st, true)
	if a.denied != nil {
		return *a.denied
	}
	return allow
}

// deny records the first denial.
func (a *analyzer) deny(d Decision) {
	if a.denied == nil {
		a.denied = &d
	}
}

func (a *analyzer) stop() bool { return a.denied != nil }

// script parses src and analyses it in st (the state is changed in place when inPlace, as for
// eval; a new shell otherwise). It returns the state after it.
func (a *analyzer) script(src string, st state, top bool) state {
	if len(src) > maxCommandBytes {
		a.deny(deny(RuleTooComplex, "the command is %d bytes, more than the %d the policy analyses; write long content with the Write tool", len(src), maxCommandBytes))
		return st
	}
	f, err := shellparse.Parse(src)
	if err != nil {
		a.deny(deny(RuleUnparsable, "the command does not parse as Bash (%v); fix its quoting", err))
		return st
	}
	a.prescan(f)
	if a.stop() {
		return st
	}
	a.evaluation(f)
	if a.stop() {
		return st
	}
	st = a.stmts(f.Stmts, st)
	if a.stop() || !top {
		return st
	}
	// Every simple command and substitution must have been analysed at least once: a function
	// defined and never called, or a construct the walk does not know, is denied.
	syntax.Walk(f, func(n syntax.Node) bool {
		switch v := n.(type) {
		case *syntax.CallExpr:
			if len(v.Args) > 0 && !a.seen[v] {
				a.deny(deny(RuleTooComplex, "the command %q is never reached by the analysis (a function that is not called?); run commands directly", flat(v.Args[0])))
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			if !a.seen[v] {
				a.deny(deny(RuleTooComplex, "a substitution the analysis does not reach; run commands directly"))
			}
		}
		return !a.stop()
	})
	return st
}

// prescan records the variables the line assigns (their values are then unknown), and the
// functions it defines.
func (a *analyzer) prescan(f *syntax.File) {
	mark := func(name string) {
		for _, v := range []string{"HOME", "PWD"} {
			if strings.Contains(name, v) {
				a.redefined[v] = true
			}
		}
	}
	nodes, depth := 0, 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			depth--
			return true
		}
		nodes++
		depth++
		if nodes > maxNodes || depth > maxTreeDepth {
			a.deny(deny(RuleTooComplex, "the command's syntax tree is larger or deeper than the policy analyses (%d nodes, %d levels); split it", maxNodes, maxTreeDepth))
			return false
		}
		switch v := n.(type) {
		case *syntax.Assign:
			if v.Name != nil {
				mark(v.Name.Value)
			}
		case *syntax.WordIter:
			if v.Name != nil {
				mark(v.Name.Value)
			}
		case *syntax.CallExpr:
			if len(v.Args) > 1 {
				switch shellparse.Flat(v.Args[0]) {
				case "read", "mapfile", "readarray", "getopts", "printf", "declare", "typeset", "export", "local", "readonly", "unset", "cd", "pushd", "popd":
					for _, w := range v.Args[1:] {
						mark(shellparse.Flat(w))
					}
				}
			}
		case *syntax.ExtGlob:
			// Bash's extended globs read in zsh (the CLI's shell when it is the user's) as glob
			// qualifiers, which can run code: *(e:'rm -rf /':).
			a.deny(deny(RuleTooComplex, "extended glob patterns such as %s( ) (zsh glob qualifiers in zsh, which can run code) are not analysed; name the files", v.Op))
			return false
		case *syntax.FuncDecl:
			if v.Name == nil || v.Body == nil {
				a.deny(deny(RuleTooComplex, "a function without a name; define functions with a name, or run commands directly"))
				return false
			}
			a.funcs[v.Name.Value] = v.Body
		}
		return true
	})
}

func (a *analyzer) stmts(list []*syntax.Stmt, st state) state {
	for _, s := range list {
		if a.stop() {
			break
		}
		st = a.stmt(s, st)
	}
	return st
}

func (a *analyzer) enter() bool {
	a.depth++
	if a.depth > maxDepth {
		a.deny(deny(RuleTooComplex, "the command nests deeper than %d levels; simplify it", maxDepth))
		return false
	}
	return true
}

func (a *analyzer) stmt(s *syntax.Stmt, st state) state {
	if !a.enter() {
		return st
	}
	defer func() { a.depth-- }()
	for _, r := range s.Redirs {
		a.redirect(r, s, st)
	}
	if s.Cmd == nil || a.stop() {
		return st
	}
	if s.Background || s.Coprocess {
		a.command(s, st.clone())
		return st
	}
	return a.command(s, st)
}

// redirect checks one redirection: the file it writes or reads, and the substitutions of its
// word and here-document.
func (a *analyzer) redirect(r *syntax.Redirect, s *syntax.Stmt, st state) {
	a.substs(r, st)
	if r.Word == nil || a.stop() {
		return
	}
	writes := shellparse.Writes(r)
	reads := r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut
	if !writes && !reads {
		return
	}
	for _, cwd := range a.cwds(st) {
		args, d := a.fields([]*syntax.Word{r.Word}, cwd)
		if d != nil {
			a.deny(*d)
			return
		}
		if len(args) != 1 {
			a.deny(deny(RuleUnresolvable, "the redirection %s %s names %d files; name one file", r.Op, flat(r.Word), len(args)))
			return
		}
		if writes {
			a.writePath(args[0], cwd, "the redirection "+r.Op.String()+" "+flat(r.Word))
		}
		if reads {
			a.readPath(args[0], cwd, "the redirection "+r.Op.String()+" "+flat(r.Word))
		}
	}
}

// cwds returns the directories to judge relative paths in: "" stands for an unknown one.
func (a *analyzer) cwds(st state) []string {
	if st.unknown != "" {
		return []string{""}
	}
	return st.cwds
}

// harmless are files writing to which does no harm.
var harmless = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true, "-": true,
	"/dev/fd/1": true, "/dev/fd/2": true}

// writePath checks that x, an argument the shell will write, is allowed; what says what names it.
func (a *analyzer) writePath(x arg, cwd, what string) {
	if a.stop() || (x.known && harmless[x.val]) {
		return
	}
	if !x.known {
		a.deny(deny(RuleUnresolvable, "%s writes %s, whose value is known only when the command runs; name the path literally", what, x.val))
		return
	}
	if cwd == "" && !isAbsLike(x.val) {
		a.deny(deny(RuleUnresolvable, "%s writes the relative path %s after a change of directory the policy cannot follow; use an absolute path or cd to a literal directory", what, x.val))
		return
	}
	real, err := x.val, error(nil)
	if !x.resolved {
		real, err = a.resolve(cwd, x.val)
	} else {
		_, err = a.resolve("/", x.val) // the tainted directories
	}
	if err != nil {
		a.deny(deny(RuleUnresolvable, "%s writes %s: %v", what, x.val, err))
		return
	}
	d := a.p.checkWrite(real, x.val)
	if d.Allow && !x.resolved {
		d = a.p.checkLinks(real, x.val)
	}
	if !d.Allow {
		d.Reason = what + ": " + d.Reason
		a.deny(d)
	}
}

// readPath checks that x, an argument a command will read, is allowed.
func (a *analyzer) readPath(x arg, cwd, what string) {
	if a.stop() || (a.p.realRead == nil && len(a.p.denyRead) == 0) || (x.known && harmless[x.val]) {
		return
	}
	if !x.known || (cwd == "" && !isAbsLike(x.val)) {
		if a.p.realRead != nil {
			a.deny(deny(RuleUnresolvable, "%s reads %s, which the policy cannot resolve before the command runs; name the path literally", what, x.val))
		}
		return
	}
	real, err := a.resolve(cwd, x.val)
	if err != nil {
		if a.p.realRead != nil {
			a.deny(deny(RuleUnresolvable, "%s reads %s: %v", what, x.val, err))
		}
		return
	}
	if d := a.p.checkRead(real, x.val); !d.Allow {
		d.Reason = what + ": " + d.Reason
		a.deny(d)
	}
}

func isAbsLike(s string) bool { return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") }

// substs analyses the command and process substitutions of n (not those of nested statements,
// which their own walk reaches), each as a subshell in st.
func (a *analyzer) substs(n syntax.Node, st state) {
	syntax.Walk(n, func(m syntax.Node) bool {
		if a.stop() {
			return false
		}
		switch v := m.(type) {
		case *syntax.CmdSubst:
			a.seen[v] = true
			if a.enter() {
				a.stmts(v.Stmts, st.clone())
				a.depth--
			}
			return false
		case *syntax.ProcSubst:
			a.seen[v] = true
			if a.enter() {
				a.stmts(v.Stmts, st.clone())
				a.depth--
			}
			return false
		case *syntax.Stmt:
			return m == n
		case *syntax.FuncDecl:
			return false
		}
		return true
	})
}

// changesDir reports whether n may change the working directory (cd, pushd, popd, a function call).
func (a *analyzer) changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch name := shellparse.Flat(c.Args[0]); name {
			case "cd", "pushd", "popd", "source", ".", "eval":
				found = true
			default:
				if a.funcs[name] != nil {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// command analyses s.Cmd and returns the state after it.
func (a *analyzer) command(s *syntax.Stmt, st state) state {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return a.call(c, st, a.piped[s], s)
	case *syntax.BinaryCmd:
		return a.binary(c, st)
	case *syntax.Subshell:
		a.stmts(c.Stmts, st.clone())
		return st
	case *syntax.Block:
		return a.stmts(c.Stmts, st)
	case *syntax.IfClause:
		return a.ifClause(c, st)
	case *syntax.WhileClause:
		return a.whileClause(c, st)
	case *syntax.ForClause:
		return a.forClause(c, st)
	case *syntax.CaseClause:
		return a.caseClause(c, st)
	case *syntax.FuncDecl:
		return st // analysed where it is called
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause, *syntax.DeclClause:
		a.substs(c, st)
		return st
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return a.stmt(c.Stmt, st)
		}
		return st
	case *syntax.CoprocClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, st.clone())
		}
		return st
	}
	a.deny(deny(RuleTooComplex, "the policy does not analyse this construct (%T); use plain commands", s.Cmd))
	return st
}

// binary analyses x && y, x || y and a pipe (each side in a subshell).
func (a *analyzer) binary(c *syntax.BinaryCmd, st state) state {
	switch c.Op {
	case syntax.AndStmt:
		return a.stmt(c.Y, a.stmt(c.X, st))
	case syntax.OrStmt:
		after := a.stmt(c.X, st)
		return union(after, a.stmt(c.Y, union(st, after)))
	default:
		a.stmt(c.X, st.clone())
		a.piped[c.Y] = true
		a.stmt(c.Y, st.clone())
		return st
	}
}

// ifClause returns the state after either branch.
func (a *analyzer) ifClause(c *syntax.IfClause, st state) state {
	cond := a.stmts(c.Cond, st)
	then := a.stmts(c.Then, cond.clone())
	if c.Else != nil {
		return union(then, a.command(&syntax.Stmt{Cmd: c.Else}, cond.clone()))
	}
	return union(then, cond)
}

// whileClause: a loop that changes directory leaves it unknown.
func (a *analyzer) whileClause(c *syntax.WhileClause, st state) state {
	if a.changesDir(c) {
		st = state{unknown: "a loop changes directory"}
	}
	st = a.stmts(c.Cond, st)
	return union(st, a.stmts(c.Do, st.clone()))
}

// forClause: a loop that changes directory leaves it unknown.
func (a *analyzer) forClause(c *syntax.ForClause, st state) state {
	a.substs(c.Loop, st)
	if a.changesDir(c) {
		st = state{unknown: "a loop changes directory"}
	}
	return union(st, a.stmts(c.Do, st.clone()))
}

// caseClause returns the state after any of its items.
func (a *analyzer) caseClause(c *syntax.CaseClause, st state) state {
	a.substs(c.Word, st)
	out := st
	for _, it := range c.Items {
		for _, p := range it.Patterns {
			a.substs(p, st)
		}
		out = union(out, a.stmts(it.Stmts, st.clone()))
	}
	return out
}
