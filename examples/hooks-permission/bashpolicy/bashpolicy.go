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

	"github.com/hookwire/agent-sdk-go/examples/internal/shellparse"
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
		var d Decision
		switch v := n.(type) {
		case nil: // Walk's "done with the children"
		case *syntax.File, *syntax.Subshell, *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted, *syntax.Comment:
		case *syntax.Stmt:
			if v.Background || v.Coprocess || v.Disown {
				d = Decision{Ask, "runs in the background"}
			}
		case *syntax.BinaryCmd:
			if v.Op == syntax.PipeAll {
				d = Decision{Ask, "pipes stderr (|&)"}
			}
		case *syntax.Redirect:
			d = p.redirect(v)
		case *syntax.CallExpr:
			rd, ok := p.readOnly(v)
			if ok {
				n, _ := shellparse.Static(v.Args[0])
				names = append(names, n)
				return true
			}
			d = rd
		case *syntax.ParamExp:
			d = Decision{Ask, "expands a parameter"}
			if v.Param != nil {
				d.Reason += ": " + v.Param.Value
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			d = Decision{Ask, "uses a command substitution"}
		case *syntax.ArithmExp, *syntax.ArithmCmd:
			d = Decision{Ask, "uses arithmetic"}
		case *syntax.FuncDecl:
			d = Decision{Ask, "defines a function: " + funcName(v)}
		case *syntax.CoprocClause:
			d = Decision{Ask, "starts a coprocess"}
		default:
			d = Decision{Ask, fmt.Sprintf("uses a compound command (%s)", kind(n))}
		}
		if d.Verdict != "" {
			ask = &d
			return false
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

// readOnlyArgs returns why the arguments of a safelisted command make it more than a read, or "".
func readOnlyArgs(name string, args []string) string {
	switch name {
	case "find":
		for _, a := range args {
			if slices.Contains([]string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}, a) {
				return "find " + a + " runs or writes"
			}
		}
	case "sort":
		for _, a := range args {
			if a == "-o" || strings.HasPrefix(a, "--output") || (strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--")) {
				return "sort -o writes a file"
			}
		}
	case "date":
		for _, a := range args {
			if a == "-s" || strings.HasPrefix(a, "--set") {
				return "date -s sets the clock"
			}
		}
	case "git":
		if len(args) == 0 || !slices.Contains(gitReadOnly, args[0]) {
			return "not a read-only git command (allowed: " + strings.Join(gitReadOnly, ", ") + ")"
		}
		for _, a := range args {
			if strings.HasPrefix(a, "--output") || a == "--ext-diff" || strings.HasPrefix(a, "--exec") {
				return "git " + a + " writes or runs a program"
			}
		}
	}
	return ""
}

var diskDevice = regexp.MustCompile(`^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper/)`)

// denied applies the deny rules to every command of f, nested ones included, and to the scripts
// given to a shell with -c (depth counts those, so a script cannot nest without end).
func denied(f *syntax.File, depth int) (Decision, bool) {
	// A function that calls itself in a pipeline or in the background: a fork bomb.
	var bomb string
	syntax.Walk(f, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok || bomb != "" || funcName(fd) == "" {
			return bomb == ""
		}
		name := funcName(fd)
		syntax.Walk(fd.Body, func(n syntax.Node) bool {
			switch v := n.(type) {
			case *syntax.BinaryCmd:
				if v.Op == syntax.Pipe || v.Op == syntax.PipeAll {
					for _, s := range []*syntax.Stmt{v.X, v.Y} {
						if calls(s, name) {
							bomb = name
						}
					}
				}
			case *syntax.Stmt:
				if v.Background && calls(v, name) {
					bomb = name
				}
			}
			return bomb == ""
		})
		return bomb == ""
	})
	if bomb != "" {
		return Decision{Deny, "fork bomb: " + bomb}, true
	}
	// `bash <<EOF ... EOF` and `sh <<< '...'`: the here-document is the shell's script.
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
		w := make([]string, len(c.Args))
		for i, a := range c.Args {
			w[i] = shellparse.Flat(a)
		}
		if w = effective(w); len(w) == 0 || !slices.Contains(runners, path.Base(w[0])) {
			return true
		}
		for _, r := range st.Redirs {
			body := r.Hdoc
			if r.Op == syntax.WordHdoc {
				body = r.Word
			}
			if body == nil {
				continue
			}
			if sf, err := shellparse.Parse(shellparse.Flat(body)); err == nil {
				if d, ok := denied(sf, depth+1); ok {
					script = &d
				}
			}
		}
		return script == nil
	})
	if script != nil {
		return *script, true
	}
	for _, r := range shellparse.Redirects(f) {
		if t := shellparse.Flat(r.Word); shellparse.Writes(r) && diskDevice.MatchString(t) {
			return Decision{Deny, "writes to a disk device: " + t}, true
		}
	}
	download, run := "", ""
	for _, c := range shellparse.Calls(f) {
		w := make([]string, len(c.Args))
		for i, a := range c.Args {
			w[i] = shellparse.Flat(a)
		}
		w = effective(w)
		if len(w) == 0 {
			continue
		}
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
			run = name
			// `bash -c 'rm -rf /'`: judge the script given to a shell too.
			if i := slices.Index(w, "-c"); i >= 0 && i+1 < len(w) && depth < 8 {
				if sf, err := shellparse.Parse(w[i+1]); err == nil {
					if d, ok := denied(sf, depth+1); ok {
						return d, true
					}
				}
			}
		}
		if slices.Contains(downloader, name) {
			download = name
		}
	}
	if download != "" && run != "" {
		return Decision{Deny, fmt.Sprintf("downloads code and runs it (%s ... %s)", download, run)}, true
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
