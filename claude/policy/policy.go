package policy

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Mode says what a Policy does with Bash commands and with its denials.
type Mode int

const (
	// ModeConfined (the default) runs any command whose every named path is allowed; anything the
	// analysis cannot see through is denied.
	ModeConfined Mode = iota
	// ModeStrict also denies every command whose program is not in the policy's Commands list.
	ModeStrict
	// ModeAudit decides as ModeConfined, reports each decision (WithDecisionLog) and never blocks:
	// its hooks give no opinion, so the CLI's permission rules apply.
	ModeAudit
)

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeStrict:
		return "strict"
	case ModeAudit:
		return "audit"
	}
	return "confined"
}

// Policy is a declared policy. Build it with Confined, Strict or Audit; it is immutable and safe
// for concurrent use.
type Policy struct {
	mode       Mode
	writeRoots []string // as given (absolute, cleaned)
	readRoots  []string
	protected  []string
	denyRead   []string
	commands   []string
	rules      []Rule
	mcpPaths   map[string][]string
	domains    []string
	log        func(context.Context, Event)
	home       string
	fold       bool
	kernel     bool  // WithKernelConfinement: what the analysis does not model runs, bounded by the kernel
	err        error // a policy that cannot judge (a root that cannot be resolved) denies everything

	// Resolved forms, computed once.
	realWrite, realRead []string
	absPatterns         map[string]string
}

// Option configures a Policy.
type Option func(*Policy)

// DefaultProtected are the paths a Policy never lets a tool write, even inside a write root,
// unless WithoutDefaultProtected: a pattern without a leading / or ~ matches any run of path
// components (".git" protects every .git directory and what is in it); glob characters match
// within one component.
var DefaultProtected = []string{".git", ".env*", ".claude/settings*.json", "~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gh", "~/.netrc", "~/.bashrc", "~/.profile", "~/.zshrc"}

// DefaultDenyRead are the paths a Policy never lets a tool read: credentials.
var DefaultDenyRead = []string{"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gh", "~/.netrc", "~/.docker/config.json", "~/.kube/config"}

// WithWriteRoots adds directories the agent may write below (the policy's root is the first).
func WithWriteRoots(dirs ...string) Option {
	return func(p *Policy) { p.writeRoots = append(p.writeRoots, dirs...) }
}

// WithReadRoots limits reads (Read, Glob, Grep, LS and the path arguments of read-only shell
// commands) to these directories and the write roots. Default: reads anywhere but DefaultDenyRead.
func WithReadRoots(dirs ...string) Option {
	return func(p *Policy) { p.readRoots = append(p.readRoots, dirs...) }
}

// WithProtected adds patterns (as in DefaultProtected) of paths never written.
func WithProtected(patterns ...string) Option {
	return func(p *Policy) { p.protected = append(p.protected, patterns...) }
}

// WithoutDefaultProtected drops DefaultProtected and DefaultDenyRead (WithProtected's patterns
// still apply).
func WithoutDefaultProtected() Option {
	return func(p *Policy) {
		p.protected = slices.DeleteFunc(p.protected, func(s string) bool { return slices.Contains(DefaultProtected, s) })
		p.denyRead = nil
	}
}

// WithRules adds dangerous-command rules to DefaultRules.
func WithRules(rules ...Rule) Option { return func(p *Policy) { p.rules = append(p.rules, rules...) } }

// WithoutDefaultRules drops DefaultRules (WithRules' rules still apply).
func WithoutDefaultRules() Option {
	return func(p *Policy) {
		p.rules = slices.DeleteFunc(p.rules, func(r Rule) bool {
			return slices.ContainsFunc(DefaultRules, func(d Rule) bool { return d.Name == r.Name })
		})
	}
}

// WithMCPPaths declares that the MCP tool (its full name, mcp__server__tool) writes the files named
// by these input fields: they are checked as Write's file_path. Default: MCP tools are not checked.
func WithMCPPaths(tool string, fields ...string) Option {
	return func(p *Policy) {
		if p.mcpPaths == nil {
			p.mcpPaths = map[string][]string{}
		}
		p.mcpPaths[tool] = append(p.mcpPaths[tool], fields...)
	}
}

