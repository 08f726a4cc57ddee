// Package bashpolicy classifies the shell command lines an agent wants to run: Allow for a short
// safelist of read-only commands, Deny for well-known destructive ones, Ask for everything else.
//
// Lines are parsed by a real shell parser (mvdan.cc/sh/v3/syntax, Bash variant), so quoting,
// here-documents, arithmetic, nested substitutions, functions and coproc read as Bash reads them.
//
// It is deliberately conservative. A line is allowed only when it is a list or pipeline of simple
// commands (subshells too) that are all on the safelist, with no output redirection, no
// expansion (parameter, command, arithmetic, process substitution, ~), no environment
// assignment, and (with Policy.Inside) no path argument outside the project; functions, loops,
// conditionals, coproc and background jobs need a human. The deny rules look at every command of
// the line, nested ones included (inside $(...), <(...), here-documents, functions, loops), and at
// the script of `sh -c`; they are a backstop, not the line of defence: anything not allowed needs
// a human anyway.
package bashpolicy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookwire/agent-sdk-go/claude/policy/shellparse"
)

// Verdict is the outcome of a classification.
type Verdict string

// The verdicts.
const (
	Allow Verdict = "allow"
	Deny  Verdict = "deny"
	Ask   Verdict = "ask"
)

// Decision is a verdict with the reason for it.
type Decision struct {
	Verdict Verdict
	Reason  string
}

// Policy classifies command lines. The zero value applies no path check.
type Policy struct {
	// Inside, when not nil, must accept every path argument of a safelisted command that reads
	// files; otherwise the line is Ask. Use it to keep reads in the project directory.
	Inside func(path string) bool
}

// safelist maps each read-only command to whether its arguments name files it reads (and must pass
// Policy.Inside). Options that make one of them write or run something are refused in readOnlyArgs.
var safelist = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true, "find": true,
	"stat": true, "du": true, "diff": true, "cmp": true, "cut": true, "sort": true, "realpath": true,
	"echo": false, "pwd": false, "whoami": false, "id": false, "date": false, "uname": false,
	"which": false, "basename": false, "dirname": false, "true": false, "git": true,
}

// gitReadOnly are the git subcommands allowed.
var gitReadOnly = []string{"status", "log", "diff", "show", "rev-parse", "ls-files", "blame"}

var (
	privileged = []string{"sudo", "su", "doas", "pkexec"}
	diskTools  = []string{"mkfs", "mke2fs", "mkswap", "fdisk", "sfdisk", "parted", "wipefs"}
	powerTools = []string{"shutdown", "reboot", "halt", "poweroff"}
	downloader = []string{"curl", "wget"}
	runners    = []string{"sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node", "eval", "source", "."}
	// wrappers run their arguments as a command.
	wrappers = []string{"command", "builtin", "exec", "nohup", "nice", "time", "env", "xargs", "timeout", "stdbuf"}
)

// Classify decides one command line.
func (p Policy) Classify(line string) Decision {
	f, err := shellparse.Parse(line)
	if err != nil {
		return Decision{Ask, "cannot parse the command: " + err.Error()}
	}
	if d, ok := denied(f, 0); ok {
		return d
	}
	if len(f.Stmts) == 0 {
		return Decision{Ask, "empty command"}
	}
	var names []string
	var ask *Decision
	syntax.Walk(f, func(n syntax.Node) bool {
		if ask != nil {
			return false
		}
		d, name := p.node(n)
		if d.Verdict != "" {
			ask = &d
			return false
		}
		if name != "" {
			names = append(names, name)
		}
		return true
	})
	if ask != nil {
		return *ask
	}
	if len(names) == 0 {
		return Decision{Ask, "no command"}
	}
	return Decision{Allow, "read-only: " + strings.Join(slices.Compact(names), ", ")}
}

