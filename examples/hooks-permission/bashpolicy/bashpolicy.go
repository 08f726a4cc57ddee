// Package bashpolicy classifies the shell command lines an agent wants to run: Allow for a short
// safelist of read-only commands, Deny for well-known destructive ones, Ask for everything else.
//
// It is deliberately conservative. A line is allowed only when every command in it is on the
// safelist, with no output redirection, no command substitution, no variable or ~ expansion, no
// environment assignment, and (with Policy.Inside) no path argument outside the project. The deny
// rules scan quoted text as if it were unquoted, so `sh -c "$(curl ...)"` is caught too, at the
// price of denying some harmless lines; they are a backstop, not the line of defence: anything
// not allowed needs a human anyway.
package bashpolicy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/hookwire/agent-sdk-go/examples/internal/shlex"
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
	// wrappers run their arguments as a command; reserved words start or end compound commands.
	wrappers = []string{"command", "builtin", "exec", "nohup", "nice", "time", "env", "xargs", "timeout", "stdbuf"}
	reserved = []string{"!", "{", "}", "if", "then", "elif", "else", "fi", "do", "done", "while", "until"}
)

// Classify decides one command line.
func (p Policy) Classify(line string) Decision {
	if d, ok := denied(line); ok {
		return d
	}
	toks, err := shlex.Split(line)
	if err != nil {
		return Decision{Ask, "cannot parse the command: " + err.Error()}
	}
	for _, t := range toks {
		if t.Kind == shlex.Control && (t.Text == "$(" || t.Text == "`" || t.Text == "<(" || t.Text == ">(") {
			return Decision{Ask, "uses a command substitution"}
		}
	}
	cmds := shlex.Commands(toks)
	if len(cmds) == 0 {
		return Decision{Ask, "empty command"}
	}
	var names []string
	for _, c := range cmds {
		if d, ok := p.readOnly(c); !ok {
			return d
		}
		names = append(names, c.Args[0].Text)
	}
	return Decision{Allow, "read-only: " + strings.Join(slices.Compact(names), ", ")}
}

// readOnly reports whether c is a safelisted read-only command; if not, the Ask decision says why.
func (p Policy) readOnly(c shlex.Command) (Decision, bool) {
	for _, r := range c.Redirects {
		op := strings.TrimLeft(r.Op, "0123456789")
		switch {
		case r.Writes() && !(r.HasTarget && r.Target.Text == "/dev/null"):
			return Decision{Ask, "writes to a file (" + r.Op + ")"}, false
		case op == "<" && (!r.HasTarget || strings.ContainsAny(r.Target.Text, "$`") || strings.HasPrefix(r.Target.Text, "~")):
			return Decision{Ask, "reads from an expanded path (" + r.Op + ")"}, false
		case op == "<" && p.Inside != nil && !p.Inside(r.Target.Text):
			return Decision{Ask, "reads outside the project: " + r.Target.Text}, false
		}
	}
	if len(c.Args) == 0 {
		return Decision{Ask, "a redirection without a command"}, false
	}
	name := c.Args[0].Text
	reads, ok := safelist[name]
	if !ok {
		if strings.Contains(name, "=") {
			return Decision{Ask, "sets an environment variable: " + name}, false
		}
		return Decision{Ask, "not on the read-only safelist: " + name}, false
	}
	args := c.Args[1:]
	for _, a := range args {
		if strings.ContainsAny(a.Text, "$`") || (a.Dynamic && strings.HasPrefix(a.Text, "~")) {
			return Decision{Ask, "expands a variable or ~: " + a.Text}, false
		}
	}
	if reason := readOnlyArgs(name, c.Words()[1:]); reason != "" {
		return Decision{Ask, reason}, false
	}
	if reads && p.Inside != nil {
		for _, a := range args {
			v := a.Text
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

var (
	forkBombDef = regexp.MustCompile(`([A-Za-z_:.][A-Za-z0-9_:.]*)\(\)\{`)
	diskDevice  = regexp.MustCompile(`^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper/)`)
)

// denied applies the deny rules. Quoted text is scanned as if unquoted.
func denied(line string) (Decision, bool) {
	flat := strings.Join(strings.Fields(line), "")
	for _, m := range forkBombDef.FindAllStringSubmatch(flat, -1) {
		if strings.Contains(flat, m[1]+"|"+m[1]) {
			return Decision{Deny, "fork bomb"}, true
		}
	}
	// `bash -c 'rm -rf /'`: judge the script given to a shell too.
	if cmds, err := shlex.Parse(line); err == nil {
		for _, c := range cmds {
			w := effective(c.Words())
			if i := slices.Index(w, "-c"); len(w) > 0 && slices.Contains(runners, path.Base(w[0])) && i >= 0 && i+1 < len(w) {
				if d, ok := denied(w[i+1]); ok {
					return d, true
				}
			}
		}
	}
	cmds, err := shlex.Parse(strings.NewReplacer(`"`, " ", `'`, " ").Replace(line))
	if err != nil {
		if cmds, err = shlex.Parse(line); err != nil {
			return Decision{}, false
		}
	}
	download, run := "", ""
	for _, c := range cmds {
		for _, r := range c.Redirects {
			if r.Writes() && r.HasTarget && diskDevice.MatchString(r.Target.Text) {
				return Decision{Deny, "writes to a disk device: " + r.Target.Text}, true
			}
		}
		w := effective(c.Words())
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
		}
		for _, a := range w {
			if slices.Contains(downloader, path.Base(a)) {
				download = path.Base(a)
			}
		}
	}
	if download != "" && run != "" {
		return Decision{Deny, fmt.Sprintf("downloads code and runs it (%s ... %s)", download, run)}, true
	}
	return Decision{}, false
}

// effective drops what runs before the real command: assignments, reserved words and wrappers
// (with their options), so that `nohup env X=1 rm -rf /` is judged as rm.
func effective(w []string) []string {
	for len(w) > 0 {
		switch {
		case strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "="),
			slices.Contains(reserved, w[0]):
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
