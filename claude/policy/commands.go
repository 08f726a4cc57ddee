package policy

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookwire/agent-sdk-go/internal/shellparse"
)

// strictFree are the shell builtins Strict lets run without listing: they change nothing
// outside the shell (their redirections are checked like any other).
var strictFree = []string{"cd", "pushd", "popd", "pwd", "echo", "printf", "true", "false", "test", "[", "exit",
	"return", "set", "shift", "export", "unset", "read", ":", "wait", "local", "declare", "type", "command"}

// readOnly are programs that write nothing by themselves: their operands are only read.
var readOnly = []string{"ls", "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "rg", "ag",
	"diff", "cmp", "comm", "stat", "file", "du", "df", "tree", "realpath", "readlink", "basename", "dirname",
	"pwd", "echo", "printf", "true", "false", "test", "[", "which", "type", "whereis", "whoami", "id", "uname",
	"date", "sort", "cut", "tr", "column", "jq", "yq", "od", "hexdump", "xxd", "strings", "md5sum", "sha1sum",
	"sha256sum", "sha512sum", "cksum", "nl", "fold", "fmt", "rev", "tac", "base64", "seq", "sleep", "ps",
	"uptime", "hostname", "printenv", "getent", "locale", "tput", "exit", "return", "set", "shift", "unset",
	"read", ":", "wait", "local", "declare", "shopt", "paste", "join", "look", "nproc", "free", "lsof",
	"go", "npm", "pnpm", "yarn", "npx", "cargo", "make", "gofmt", "pytest", "tsc", "eslint", "prettier"}

// programsWithOwnPaths are build tools whose operands are packages or targets rather than files
// to write (go test ./..., npm test): only their flags' path values are checked as writes.
var buildTools = []string{"go", "npm", "pnpm", "yarn", "npx", "cargo", "make", "gofmt", "pytest", "tsc", "eslint", "prettier"}

// writeFlags are the flags of read-only programs that name a file they write.
var writeFlags = map[string][]string{"sort": {"-o", "--output"}, "tree": {"-o"}, "go": {"-o", "-coverprofile", "-cpuprofile", "-memprofile", "-trace", "-blockprofile", "-mutexprofile", "-outputdir"},
	"make": {"-C", "--directory", "-f", "--file"}, "cargo": {"--target-dir", "--manifest-path"}, "npm": {"--prefix", "-C"}}

var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"}

// inline are each interpreter's flags whose value is code to run.
var inline = map[string]string{"python": "c", "node": "ep", "nodejs": "ep", "perl": "eE", "ruby": "e", "php": "r",
	"bun": "e", "lua": "e", "Rscript": "e", "osascript": "e", "pwsh": "c", "powershell": "c", "tclsh": "", "irb": "", "deno": ""}