// node judges one node of an otherwise undenied line: an Ask decision when it needs a human, or
// the name of the safelisted command it runs.
func (p Policy) node(n syntax.Node) (d Decision, command string) {
	switch v := n.(type) {
	case nil: // Walk's "done with the children"
	case *syntax.File, *syntax.Subshell, *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted, *syntax.Comment:
	case *syntax.Stmt:
		if v.Background || v.Coprocess || v.Disown {
			return Decision{Ask, "runs in the background"}, ""
		}
	case *syntax.BinaryCmd:
		if v.Op == syntax.PipeAll {
			return Decision{Ask, "pipes stderr (|&)"}, ""
		}
	case *syntax.Redirect:
		return p.redirect(v), ""
	case *syntax.CallExpr:
		if d, ok := p.readOnly(v); !ok {
			return d, ""
		}
		name, _ := shellparse.Static(v.Args[0])
		return Decision{}, name
	case *syntax.ParamExp:
		d := Decision{Ask, "expands a parameter"}
		if v.Param != nil {
			d.Reason += ": " + v.Param.Value
		}
		return d, ""
	default:
		return Decision{Ask, askReason(n)}, ""
	}
	return Decision{}, ""
}

// askReason says why a node that is not a plain command needs a human.
func askReason(n syntax.Node) string {
	switch v := n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst:
		return "uses a command substitution"
	case *syntax.ArithmExp, *syntax.ArithmCmd:
		return "uses arithmetic"
	case *syntax.FuncDecl:
		return "defines a function: " + funcName(v)
	case *syntax.CoprocClause:
		return "starts a coprocess"
	}
	return fmt.Sprintf("uses a compound command (%s)", kind(n))
}

// kind names a node's type for a reason: *syntax.ForClause is "for".
func kind(n syntax.Node) string {
	k := strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
	return strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(k, "Clause"), "Cmd"))
}

// redirect decides one redirection of an otherwise read-only line: writes and reads from paths
// the shell expands or outside the project need a human; fd duplications and here-strings or
// here-documents without expansions (Walk checks their words) do not.
func (p Policy) redirect(r *syntax.Redirect) Decision {
	t, static := shellparse.Static(r.Word)
	switch {
	case shellparse.Writes(r) && !(static && t == "/dev/null"):
		return Decision{Ask, "writes to a file (" + r.Op.String() + ")"}
	case r.Op != syntax.RdrIn:
		return Decision{}
	case !static || shellparse.Tilde(r.Word) || shellparse.Glob(r.Word):
		return Decision{Ask, "reads from an expanded path (" + r.Op.String() + ")"}
	case p.Inside != nil && !p.Inside(t):
		return Decision{Ask, "reads outside the project: " + t}
	}
	return Decision{}
}

// readOnly reports whether c is a safelisted read-only command; if not, the Ask decision says why.
func (p Policy) readOnly(c *syntax.CallExpr) (Decision, bool) {
	if len(c.Assigns) > 0 {
		d := Decision{Ask, "sets an environment variable"}
		if n := c.Assigns[0].Name; n != nil {
			d.Reason += ": " + n.Value
		}
		return d, false
	}
	name, ok := shellparse.Static(c.Args[0])
	if !ok {
		return Decision{Ask, "the command name is expanded"}, false
	}
	reads, ok := safelist[name]
	if !ok {
		return Decision{Ask, "not on the read-only safelist: " + name}, false
	}
	var args []string
	for _, w := range c.Args[1:] {
		a, ok := shellparse.Static(w)
		if !ok || shellparse.Tilde(w) {
			return Decision{Ask, "expands a variable or ~: " + shellparse.Flat(w)}, false
		}
		args = append(args, a)
	}
	if reason := readOnlyArgs(name, args); reason != "" {
		return Decision{Ask, reason}, false
	}
	if reads && p.Inside != nil {
		for _, v := range args {
			if strings.HasPrefix(v, "-") {
				_, v, _ = strings.Cut(v, "=") // --file=PATH
			}
			if v != "" && !p.Inside(v) {
				return Decision{Ask, "reads outside the project: " + v}, false
			}
		}
	}
	return Decision{}, true
}

