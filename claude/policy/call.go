package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// pathVars are variables whose value lists directories to search, not a file to write.
var pathVars = map[string]bool{"PATH": true, "MANPATH": true, "PYTHONPATH": true, "NODE_PATH": true, "LD_LIBRARY_PATH": true, "CLASSPATH": true}

// call analyses a simple command in each directory the shell may be in.
func (a *analyzer) call(c *syntax.CallExpr, st state, piped bool, s *syntax.Stmt) state {
	a.seen[c] = true
	a.substs(c, st)
	if len(c.Args) == 0 || a.stop() {
		return st
	}
	var out *state
	for _, cwd := range a.cwds(st) {
		one := st
		if cwd != "" {
			one = state{cwds: []string{cwd}}
		}
		for _, as := range c.Assigns {
			if as.Name == nil || as.Value == nil || pathVars[as.Name.Value] {
				continue
			}
			if v, ok := a.literal(as.Value, cwd); ok && looksLikePath(v) {
				a.writePath(arg{val: v, known: true}, cwd, "the variable "+as.Name.Value+" (a program may write where it points)")
			}
		}
		args, d := a.fields(c.Args, cwd)
		if d != nil {
			a.deny(*d)
			return st
		}
		after := a.run(args, cwd, one, piped, s)
		if out == nil {
			out = &after
		} else {
			u := union(*out, after)
			out = &u
		}
		if a.stop() {
			break
		}
	}
	return *out
}

