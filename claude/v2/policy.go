package v2

import (
	"slices"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// WithPolicy guards the session with p (see package policy): its PreToolUse hook runs first in
// the chain, before the hooks of WithHooks whatever the order of the options, so a later handler
// sees only calls the policy let through and can still deny them; its PreSkillShellCommand hook
// analyses a skill's embedded shell command as Bash. A Confined or Strict policy also confines
// the CLI and everything it starts with the kernel (see WithoutOSConfinement and
// docs/CONFINEMENT.md), and then decides as p.WithKernelConfinement(). A nil p, or one that cannot
// judge (policy.Validate: a relative or missing root), fails CreateSession with an *OptionError
// wrapping the *policy.ConfigError. Given twice, both policies guard: a call runs only if each
// allows it. Default: no policy.
func WithPolicy(p *policy.Policy) Option {
	return optionFunc(func(o *config) {
		if err := policy.Validate(p); err != nil {
			if o.policyErr == nil {
				o.policyErr = err
			}
			return
		}
		o.policies = append(o.policies, p)
	})
}

// addPolicyHooks puts the hooks of WithPolicy's policies first in the chains, the last policy's
// first (as if each WithPolicy had prepended them), once every option is applied: a policy whose
// session confines the CLI decides as its WithKernelConfinement.
func (o *config) addPolicyHooks() {
	confined := o.confiningPolicies()
	for _, p := range o.policies {
		if slices.Contains(confined, p) {
			p = p.WithKernelConfinement()
		}
		if o.hooks == nil {
			o.hooks = shared.Hooks{}
		}
		for e, cfgs := range p.Hooks() {
			o.hooks[e] = append(slices.Clone(cfgs), o.hooks[e]...)
		}
	}
}

// PolicySandbox returns p as the CLI's OS sandbox settings for WithSandbox: Bash commands write
// only in p's write roots, never in its protected paths, read no credentials path, and reach
// only p's allowed domains (none by default: no network). Its other fields are Sandbox's
// fail-closed zero values; change them on the result.
func PolicySandbox(p *policy.Policy) Sandbox {
	spec := p.Sandbox()
	return Sandbox{
		Network:    SandboxNetwork{AllowedDomains: spec.AllowedDomains, StrictAllowlist: true},
		Filesystem: SandboxFilesystem{AllowWrite: spec.AllowWrite, DenyWrite: spec.DenyWrite, DenyRead: spec.DenyRead},
	}
}