// argChecks are the safelisted commands with options that make them more than a read: each
// returns why its arguments do, or "".
var argChecks = map[string]func(args []string) string{
	"find": func(args []string) string {
		for _, a := range args {
			if slices.Contains([]string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}, a) {
				return "find " + a + " runs or writes"
			}
		}
		return ""
	},
	"sort": func(args []string) string {
		for _, a := range args {
			if a == "-o" || strings.HasPrefix(a, "--output") || (strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--")) {
				return "sort -o writes a file"
			}
		}
		return ""
	},
	"date": func(args []string) string {
		for _, a := range args {
			if a == "-s" || strings.HasPrefix(a, "--set") {
				return "date -s sets the clock"
			}
		}
		return ""
	},
	"git": func(args []string) string {
		if len(args) == 0 || !slices.Contains(gitReadOnly, args[0]) {
			return "not a read-only git command (allowed: " + strings.Join(gitReadOnly, ", ") + ")"
		}
		for _, a := range args {
			if strings.HasPrefix(a, "--output") || a == "--ext-diff" || strings.HasPrefix(a, "--exec") {
				return "git " + a + " writes or runs a program"
			}
		}
		return ""
	},
}

// readOnlyArgs returns why the arguments of a safelisted command make it more than a read, or "".
func readOnlyArgs(name string, args []string) string {
	if check := argChecks[name]; check != nil {
		return check(args)
	}
	return ""
}

var diskDevice = regexp.MustCompile(`^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper/)`)

// denied applies the deny rules to every command of f, nested ones included, and to the scripts
// given to a shell with -c (depth counts those, so a script cannot nest without end).
func denied(f *syntax.File, depth int) (Decision, bool) {
	if bomb := forkBomb(f); bomb != "" {
		return Decision{Deny, "fork bomb: " + bomb}, true
	}
	if d, ok := deniedHereDoc(f, depth); ok {
		return d, true
	}
	for _, r := range shellparse.Redirects(f) {
		if t := shellparse.Flat(r.Word); shellparse.Writes(r) && diskDevice.MatchString(t) {
			return Decision{Deny, "writes to a disk device: " + t}, true
		}
	}
	download, run := "", ""
	for _, c := range shellparse.Calls(f) {
		w := effective(flatArgs(c))
		if len(w) == 0 {
			continue
		}
		if d, ok := deniedCall(w, depth); ok {
			return d, true
		}
		switch name := path.Base(w[0]); {
		case slices.Contains(runners, name):
			run = name
		case slices.Contains(downloader, name):
			download = name
		}
	}
	if download != "" && run != "" {
		return Decision{Deny, fmt.Sprintf("downloads code and runs it (%s ... %s)", download, run)}, true
	}
	return Decision{}, false
}

func flatArgs(c *syntax.CallExpr) []string {
	w := make([]string, len(c.Args))
	for i, a := range c.Args {
		w[i] = shellparse.Flat(a)
	}
	return w
}

// forkBomb returns the name of a function that calls itself in a pipeline or in the background,
// or "".
func forkBomb(f *syntax.File) string {
	var bomb string
	syntax.Walk(f, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok || bomb != "" || funcName(fd) == "" {
			return bomb == ""
		}
		name := funcName(fd)
		syntax.Walk(fd.Body, func(n syntax.Node) bool {
			if selfCall(n, name) {
				bomb = name
			}
			return bomb == ""
		})
		return bomb == ""
	})
	return bomb
}

// selfCall reports whether n, in the body of the function name, calls it in a pipeline or in the
// background.
func selfCall(n syntax.Node, name string) bool {
	switch v := n.(type) {
	case *syntax.BinaryCmd:
		return (v.Op == syntax.Pipe || v.Op == syntax.PipeAll) && (calls(v.X, name) || calls(v.Y, name))
	case *syntax.Stmt:
		return v.Background && calls(v, name)
	}
	return false
}

// deniedHereDoc judges `bash <<EOF ... EOF` and `sh <<< '...'`: the here-document is the shell's
// script.
func deniedHereDoc(f *syntax.File, depth int) (Decision, bool) {
	var script *Decision
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || script != nil {
			return script == nil
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || depth >= 8 {
			return true
		}
		if w := effective(flatArgs(c)); len(w) == 0 || !slices.Contains(runners, path.Base(w[0])) {
			return true
		}
		for _, r := range st.Redirs {
			if d, ok := deniedScript(hereDocBody(r), depth); ok {
				script = &d
			}
		}
		return script == nil
	})
	if script != nil {
		return *script, true
	}
	return Decision{}, false
}

