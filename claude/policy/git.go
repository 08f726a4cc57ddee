package policy

import (
	"slices"
	"strings"
)

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

// gitExecFlags are the flags that make git run a program the policy does not see, each with
// the one subcommand it does that in ("" for any).
var gitExecFlags = map[string]string{"--exec": "", "--extcmd": "", "-x": "rebase", "-u": "clone", "-c": "clone", "--config": "clone",
	"-O": "grep", "--open-files-in-pager": "grep", "--ext-diff": "", "--textconv": "", "--tool": "", "-t": "mergetool", "--config-env": ""}

// gitExecPrefixes are the prefixes of the flags that make any subcommand run a program.
var gitExecPrefixes = []string{"--exec=", "--upload-pack", "--receive-pack", "--template", "--open-files-in-pager", "-O", "--config-env", "--extcmd", "--tool="}

// gitValueFlags are git's global flags whose value may be the next argument.
var gitValueFlags = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}

// gitCall is a git subcommand with its arguments, run in dir.
type gitCall struct {
	sub  string
	args []arg
	dir  string
	st   state
}

// gitSubcommands are the subcommands that write outside the repository's own state or can run
// programs; any other must be in gitReadOnly.
var gitSubcommands = map[string]func(a *analyzer, g gitCall){
	"clone": (*analyzer).gitClone, "init": (*analyzer).gitInit, "worktree": (*analyzer).gitWorktree,
	"archive": (*analyzer).gitOutput, "format-patch": (*analyzer).gitOutput, "bundle": (*analyzer).gitOutput,
	"diff": (*analyzer).gitOutput, "log": (*analyzer).gitOutput, "show": (*analyzer).gitOutput,
	"config": (*analyzer).gitConfig, "submodule": (*analyzer).gitSubmodule, "bisect": (*analyzer).gitBisect,
}

// git: -C, --git-dir and --work-tree move where it works; clone, init, worktree add, archive -o
// write new places; -c, config, rebase --exec and submodule foreach can make it run programs.
func (a *analyzer) git(c invocation) {
	dir, i := a.gitGlobals(c.args, c.cwd)
	if i >= len(c.args) || a.stop() {
		return
	}
	g := gitCall{sub: c.args[i].val, args: c.args[i+1:], dir: dir, st: c.st}
	for _, x := range g.args {
		if gitRunsProgram(g.sub, x) {
			a.deny(deny(RuleNestedCode, "git %s %s makes git run a program the policy does not see; run the steps directly", g.sub, x.val))
			return
		}
	}
	if why := gitOptions(g.args); why != "" {
		c.base = "git " + g.sub
		a.refuseOption(c, why)
		return
	}
	if h := gitSubcommands[g.sub]; h != nil {
		h(a, g)
	} else if !gitReadOnly[g.sub] {
		a.deny(deny(RuleNotListed, "git %s is not a subcommand the policy knows; use a common one (status, diff, add, commit, ...)", g.sub))
	}
}

// gitRunsProgram reports whether x, an argument of git's subcommand sub, makes git run a program.
func gitRunsProgram(sub string, x arg) bool {
	if !x.known {
		return false
	}
	if only, ok := gitExecFlags[x.val]; ok && (only == "" || only == sub) {
		return true
	}
	return slices.ContainsFunc(gitExecPrefixes, func(p string) bool { return strings.HasPrefix(x.val, p) })
}

// gitGlobals checks git's flags before the subcommand, and returns the directory git works in
// and the subcommand's index. It denies (a.stop) what it cannot follow.
func (a *analyzer) gitGlobals(rest []arg, cwd string) (dir string, i int) {
	dir = cwd
	for ; i < len(rest) && !a.stop(); i++ {
		x := rest[i]
		if !x.known {
			a.deny(deny(RuleUnresolvable, "git %s is known only when the command runs; name it literally", x.val))
			return dir, i
		}
		if !strings.HasPrefix(x.val, "-") {
			break
		}
		name, val, hasVal := strings.Cut(x.val, "=")
		if strings.HasPrefix(x.val, "-C") && len(x.val) > 2 {
			name, val, hasVal = "-C", x.val[2:], true // -C.. (attached)
		}
		if !hasVal && slices.Contains(gitValueFlags, name) && i+1 < len(rest) {
			i++
			val = rest[i].val
			if !rest[i].known {
				a.deny(deny(RuleUnresolvable, "git %s %s is known only when the command runs", name, rest[i].val))
				return dir, i
			}
		}
		dir = a.gitGlobal(name, val, hasVal, dir)
	}
	return dir, i
}

