package v2

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/internal/confine"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// WithoutOSConfinement starts a session guarded by WithPolicy without confining the CLI with the
// kernel: its policy hooks still decide every tool call, but what they cannot see (a program or
// script run by Bash, a hook, an MCP server) writes wherever the CLI's user may. Default: a session
// with a Confined or Strict policy is confined (see docs/CONFINEMENT.md), and CreateSession fails
// with a *ConfinementError where it cannot be.
func WithoutOSConfinement() Option {
	return setOption("WithoutOSConfinement", func(o *config) { o.noConfinement = true })
}

// ErrConfinementUnavailable is matched (errors.Is) by a *ConfinementError.
var ErrConfinementUnavailable = errors.New("v2: OS confinement is unavailable")

// ConfinementError says why CreateSession could not confine the CLI of a session with a Confined
// or Strict policy: no Landlock in this kernel (or too old), a system other than Linux, no
// bubblewrap for a session with WithSandbox (see docs/CONFINEMENT.md), WithWrapper, or the private
// directory. It matches
// ErrConfinementUnavailable and wraps its reason.
type ConfinementError struct {
	// Reason is why.
	Reason error
}

func (e *ConfinementError) Error() string {
	return fmt.Sprintf("v2: WithPolicy confines the CLI with the kernel (Landlock), which cannot be done here: %v; "+
		"fix that, or pass WithoutOSConfinement() to run the session unconfined (its policy hooks still apply)", e.Reason)
}

// Unwrap returns ErrConfinementUnavailable and the reason.
func (e *ConfinementError) Unwrap() []error { return []error{ErrConfinementUnavailable, e.Reason} }

// confiningPolicies returns the Confined and Strict policies of WithPolicy, unless
// WithoutOSConfinement (an Audit policy blocks nothing: it confines nothing either).
func (o *config) confiningPolicies() []*policy.Policy {
	if o.noConfinement {
		return nil
	}
	var out []*policy.Policy
	for _, p := range o.policies {
		if p.Mode() != policy.ModeAudit {
			out = append(out, p)
		}
	}
	return out
}

// confineCLI prepares the confinement of the CLI for a session with a confining policy: the
// private directory, the environment that points the CLI at it and the Landlock ruleset that tc's
// start applies. Session.Close removes the directory.
func (s *Session) confineCLI(tc *subprocess.Config) error {
	pols := s.o.confiningPolicies()
	if len(pols) == 0 {
		return nil
	}
	fail := func(err error) error { return &ConfinementError{Reason: err} }
	if len(s.o.wrapper) > 0 {
		return fail(errors.New("WithWrapper: the wrapper, not the CLI, would be confined"))
	}
	if s.o.spawner != nil {
		return fail(errSpawnerConfinement)
	}
	spec := confineSpec(pols, s.cwd, s.o.baseEnv, s.o.env)
	plan, err := confine.Prepare(spec)
	if err != nil {
		return fail(err)
	}
	s.confinement = plan
	if s.o.sandbox != nil {
		// The CLI's sandbox runs bubblewrap, which may not mount inside a Landlock domain: the
		// CLI runs inside an outer bubblewrap instead, where the inner one works.
		if tc.Wrapper, err = plan.Bubblewrap(); err != nil {
			return fail(err)
		}
	} else {
		tc.Confine = plan.Apply
	}
	tc.Env = slices.DeleteFunc(tc.Env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == "TMPDIR" || k == "TMP" || k == "TEMP" || k == "CLAUDE_CONFIG_DIR"
	})
	tc.Env = append(tc.Env, plan.Env()...)
	return nil
}

// releaseConfinement removes the private directory of a confined CLI, once it has exited.
func (s *Session) releaseConfinement() {
	if s.confinement != nil {
		if err := s.confinement.Close(); err != nil {
			s.logger.Warn("v2: removing the confined CLI's private directory", "error", err)
		}
	}
}

// confineSpec returns what a CLI guarded by pols may do: write below the write roots every policy
// shares, read anything no policy denies, keep its state in the config directory its environment
// names (base, then env, as the CLI will see them).
func confineSpec(pols []*policy.Policy, cwd string, base, env []string) confine.Spec {
	var spec confine.Spec
	for i, p := range pols {
		sb := p.Sandbox()
		if i == 0 {
			spec.WriteDirs = sb.AllowWrite
		} else {
			spec.WriteDirs = intersectRoots(spec.WriteDirs, sb.AllowWrite)
		}
		spec.DenyRead = append(spec.DenyRead, sb.DenyRead...)
		spec.Protected = append(spec.Protected, sb.DenyWrite...)
	}
	lookup := cliEnvLookup(base, env)
	if d := lookup("CLAUDE_CONFIG_DIR"); d != "" {
		spec.ConfigDir, spec.GlobalConfig = d, filepath.Join(d, ".claude.json")
	} else if home := lookup("HOME"); home != "" {
		spec.ConfigDir, spec.GlobalConfig = filepath.Join(home, ".claude"), filepath.Join(home, ".claude.json")
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	spec.ProjectKey = sessions.ProjectKey(cwd)
	return spec
}

// intersectRoots returns the directories below a root of a and a root of b (the deeper of each
// nested pair).
func intersectRoots(a, b []string) []string {
	var out []string
	under := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) }
	for _, x := range a {
		for _, y := range b {
			switch {
			case under(x, y):
				out = append(out, x)
			case under(y, x):
				out = append(out, y)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
