package policy

import (
	"path"
	"slices"
	"strings"
)

// Rule is a dangerous-command rule: a command it matches is denied in every mode but Audit,
// wherever it appears (after &&, inside $(...), sh -c, xargs, find -exec, ...). Extend
// DefaultRules with WithRules.
type Rule struct {
	// Name identifies the rule in a Decision (e.g. "git-push-force").
	Name string
	// Reason tells the model why the command is refused and what to do instead.
	Reason string
	// Programs are glob patterns (path.Match) of the program's base name; one must match.
	Programs []string
	// Args are glob patterns each of which must match some argument after the program. Default:
	// none, any arguments.
	Args []string
	// AnyArg are glob patterns at least one of which must match an argument. Default: none.
	AnyArg []string
	// Piped limits the rule to a program that reads a pipe (any but the first of a pipeline).
	Piped bool
}

// DefaultRules are the dangerous-command rules every policy starts with.
var DefaultRules = []Rule{
	{Name: "git-push-force", Programs: []string{"git"}, Args: []string{"push"},
		AnyArg: []string{"--force", "--force-with-lease*", "-f", "+*", "--mirror", "--delete", "-d", "--prune"},
		Reason: "git push --force (or --mirror, --delete, +ref) rewrites or deletes remote history; push without it, or ask the user"},
	{Name: "pipe-to-shell", Piped: true,
		Programs: []string{"sh", "bash", "zsh", "dash", "ksh", "fish", "python*", "node", "perl", "ruby", "php", "deno", "bun"},
		Reason:   "a pipe into a shell or interpreter runs code the policy cannot read (curl ... | sh); download to a file in the project, read it, then run it"},
	{Name: "privilege", Programs: []string{"sudo", "su", "doas", "pkexec", "runuser"},
		Reason: "commands run as the agent's own user; do without sudo, or ask the user"},
	{Name: "system-power", Programs: []string{"shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl"},
		Reason: "the agent does not control the machine's services or power; ask the user"},
	{Name: "filesystem-admin", Programs: []string{"mkfs*", "mount", "umount", "fdisk", "parted", "wipefs", "mkswap", "swapon", "losetup"},
		Reason: "file systems and devices are not the agent's to change"},
	{Name: "shell-alias", Programs: []string{"alias", "hash", "enable"}, AnyArg: []string{"*=*", "-p", "-f"},
		Reason: "aliases, hashed program paths and loadable builtins change what a later name runs, which the policy cannot follow; call programs directly"},
}

// match reports whether r matches the program prog with args.
func (r *Rule) match(prog string, args []string, piped bool) bool {
	if r.Piped && !piped {
		return false
	}
	if !slices.ContainsFunc(r.Programs, func(p string) bool { m, _ := path.Match(p, prog); return m }) {
		return false
	}
	has := func(pat string) bool {
		return slices.ContainsFunc(args, func(a string) bool {
			m, _ := path.Match(strings.ReplaceAll(pat, "/", "\x00"), strings.ReplaceAll(a, "/", "\x00"))
			return m || pat == a || (strings.HasPrefix(pat, "-") && len(pat) == 2 && isShortCluster(a, pat[1]))
		})
	}
	for _, a := range r.Args {
		if !has(a) {
			return false
		}
	}
	return len(r.AnyArg) == 0 || slices.ContainsFunc(r.AnyArg, has)
}

// isShortCluster reports whether a is a cluster of short flags ("-xfv") holding c.
func isShortCluster(a string, c byte) bool {
	return len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0 && !strings.ContainsAny(a, "=/")
}