// WithAllowedDomains lists the hosts sandboxed commands may reach (SandboxSpec). Default: none,
// the network is off.
func WithAllowedDomains(domains ...string) Option {
	return func(p *Policy) { p.domains = append(p.domains, domains...) }
}

// WithDecisionLog calls fn with every decision the hooks make (in every mode; ModeAudit's only
// output). fn runs on the hook's goroutine: keep it short. Default: none.
func WithDecisionLog(fn func(ctx context.Context, e Event)) Option {
	return func(p *Policy) { p.log = fn }
}

// WithHome sets the home directory used for ~ and $HOME. Default: os.UserHomeDir().
func WithHome(dir string) Option { return func(p *Policy) { p.home = dir } }

// Confined returns the default policy: the agent writes only below root (and WithWriteRoots), never
// a protected path, and runs any command whose every named path is allowed.
func Confined(root string, opts ...Option) *Policy { return newPolicy(ModeConfined, root, nil, opts) }

// Strict returns a Confined policy that also runs only the programs named in commands (by base
// name, e.g. "go", "git", "ls"); a shell builtin such as cd or echo needs no listing.
func Strict(root string, commands []string, opts ...Option) *Policy {
	return newPolicy(ModeStrict, root, commands, opts)
}

// Audit returns a policy that decides as Confined, reports every decision to WithDecisionLog's
// function, and never blocks.
func Audit(root string, opts ...Option) *Policy { return newPolicy(ModeAudit, root, nil, opts) }

func newPolicy(mode Mode, root string, commands []string, opts []Option) *Policy {
	p := &Policy{mode: mode, writeRoots: []string{root}, commands: commands,
		protected: slices.Clone(DefaultProtected), denyRead: slices.Clone(DefaultDenyRead),
		rules: slices.Clone(DefaultRules), fold: runtime.GOOS == "darwin" || runtime.GOOS == "windows"}
	for _, o := range opts {
		o(p)
	}
	if p.home == "" {
		p.home, _ = os.UserHomeDir()
	}
	p.absPatterns = map[string]string{}
	for _, pat := range append(slices.Clone(p.protected), p.denyRead...) {
		if strings.HasPrefix(pat, "~") || filepath.IsAbs(pat) {
			p.absPatterns[pat] = p.absPattern(pat)
		}
	}
	p.realWrite, p.err = p.resolveRoots("root", p.writeRoots[:1])
	if p.err == nil {
		var more []string
		more, p.err = p.resolveRoots("write root", p.writeRoots[1:])
		p.realWrite = append(p.realWrite, more...)
	}
	if p.err == nil && p.readRoots != nil {
		var read []string
		read, p.err = p.resolveRoots("read root", p.readRoots)
		p.realRead = append(read, p.realWrite...)
	}
	return p
}

// resolveRoots returns the roots with their symbolic links resolved. A relative root is refused
// rather than resolved against the process's directory, which is not the session's (WithCwd): the
// program says which directory it means. field names the kind of root in the error.
func (p *Policy) resolveRoots(field string, roots []string) ([]string, error) {
	var out []string
	for _, r := range roots {
		abs := p.expandHome(r)
		switch {
		case r == "":
			return nil, &ConfigError{Field: field, Problem: "empty", Fix: "give the project's absolute path"}
		case !filepath.IsAbs(abs):
			return nil, &ConfigError{Field: field, Value: r, Problem: "relative, and the process's directory need not be the session's",
				Fix: "give an absolute path (filepath.Abs, or the directory given to v2.WithCwd)"}
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, &ConfigError{Field: field, Value: r, Problem: "cannot be resolved (" + err.Error() + ")", Fix: "create the directory before the session, or name an existing one"}
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, &ConfigError{Field: field, Value: r, Problem: "is not a directory", Fix: "name a directory"}
		}
		out = append(out, real)
	}
	return out, nil
}

// Mode returns the policy's mode.
func (p *Policy) Mode() Mode { return p.mode }

// WriteRoots returns the directories the agent may write below, symbolic links resolved.
func (p *Policy) WriteRoots() []string { return slices.Clone(p.realWrite) }

// Err returns why the policy cannot judge (a *ConfigError: a root that is relative or does not
// exist), or nil. Such a policy denies every call it guards; v2.WithPolicy refuses it (Validate).
func (p *Policy) Err() error { return p.err }