var inlineLong = []string{"--eval", "--print", "--command", "-Command", "-EncodedCommand", "-c"}

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
	name := args[0].val
	base := path.Base(filepath.ToSlash(name))
	base = strings.TrimSuffix(base, ".exe")
	rest := args[1:]
	if a.p.mode == ModeStrict && !slices.Contains(strictFree, base) && !slices.Contains(a.p.commands, base) {
		a.deny(deny(RuleNotListed, "%s is not one of the commands this policy runs (%s)", base, strings.Join(a.p.commands, ", ")))
		return st
	}
	strs := make([]string, len(rest))
	for i, x := range rest {
		strs[i] = x.val
	}
	for i := range a.p.rules {
		if r := &a.p.rules[i]; r.match(base, strs, piped) {
			a.deny(Decision{Rule: r.Name, Reason: r.Reason})
			return st
		}
	}
	if body := a.funcs[name]; body != nil {
		return a.nested(func() state { return a.stmt(body, st) }, st)
	}
	what := base
	switch base {
	case "cd", "pushd":
		return a.cd(rest, cwd, st)
	case "popd":
		return state{unknown: "popd"}
	case "source", ".":
		if len(rest) > 0 {
			a.readPath(rest[0], cwd, base)
		}
		return state{unknown: "a sourced script may change directory"}
	case "eval":
		code, ok := joinKnown(rest)
		if !ok {
			a.deny(deny(RuleUnresolvable, "eval runs code known only when the command runs; run the commands directly"))
			return st
		}
		return a.nested(func() state { return a.script(code, st, false) }, st)
	case "trap":
		if len(rest) > 1 && rest[0].val != "-p" && rest[0].val != "-l" {
			if !rest[0].known {
				a.deny(deny(RuleUnresolvable, "trap runs code known only when it fires; run the commands directly"))
				return st
			}
			a.nested(func() state { return a.script(rest[0].val, st.clone(), false) }, st)
		}
		return st
	case "exec", "command", "builtin", "nohup", "time", "setsid", "unbuffer":
		p := parseFlags(rest, "a", nil, true)
		if base == "command" && p.has("-v", "-V") {
			return st
		}
		return a.run(p.ops, cwd, st, piped, s)
	case "env":
		p := parseFlags(rest, "uCS", []string{"--unset", "--chdir", "--split-string"}, true)
		if p.has("-C", "--chdir", "-S", "--split-string") {
			a.deny(deny(RuleTooComplex, "env -C and -S are not analysed; cd first, or run the command directly"))
			return st
		}
		ops := p.ops
		for len(ops) > 0 && ops[0].known && strings.Contains(ops[0].val, "=") {
			ops = ops[1:]
		}
		return a.run(ops, cwd, st, piped, s)
	case "nice", "timeout", "stdbuf", "ionice", "taskset", "chrt", "caffeinate":
		p := parseFlags(rest, "nskioecp", []string{"--signal", "--kill-after", "--adjustment"}, true)
		ops := p.ops
		if base == "timeout" || base == "taskset" || base == "chrt" {
			if len(ops) > 0 {
				ops = ops[1:] // the duration, mask or priority
			}
		}
		return a.run(ops, cwd, st, piped, s)
	case "xargs":
		return a.xargs(rest, cwd, st, s)
	case "find":
		a.find(rest, cwd, st, s)
		return st
	case "git":
		a.git(rest, cwd, st, s)
		return st
	case "rm", "rmdir", "unlink", "shred", "touch", "mkdir", "truncate", "tee":
		p := parseFlags(rest, map[string]string{"touch": "drt", "mkdir": "m", "truncate": "sr", "shred": "nsu"}[base],
			[]string{"--date", "--reference", "--mode", "--size", "--iterations", "--random-source"}, false)
		recursive := base == "rm" && p.has("-r", "-R", "--recursive")
		entry := base == "rm" || base == "rmdir" || base == "unlink"
		for _, x := range p.ops {
			if entry {
				x = a.entry(x, cwd)
			}
			a.writePath(x, cwd, what)
			if recursive {
				a.recursive(x, cwd, what)
			}
		}
		for _, x := range p.values("-r", "--reference") {
			if base != "rm" {
				a.readPath(x, cwd, what)
			}
		}
	case "chmod", "chown", "chgrp":
		p := parseFlags(rest, "", []string{"--reference", "--from"}, false)
		ops := p.ops
		if !p.has("--reference") && len(ops) > 0 {
			ops = ops[1:] // the mode or owner
		}
		for _, x := range ops {
			a.writePath(x, cwd, what)
			if p.has("-R", "--recursive") {
				a.recursive(x, cwd, what)
			}
		}
	case "mv", "cp", "install", "ln", "rsync", "scp":
		a.copyLike(base, rest, cwd)
	case "dd":
		for _, x := range rest {
			switch {
			case !x.known:
				a.deny(deny(RuleUnresolvable, "dd %s is known only when the command runs; name it literally", x.val))
			case strings.HasPrefix(x.val, "of="):
				a.writePath(arg{val: x.val[3:], known: true}, cwd, what)
			case strings.HasPrefix(x.val, "if="):
				a.readPath(arg{val: x.val[3:], known: true}, cwd, what)
			}
		}
	case "sed":
		a.sed(rest, cwd)
	case "curl", "wget":
		p := parseFlags(rest, map[string]string{"curl": "oKTdHXuAeEwxr", "wget": "OoaPeU"}[base],
			[]string{"--output", "--output-dir", "--config", "--output-document", "--directory-prefix", "--append-output", "--header", "--data", "--user", "--request"}, false)
		for _, x := range p.values("-o", "--output", "--output-dir", "-O", "-P", "--output-document", "--directory-prefix", "-a", "--append-output") {
			if base == "curl" && x.val == "" {
				continue
			}
			a.writePath(x, cwd, what)
		}
		if base == "wget" && !p.has("-O", "--output-document", "-P", "--directory-prefix") && cwd == "" {
			a.deny(deny(RuleUnresolvable, "wget saves in a directory the policy cannot follow; use -O with a literal path"))
		}
		if base == "curl" && p.has("-O", "--remote-name", "--remote-name-all") && cwd == "" {
			a.deny(deny(RuleUnresolvable, "curl -O saves in a directory the policy cannot follow; use -o with a literal path"))
		}
	case "mktemp":
		p := parseFlags(rest, "pt", []string{"--tmpdir", "--suffix"}, false)
		dir := os.TempDir()
		if v := p.values("-p", "--tmpdir"); len(v) > 0 && v[0].val != "" {
			dir = v[0].val
		}
		if len(p.ops) > 0 && strings.Contains(p.ops[0].val, "/") && !p.has("-p", "--tmpdir", "-t") {
			a.writePath(p.ops[0], cwd, what)
		} else {
			a.writePath(arg{val: filepath.Join(dir, "x"), known: true}, cwd, what+" (in "+dir+")")
		}
	case "awk", "gawk", "mawk", "nawk":
		p := parseFlags(rest, "fvF", nil, true)
		if len(p.values("-f")) == 0 && len(p.ops) > 0 && awkEffects.MatchString(p.ops[0].val) {
			a.deny(deny(RuleNestedCode, "this awk program writes files or runs commands (system, print >, |); do that with plain commands"))
		}
		if len(p.ops) > 1 {
			for _, x := range p.ops[1:] {
				a.readPath(x, cwd, what)
			}
		}
	default:
		switch {
		case slices.Contains(shells, base):
			return a.shell(base, rest, st, piped, s)
		case isInterpreter(base):
			a.interpreter(base, rest, cwd, s)
		case slices.Contains(readOnly, base):
			for _, x := range flagValues(rest, writeFlags[base]) {
				a.writePath(x, cwd, what+" (an output flag)")
			}
			p := parseFlags(rest, "", nil, false)
			for _, x := range p.ops {
				if !slices.Contains(buildTools, base) {
					a.readPath(x, cwd, what)
				} else if _, v, ok := strings.Cut(x.val, "="); ok && x.known && looksLikePath(v) {
					a.writePath(arg{val: v, known: true}, cwd, what+" (a variable of the build)")
				}
			}
		default:
			a.program(base, rest, cwd)
		}
	}
	return st
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