// gitGlobal checks one of git's global flags, name with its value val, and returns the directory
// git works in after it.
func (a *analyzer) gitGlobal(name, val string, hasVal bool, dir string) string {
	switch name {
	case "-C":
		if dir == "" && !isAbsLike(val) {
			a.deny(deny(RuleUnresolvable, "git -C %s after a change of directory the policy cannot follow", val))
			return dir
		}
		real, err := a.resolve(dir, val)
		if err != nil {
			a.deny(deny(RuleUnresolvable, "git -C %s: %v", val, err))
			return dir
		}
		a.writePath(arg{val: real, known: true}, "", "git -C")
		return real
	case "-c":
		key := strings.ToLower(strings.SplitN(val, "=", 2)[0])
		if !slices.ContainsFunc(gitSafeConfig, func(p string) bool { return strings.HasPrefix(key, p) }) {
			a.deny(deny(RuleNestedCode, "git -c %s can make git run a program (aliases, hooks, helpers, pagers); run git without it", key))
		}
	case "--git-dir", "--work-tree":
		a.writePath(arg{val: val, known: true}, dir, "git "+name)
	case "--config-env":
		a.deny(deny(RuleNestedCode, "git --config-env sets configuration from the environment, which can make git run a program (core.fsmonitor, core.pager); run git without it"))
	case "--exec-path":
		if hasVal {
			a.deny(deny(RuleNestedCode, "git --exec-path= runs git's programs from another directory"))
		}
	case "--namespace", "--no-pager", "-p", "--paginate", "-P", "--bare", "--no-replace-objects", "--literal-pathspecs",
		"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--html-path", "--man-path",
		"--info-path", "--version", "--help":
	default:
		if !a.p.kernel {
			a.deny(deny(RuleUnknownOption, "git %s is not an option the policy models (--config-env and others make git run programs); drop it", name))
		}
	}
	return dir
}

func (a *analyzer) gitClone(g gitCall) {
	p := parseFlags(g.args, "bocj", []string{"--branch", "--origin", "--depth", "--reference", "--separate-git-dir", "--jobs", "--filter", "--shallow-since"}, false)
	for _, x := range p.values("--separate-git-dir", "--reference") {
		a.writePath(x, g.dir, "git clone")
	}
	if len(p.ops) >= 2 {
		a.writePath(p.ops[1], g.dir, "git clone")
	} else if g.dir == "" {
		a.deny(deny(RuleUnresolvable, "git clone into a directory the policy cannot follow; give the destination as an absolute path"))
	}
}

func (a *analyzer) gitInit(g gitCall) {
	p := parseFlags(g.args, "b", []string{"--template", "--separate-git-dir", "--initial-branch"}, false)
	for _, x := range append(p.ops, p.values("--separate-git-dir")...) {
		a.writePath(x, g.dir, "git init")
	}
}

func (a *analyzer) gitWorktree(g gitCall) {
	if len(g.args) > 1 && g.args[0].val == "add" {
		p := parseFlags(g.args[1:], "bB", nil, false)
		if len(p.ops) > 0 {
			a.writePath(p.ops[0], g.dir, "git worktree add")
		}
	}
}

// gitOutput handles the subcommands that write files with -o (archive, format-patch, diff, ...)
// and bundle create.
func (a *analyzer) gitOutput(g gitCall) {
	p := parseFlags(g.args, "o", []string{"--output", "--output-directory"}, false)
	for _, x := range p.values("-o", "--output", "--output-directory") {
		a.writePath(x, g.dir, "git "+g.sub)
	}
	if g.sub == "bundle" && len(p.ops) > 1 && p.ops[0].val == "create" {
		a.writePath(p.ops[1], g.dir, "git bundle create")
	}
}