// xargs runs its command with arguments read from stdin: unknown ones.
func (a *analyzer) xargs(rest []arg, cwd string, st state, s *syntax.Stmt) state {
	p := parseFlags(rest, "adEILnPsei", []string{"--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, true)
	for _, f := range p.values("-a", "--arg-file") {
		a.readPath(f, cwd, "xargs -a")
	}
	cmd := p.ops
	if len(cmd) == 0 {
		cmd = []arg{{val: "echo", known: true}}
	}
	stdin := arg{val: "(an argument xargs reads from stdin)"}
	repl := ""
	if r := p.values("-I", "--replace", "-i"); len(r) > 0 {
		repl = r[0].val
		if repl == "" {
			repl = "{}"
		}
	}
	var out []arg
	for _, x := range cmd {
		if repl != "" && x.known && strings.Contains(x.val, repl) {
			out = append(out, stdin)
			continue
		}
		out = append(out, x)
	}
	if repl == "" {
		out = append(out, stdin)
	}
	a.run(out, cwd, st, false, nil)
	return st
}

// find: -delete and -exec's commands act on the files below its starting points.
func (a *analyzer) find(rest []arg, cwd string, st state, s *syntax.Stmt) {
	var roots []arg
	i := 0
	for ; i < len(rest); i++ {
		x := rest[i]
		if x.known && (strings.HasPrefix(x.val, "-") || x.val == "(" || x.val == "!" || x.val == "\\(") {
			if x.val == "-H" || x.val == "-L" || x.val == "-P" {
				continue
			}
			break
		}
		roots = append(roots, x)
	}
	if len(roots) == 0 {
		roots = []arg{{val: ".", known: true}}
	}
	filtered := false
	for j := i; j < len(rest) && !a.stop(); j++ {
		x := rest[j]
		switch x.val {
		case "-delete":
			for _, r := range roots {
				a.writePath(r, cwd, "find -delete")
				if !filtered {
					a.recursive(r, cwd, "find -delete")
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(rest) && rest[k].val != ";" && rest[k].val != "+" {
				k++
			}
			cmd := rest[j+1 : k]
			for _, r := range roots {
				var sub []arg
				for _, c := range cmd {
					if c.known && strings.Contains(c.val, "{}") {
						if !r.known {
							sub = append(sub, arg{val: c.val})
							continue
						}
						sub = append(sub, arg{val: strings.ReplaceAll(c.val, "{}", r.val), known: true})
						continue
					}
					sub = append(sub, c)
				}
				a.run(sub, cwd, st, false, nil)
			}
			j = k
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(rest) {
				a.writePath(rest[j+1], cwd, "find "+x.val)
			}
			j++
		case "-depth", "-print", "-print0", "-xdev", "-mount":
		default:
			filtered = true
		}
	}
	for _, r := range roots {
		a.readPath(r, cwd, "find")
	}
}

// gitReadOnly are git subcommands that write nothing but, at most, the repository's own state.
var gitReadOnly = map[string]bool{"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"ls-tree": true, "blame": true, "grep": true, "describe": true, "cat-file": true, "shortlog": true, "version": true,
	"help": true, "branch": true, "remote": true, "tag": true, "reflog": true, "stash": true, "add": true, "commit": true,
	"checkout": true, "switch": true, "restore": true, "reset": true, "merge": true, "rebase": true, "fetch": true,
	"pull": true, "push": true, "cherry-pick": true, "revert": true, "mv": true, "rm": true, "clean": true, "am": true,
	"apply": true, "bisect": true, "show-ref": true, "for-each-ref": true, "merge-base": true, "rev-list": true, "notes": true,
	"gc": true, "fsck": true, "count-objects": true, "submodule": true, "lfs": true, "sparse-checkout": true}

// gitSafeConfig are the keys git -c may set: none of them makes git run a program.
var gitSafeConfig = []string{"user.", "color.", "advice.", "init.defaultbranch", "core.quotepath", "log.", "diff.noprefix", "pager.", "column.", "safe.directory", "commit.gpgsign", "tag.gpgsign"}

// git: -C, --git-dir and --work-tree move where it works; clone, init, worktree add, archive -o
// write new places; -c, config, rebase --exec and submodule foreach can make it run programs.
func (a *analyzer) git(rest []arg, cwd string, st state, s *syntax.Stmt) {
	deny := func(rule, f string, x ...any) { a.deny(deny(rule, f, x...)) }
	i := 0
	dir := cwd
	for ; i < len(rest) && !a.stop(); i++ {
		x := rest[i]
		if !x.known {
			deny(RuleUnresolvable, "git %s is known only when the command runs; name it literally", x.val)
			return
		}
		if !strings.HasPrefix(x.val, "-") {
			break
		}
		name, val, hasVal := strings.Cut(x.val, "=")
		if !hasVal && (name == "-C" || name == "-c" || name == "--git-dir" || name == "--work-tree" || name == "--namespace" || name == "--exec-path" && false) && i+1 < len(rest) {
			i++
			val = rest[i].val
			if !rest[i].known {
				deny(RuleUnresolvable, "git %s %s is known only when the command runs", name, rest[i].val)
				return
			}
		}
		switch name {
		case "-C":
			if dir == "" && !isAbsLike(val) {
				deny(RuleUnresolvable, "git -C %s after a change of directory the policy cannot follow", val)
				return
			}
			real, err := a.p.resolve(dir, val)
			if err != nil {
				deny(RuleUnresolvable, "git -C %s: %v", val, err)
				return
			}
			dir = real
			a.writePath(arg{val: real, known: true}, "", "git -C")
		case "-c":
			key := strings.ToLower(strings.SplitN(val, "=", 2)[0])
			ok := false
			for _, p := range gitSafeConfig {
				if strings.HasPrefix(key, p) || key == p {
					ok = true
				}
			}
			if !ok {
				deny(RuleNestedCode, "git -c %s can make git run a program (aliases, hooks, helpers, pagers); run git without it", key)
				return
			}
		case "--git-dir", "--work-tree":
			a.writePath(arg{val: val, known: true}, dir, "git "+name)
		case "--exec-path":
			if hasVal {
				deny(RuleNestedCode, "git --exec-path= runs git's programs from another directory")
				return
			}
		}
	}
	if i >= len(rest) || a.stop() {
		return
	}
	sub, args := rest[i].val, rest[i+1:]
	for _, x := range args {
		if x.known && (x.val == "--exec" || x.val == "-x" && sub == "rebase" || x.val == "--extcmd" || strings.HasPrefix(x.val, "--exec=") ||
			strings.HasPrefix(x.val, "--upload-pack") || strings.HasPrefix(x.val, "--receive-pack") || x.val == "-u" && sub == "clone" ||
			strings.HasPrefix(x.val, "--template") || (x.val == "-c" || x.val == "--config") && sub == "clone") {
			deny(RuleNestedCode, "git %s %s makes git run a program the policy does not see; run the steps directly", sub, x.val)
			return
		}
	}
	switch sub {
	case "clone":
		p := parseFlags(args, "bocj", []string{"--branch", "--origin", "--depth", "--reference", "--separate-git-dir", "--jobs", "--filter", "--shallow-since"}, false)
		for _, x := range p.values("--separate-git-dir", "--reference") {
			a.writePath(x, dir, "git clone")
		}
		if len(p.ops) >= 2 {
			a.writePath(p.ops[1], dir, "git clone")
		} else if dir == "" {
			deny(RuleUnresolvable, "git clone into a directory the policy cannot follow; give the destination as an absolute path")
		}
	case "init":
		p := parseFlags(args, "b", []string{"--template", "--separate-git-dir", "--initial-branch"}, false)
		for _, x := range append(p.ops, p.values("--separate-git-dir")...) {
			a.writePath(x, dir, "git init")
		}
	case "worktree":
		if len(args) > 1 && args[0].val == "add" {
			p := parseFlags(args[1:], "bB", nil, false)
			if len(p.ops) > 0 {
				a.writePath(p.ops[0], dir, "git worktree add")
			}
		}
	case "archive", "format-patch", "bundle", "diff", "log", "show":
		p := parseFlags(args, "o", []string{"--output", "--output-directory"}, false)
		for _, x := range p.values("-o", "--output", "--output-directory") {
			a.writePath(x, dir, "git "+sub)
		}
		if sub == "bundle" && len(p.ops) > 1 && p.ops[0].val == "create" {
			a.writePath(p.ops[1], dir, "git bundle create")
		}
	case "config":
		p := parseFlags(args, "f", []string{"--file", "--type", "--default"}, false)
		reading := p.has("--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--get-urlmatch") || (len(p.ops) == 1 && !p.has("--unset", "--unset-all", "--add", "--edit", "-e", "--replace-all", "--remove-section", "--rename-section"))
		if len(p.ops) > 0 && (p.ops[0].val == "get" || p.ops[0].val == "list") {
			reading = true
		}
		if !reading {
			deny(RuleProtected, "git config changes git's configuration, which can make git run programs (aliases, hooks); ask the user to change it")
		}
	case "submodule":
		if len(args) > 0 && args[0].val == "foreach" {
			deny(RuleNestedCode, "git submodule foreach runs a command in each submodule; run the commands directly")
		}
	case "bisect":
		if len(args) > 0 && args[0].val == "run" {
			a.run(args[1:], dir, st, false, nil)
		}
	default:
		if !gitReadOnly[sub] {
			deny(RuleNotListed, "git %s is not a subcommand the policy knows; use a common one (status, diff, add, commit, ...)", sub)
		}
	}
}