// cd returns the state after cd (or pushd) with args.
func (a *analyzer) cd(args []arg, cwd string, st state) state {
	p := parseFlags(args, "", nil, false)
	target := arg{val: a.p.home, known: a.p.home != "" && !a.redefined["HOME"]}
	if len(p.ops) > 0 {
		target = p.ops[0]
	}
	if !target.known || target.val == "-" || strings.HasPrefix(target.val, "+") {
		return state{unknown: "cd " + target.val}
	}
	if cwd == "" && !isAbsLike(target.val) {
		return st
	}
	real, err := a.p.resolve(cwd, target.val)
	if err != nil {
		return state{unknown: "cd " + target.val + ": " + err.Error()}
	}
	return state{cwds: []string{real}}
}

// recursive denies a recursive change of x when x is a write root, an ancestor of one, or holds a
// protected path.
func (a *analyzer) recursive(x arg, cwd, what string) {
	if a.stop() || !x.known {
		return
	}
	real, err := a.p.resolve(cwd, x.val)
	if err != nil {
		return // writePath has denied it
	}
	for _, r := range a.p.realWrite {
		if a.p.under(r, real) {
			a.deny(deny(RuleRecursiveRoot, "%s -r %s would remove or change the write root %s itself; name what inside it to change", what, x.val, r))
			return
		}
	}
	for _, pat := range a.p.protected {
		if strings.HasPrefix(pat, "~") || filepath.IsAbs(pat) {
			continue
		}
		if m, _ := filepath.Glob(filepath.Join(real, pat)); len(m) > 0 {
			a.deny(deny(RuleRecursiveRoot, "%s -r %s would reach the protected %s; name what inside it to change", what, x.val, m[0]))
			return
		}
	}
}