// gitConfig lets git config read, never write: a key can make git run programs.
func (a *analyzer) gitConfig(g gitCall) {
	p := parseFlags(g.args, "f", []string{"--file", "--type", "--default"}, false)
	reading := p.has("--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--get-urlmatch") ||
		(len(p.ops) == 1 && !p.has("--unset", "--unset-all", "--add", "--edit", "-e", "--replace-all", "--remove-section", "--rename-section")) ||
		(len(p.ops) > 0 && (p.ops[0].val == "get" || p.ops[0].val == "list"))
	if !reading {
		a.deny(deny(RuleProtected, "git config changes git's configuration, which can make git run programs (aliases, hooks); ask the user to change it"))
	}
}

func (a *analyzer) gitSubmodule(g gitCall) {
	if len(g.args) > 0 && g.args[0].val == "foreach" {
		a.deny(deny(RuleNestedCode, "git submodule foreach runs a command in each submodule; run the commands directly"))
	}
}

// gitBisect analyses the command git bisect run runs.
func (a *analyzer) gitBisect(g gitCall) {
	if len(g.args) > 0 && g.args[0].val == "run" {
		a.run(g.args[1:], g.dir, g.st, false, nil)
	}
}

// gitLong are the long options of git's subcommands the policy knows: none runs a program (those
// that do are gitExecFlags). gitShort are the short ones, gitShortValue those that take a value.
var gitLong = setOf("--all", "--amend", "--no-edit", "--message", "--file", "--author", "--date", "--signoff", "--no-verify",
	"--allow-empty", "--allow-empty-message", "--quiet", "--verbose", "--dry-run", "--force", "--cached", "--staged", "--stat",
	"--shortstat", "--numstat", "--name-only", "--name-status", "--patch", "--no-patch", "--oneline", "--graph", "--decorate",
	"--format", "--pretty", "--abbrev-commit", "--since", "--until", "--after", "--before", "--max-count", "--skip", "--reverse",
	"--follow", "--no-merges", "--merges", "--first-parent", "--grep", "--invert-grep", "--word-diff", "--color", "--no-color",
	"--unified", "--ignore-space-change", "--ignore-all-space", "--diff-filter", "--find-renames", "--find-copies", "--short",
	"--branch", "--porcelain", "--long", "--untracked-files", "--ignored", "--ignore-submodules", "--rebase", "--no-rebase",
	"--ff-only", "--no-ff", "--ff", "--squash", "--no-commit", "--commit", "--abort", "--continue", "--skip", "--quit",
	"--onto", "--interactive", "--autosquash", "--autostash", "--no-autostash", "--set-upstream", "--set-upstream-to", "--track",
	"--no-track", "--tags", "--no-tags", "--prune", "--depth", "--shallow-since", "--single-branch", "--recurse-submodules",
	"--remote", "--remotes", "--list", "--delete", "--move", "--copy", "--merged", "--no-merged", "--contains", "--points-at",
	"--sort", "--annotate", "--sign", "--local-user", "--hard", "--soft", "--mixed", "--keep", "--merge", "--source", "--worktree",
	"--theirs", "--ours", "--orphan", "--detach", "--create", "--force-create", "--guess", "--discard-changes", "--include-untracked",
	"--keep-index", "--index", "--pathspec-from-file", "--intent-to-add", "--update", "--renormalize", "--chmod", "--ignore-errors",
	"--ignore-missing", "--recursive", "--others", "--exclude-standard", "--exclude", "--modified", "--deleted", "--stage",
	"--full-name", "--abbrev", "--verify", "--show-toplevel", "--git-dir", "--is-inside-work-tree", "--abbrev-ref", "--symbolic-full-name",
	"--show-prefix", "--show-cdup", "--count", "--left-right", "--line-number", "--ignore-case", "--word-regexp", "--extended-regexp",
	"--fixed-strings", "--perl-regexp", "--files-with-matches", "--heading", "--break", "--function-context", "--show-function",
	"--no-index", "--untracked", "--summary", "--raw", "--full-index", "--binary", "--check", "--exit-code", "--relative",
	"--minimal", "--patience", "--histogram", "--diff-algorithm", "--no-renames", "--output", "--output-directory", "--cover-letter",
	"--numbered", "--root", "--always", "--match", "--dirty", "--first-parent", "--mainline", "--edit", "--no-stat", "--log",
	"--strategy", "--strategy-option", "--allow-unrelated-histories", "--progress", "--no-progress",
	"--filter", "--sparse", "--no-checkout", "--bare", "--origin", "--jobs", "--init", "--cleanup", "--fixup", "--reuse-message",
	"--reedit-message", "--trailer", "--include", "--only", "--status", "--no-status", "--prefix", "--pathspec-file-nul",
	"--name", "--no-walk", "--do-walk", "--topo-order", "--date-order", "--author-date-order", "--committer", "--all-match",
	"--line-porcelain", "--show-email", "--show-stats", "--dirstat", "--compact-summary", "--cc", "--combined-all-paths",
	"--no-abbrev", "--mirror", "--push", "--set-url", "--get-url", "--expire", "--unreachable", "--no-reflogs", "--aggressive",
	"--auto", "--keep-largest-pack", "--get", "--get-all", "--get-regexp", "--show-origin", "--show-scope", "--type", "--null",
	"--default", "--global", "--system", "--local", "--name-only", "--no-optional-locks", "--ignore-unmatch", "--sparse",
	"--no-sparse", "--cone", "--no-cone", "--reapply-cherry-picks", "--empty", "--keep-empty", "--rerere-autoupdate",
	"--no-rerere-autoupdate", "--signoff", "--no-signoff", "--gpg-sign", "--no-gpg-sign", "--no-verify", "--verify", "--atomic",
	"--no-atomic", "--follow-tags", "--push-option", "--ipv4", "--ipv6", "--unshallow", "--update-shallow", "--deepen",
	"--refetch", "--write-fetch-head", "--no-write-fetch-head", "--append", "--refmap", "--negotiation-tip", "--dirstat-by-file",
	"--text", "--ignore-blank-lines", "--ignore-cr-at-eol", "--ignore-space-at-eol", "--inter-hunk-context", "--function-context",
	"--src-prefix", "--dst-prefix", "--no-prefix", "--default-prefix", "--line-prefix", "--ita-invisible-in-index", "--show-signature",
	"--mailmap", "--use-mailmap", "--no-mailmap", "--encoding", "--notes", "--no-notes", "--expand-tabs", "--no-expand-tabs",
	"--stdin", "--batch", "--batch-check", "--batch-all-objects", "--exists", "--heads",
	"--refs", "--dereference", "--hash", "--symref", "--exit-code", "--sq", "--short", "--no-show-forced-updates")