// hereDocBody returns the script a here-document or here-string feeds, or nil.
func hereDocBody(r *syntax.Redirect) *syntax.Word {
	if r.Op == syntax.WordHdoc {
		return r.Word
	}
	return r.Hdoc
}

// deniedScript applies the deny rules to body, a script given to a shell.
func deniedScript(body *syntax.Word, depth int) (Decision, bool) {
	if body == nil {
		return Decision{}, false
	}
	sf, err := shellparse.Parse(shellparse.Flat(body))
	if err != nil {
		return Decision{}, false
	}
	return denied(sf, depth+1)
}

// deniedCall applies the deny rules to one command, given as its effective words.
func deniedCall(w []string, depth int) (Decision, bool) {
	name := path.Base(w[0])
	switch {
	case slices.Contains(privileged, name):
		return Decision{Deny, "privilege escalation: " + name}, true
	case slices.Contains(diskTools, name) || strings.HasPrefix(name, "mkfs."):
		return Decision{Deny, "formats or repartitions a disk: " + name}, true
	case slices.Contains(powerTools, name):
		return Decision{Deny, "shuts the machine down: " + name}, true
	case name == "dd" && slices.ContainsFunc(w, func(a string) bool { return strings.HasPrefix(a, "of=/dev/") }):
		return Decision{Deny, "dd onto a device"}, true
	case (name == "rm" || name == "chmod" || name == "chown" || name == "chgrp") && recursive(w[1:]):
		for _, a := range w[1:] {
			if a == "--no-preserve-root" || critical(a) {
				return Decision{Deny, fmt.Sprintf("%s -r on a critical path: %s", name, a)}, true
			}
		}
	case slices.Contains(runners, name):
		// `bash -c 'rm -rf /'`: judge the script given to a shell too.
		if i := slices.Index(w, "-c"); i >= 0 && i+1 < len(w) && depth < 8 {
			if sf, err := shellparse.Parse(w[i+1]); err == nil {
				return denied(sf, depth+1)
			}
		}
	}
	return Decision{}, false
}

// funcName returns the name a function is declared with; "" for an anonymous one (the parser
// reads `() ...` as one).
func funcName(fd *syntax.FuncDecl) string {
	switch {
	case fd.Name != nil:
		return fd.Name.Value
	case len(fd.Names) > 0 && fd.Names[0] != nil:
		return fd.Names[0].Value
	}
	return ""
}

// calls reports whether s runs the command name, directly or nested.
func calls(s *syntax.Stmt, name string) bool {
	for _, c := range shellparse.Calls(s) {
		if v, _ := shellparse.Static(c.Args[0]); v == name {
			return true
		}
	}
	return false
}

// effective drops what runs before the real command: assignments and wrappers
// (with their options), so that `nohup env X=1 rm -rf /` is judged as rm.
func effective(w []string) []string {
	for len(w) > 0 {
		switch {
		case strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "="): // env's assignments
			w = w[1:]
		case slices.Contains(wrappers, path.Base(w[0])):
			w = w[1:]
			for len(w) > 0 && (strings.HasPrefix(w[0], "-") || isNumber(w[0])) {
				w = w[1:] // wrapper options, or timeout's duration
			}
		default:
			return w
		}
	}
	return w
}

func isNumber(s string) bool { return strings.Trim(s, "0123456789.smhd") == "" && s != "" }

// recursive reports whether args hold -r, -R or --recursive, alone or in a cluster such as -rf.
func recursive(args []string) bool {
	for _, a := range args {
		if a == "--recursive" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR")) {
			return true
		}
	}
	return false
}

// critical reports whether a path is /, a top-level directory, or the home directory, however
// it is spelled (/, /*, //, /etc/, ~, $HOME, ...).
func critical(a string) bool {
	a = strings.TrimSuffix(a, "*")
	if a == "~" || a == "~/" || a == "$HOME" || a == "${HOME}" || a == "$HOME/" || a == "${HOME}/" {
		return true
	}
	if !strings.HasPrefix(a, "/") {
		return false
	}
	c := path.Clean(a)
	return c == "/" || strings.Count(c, "/") == 1
}