// copyLike handles mv, cp, install, ln, rsync and scp: the destination is written; mv's sources
// are removed; ln's targets and cp -s/-l's sources must stay inside the write roots.
func (a *analyzer) copyLike(base string, rest []arg, cwd string) {
	p := parseFlags(rest, "tSmogeB", []string{"--target-directory", "--suffix", "--mode", "--owner", "--group", "--backup"}, false)
	ops := p.ops
	var dest []arg
	if t := p.values("-t", "--target-directory"); len(t) > 0 && base != "rsync" && base != "scp" {
		dest = t
	} else if base == "install" && p.has("-d", "--directory") {
		dest, ops = ops, nil
	} else if base == "ln" && len(ops) == 1 {
		dest = []arg{{val: ".", known: true}}
	} else if len(ops) > 0 {
		dest, ops = ops[len(ops)-1:], ops[:len(ops)-1]
	}
	for _, d := range dest {
		if base == "scp" || base == "rsync" {
			if d.known && strings.Contains(d.val, ":") && !strings.HasPrefix(d.val, "/") && !strings.HasPrefix(d.val, ".") {
				continue // a remote destination
			}
		}
		a.writePath(d, cwd, base)
	}
	symbolic := base == "ln" && p.has("-s", "--symbolic") || base == "cp" && p.has("-s", "--symbolic-link")
	hard := base == "ln" && !symbolic || base == "cp" && p.has("-l", "--link")
	for _, src := range ops {
		switch {
		case base == "mv":
			src = a.entry(src, cwd)
			a.writePath(src, cwd, "mv (the source is removed)")
			if src.known {
				a.recursive(src, cwd, "mv")
			}
		case symbolic:
			a.linkTarget(src, dest, cwd, base)
		case hard:
			if a.stop() {
				return
			}
			if !src.known {
				a.deny(deny(RuleUnresolvable, "%s links %s, known only when the command runs", base, src.val))
				return
			}
			if real, err := a.p.resolve(cwd, src.val); err != nil || !a.p.underAny(real, a.p.realWrite) {
				a.deny(deny(RuleSymlinkOutside, "%s makes a hard link to %s, outside the write roots: writing the link would change it", base, src.val))
			}
		default:
			if base != "scp" && base != "rsync" || !strings.Contains(src.val, ":") {
				a.readPath(src, cwd, base)
			}
		}
	}
}