var gitShort = "aAbBCcdDefFgGhiIjklLmMnNopPqrRsStTuUvwWxXz0123456789"

var gitShortValue = "mFnCbBSjuUe"

// gitOptions checks the options of a git subcommand against gitLong and gitShort, and returns why
// one is refused ("" when none is). An argument known only at run time is refused unless it is the
// value of an option before it or follows "--" (it could be an option).
func gitOptions(args []arg) string {
	valueNext := false
	for _, x := range args {
		switch {
		case valueNext:
			valueNext = false
		case !x.known:
			return "the argument " + x.val + ", known only when the command runs, may be an option of git; name it literally or put it after --"
		case x.val == "--":
			return ""
		case strings.HasPrefix(x.val, "--"):
			name, _, _ := strings.Cut(x.val, "=")
			if !gitLong[name] && !strings.HasPrefix(name, "--no-") {
				return "the option " + name + " is not one the policy models"
			}
		case strings.HasPrefix(x.val, "-") && len(x.val) > 1:
			for i, ch := range x.val[1:] {
				if !strings.ContainsRune(gitShort, ch) {
					return "the option " + x.val + " is not one the policy models"
				}
				if strings.ContainsRune(gitShortValue, ch) {
					valueNext = i == len(x.val)-2
					break
				}
			}
		}
	}
	return ""
}