// linkTarget checks the target of a symbolic link: resolved from the link's directory, it must
// be inside the write roots, or later writes through the link would leave them.
func (a *analyzer) linkTarget(target arg, dest []arg, cwd, base string) {
	if a.stop() {
		return
	}
	if !target.known || len(dest) == 0 || !dest[0].known {
		a.deny(deny(RuleUnresolvable, "%s -s with a target known only when the command runs; name it literally", base))
		return
	}
	dir := cwd
	if !filepath.IsAbs(target.val) && !strings.HasPrefix(target.val, "~") {
		// Relative to the directory holding the link.
		linkPath, err := a.p.resolve(cwd, dest[0].val)
		if err != nil {
			a.deny(deny(RuleUnresolvable, "%s -s %s: %v", base, dest[0].val, err))
			return
		}
		if fi, err := os.Stat(linkPath); err == nil && fi.IsDir() {
			dir = linkPath
		} else {
			dir = filepath.Dir(linkPath)
		}
	}
	real, err := a.p.resolve(dir, target.val)
	if err != nil {
		a.deny(deny(RuleSymlinkOutside, "%s -s %s: the link's target cannot be resolved (%v); link to an existing path inside the write roots", base, target.val, err))
		return
	}
	if !a.p.underAny(real, a.p.realWrite) {
		a.deny(deny(RuleSymlinkOutside, "%s -s %s makes a link to %s, outside the write roots; a later write through it would leave them. Link to a path inside them", base, target.val, real))
		return
	}
	if pat := a.p.matchAny(real, a.p.protected); pat != "" {
		a.deny(deny(RuleProtected, "%s -s %s makes a link to the protected %s (pattern %q)", base, target.val, real, pat))
	}
}

var sedEffects = regexp.MustCompile(`(^|[;{}\n])\s*[0-9$,/!~+\s]*[wWe](\s|$)|/[gpiImMe0-9]*w\s`)

var awkEffects = regexp.MustCompile(`system\s*\(|\|\s*(getline|")|"\s*\||(print|printf)[^;}]*>|fflush|close\s*\(`)

// sed: -i edits its files in place; a w or e command writes a file or runs one.
func (a *analyzer) sed(rest []arg, cwd string) {
	p := parseFlags(rest, "efl", []string{"--expression", "--file", "--line-length"}, false)
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
		a.readPath(x, cwd, "sed -f")
	}
	inPlace := p.has("-i", "--in-place")
	for k := range p.flags { // -i.bak arrives as -i with a value, -ni as -n -i
		if strings.HasPrefix(k, "--in-place") {
			inPlace = true
		}
	}
	for _, x := range ops {
		if inPlace {
			a.writePath(x, cwd, "sed -i")
		} else {
			a.readPath(x, cwd, "sed")
		}
	}
}

var interpreterName = regexp.MustCompile(`^(python|pypy|ruby|perl|node|php|lua)[0-9.]*$`)

func isInterpreter(base string) bool {
	if _, ok := inline[base]; ok {
		return true
	}
	return interpreterName.MatchString(base)
}

// interpreter denies code given inline (python -c, node -e, a here-document): it is another
// language, which the policy does not read. A script file runs as any program.
func (a *analyzer) interpreter(base string, rest []arg, cwd string, s *syntax.Stmt) {
	key := strings.TrimRight(base, "0123456789.")
	letters := inline[key]
	for _, x := range rest {
		if !x.known || !strings.HasPrefix(x.val, "-") || x.val == "-" {
			if x.val == "-" {
				break // the script comes from stdin
			}
			if x.known {
				a.program(base, rest, cwd)
				return // the script file and its arguments
			}
			break
		}
		if slices.Contains(inlineLong, x.val) || strings.HasPrefix(x.val, "--eval=") || strings.HasPrefix(x.val, "--print=") ||
			(!strings.HasPrefix(x.val, "--") && strings.ContainsAny(x.val[1:], letters) && letters != "") {
			a.deny(deny(RuleNestedCode, "%s %s runs inline code the policy does not read; write the code to a file in the project and run that file", base, x.val))
			return
		}
		if x.val == "-m" || x.val == "-r" || x.val == "--require" || x.val == "-I" || x.val == "-W" || x.val == "-X" {
			a.program(base, rest, cwd) // a module (python -m pytest)
			return
		}
	}
	a.deny(deny(RuleNestedCode, "%s reads its program from stdin (a pipe or here-document); write the code to a file in the project and run that file", base))
}

// program handles a program the policy does not model (a build tool, a script): it may write the
// files it is given, so every operand and flag value that looks like a path must be writable.
func (a *analyzer) program(base string, rest []arg, cwd string) {
	for _, x := range rest {
		if a.stop() {
			return
		}
		v := x.val
		if x.known && strings.HasPrefix(v, "-") {
			_, after, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = after
		}
		if !x.known {
			a.deny(deny(RuleUnresolvable, "%s is given %s, known only when the command runs; %s may write it. Name paths literally", base, x.val, base))
			return
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

// shell handles sh, bash, ...: -c's script is analysed as a new shell; a script file runs as a
// program; a script read from a here-document is analysed too.
func (a *analyzer) shell(base string, rest []arg, st state, piped bool, s *syntax.Stmt) state {
	cflag := false
	i := 0
	for ; i < len(rest); i++ {
		x := rest[i]
		if !x.known {
			break
		}
		if x.val == "--" {
			i++
			break
		}
		if x.val == "-o" || x.val == "+o" || x.val == "-O" || x.val == "+O" || x.val == "--rcfile" || x.val == "--init-file" {
			i++
			continue
		}
		if strings.HasPrefix(x.val, "--") {
			continue
		}
		if !strings.HasPrefix(x.val, "-") && !strings.HasPrefix(x.val, "+") || x.val == "-" {
			break
		}
		if strings.Contains(x.val, "c") {
			cflag = true
		}
	}
	cwd := ""
	if st.unknown == "" && len(st.cwds) > 0 {
		cwd = st.cwds[0]
	}
	switch {
	case cflag && i < len(rest):
		if !rest[i].known {
			a.deny(deny(RuleUnresolvable, "%s -c runs a script known only when the command runs; run the commands directly", base))
			return st
		}
		a.nested(func() state { return a.script(rest[i].val, st.clone(), false) }, st)
	case cflag:
		a.deny(deny(RuleUnparsable, "%s -c without a script", base))
	case i < len(rest) && rest[i].val != "-":
		a.program(base, rest[i:], cwd) // a script file
	default:
		body, ok := a.stdinScript(s, cwd)
		if !ok {
			a.deny(deny(RuleNestedCode, "%s reads its commands from stdin, which the policy cannot read; pass them with %s -c '...' or run them directly", base, base))
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

// flagValues returns the values of the flags names in args: "-o v", "-o=v", "--output v",
// "--output=v", and "-ov" for a one-letter flag.
func flagValues(args []arg, names []string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !x.known {
			continue
		}
		for _, n := range names {
			switch {
			case x.val == n && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(x.val, n+"="):
				out = append(out, arg{val: x.val[len(n)+1:], known: true})
			case len(n) == 2 && strings.HasPrefix(x.val, n) && len(x.val) > 2 && !strings.HasPrefix(x.val, "--"):
				out = append(out, arg{val: x.val[2:], known: true})
			}
		}
	}
	return out
}

// entry returns x such that resolving it reaches the directory entry x names, not what a final
// symbolic link points to: rm, rmdir, unlink and mv act on the link itself (unless the name ends
// with a slash).
func (a *analyzer) entry(x arg, cwd string) arg {
	if !x.known || x.val == "" || strings.HasSuffix(x.val, "/") || (cwd == "" && !isAbsLike(x.val)) {
		return x
	}
	base := filepath.Base(x.val)
	if base == "." || base == ".." || base == "/" {
		return x
	}
	dir, err := a.p.resolve(cwd, filepath.Dir(x.val))
	if err != nil {
		return x
	}
	return arg{val: filepath.Join(dir, base), known: true, resolved: true}
}
