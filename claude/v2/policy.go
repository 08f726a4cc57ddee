package v2

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// WithPolicy guards the session with p (see package policy): its PreToolUse hook runs first in
// the chain, before the hooks of WithHooks whatever the order of the options, so a later handler
// sees only calls the policy let through and can still deny them; its PreSkillShellCommand hook
// analyses a skill's embedded shell command as Bash (on CLI 2.1.330 and 2.1.331, which never send
// that event, the session refuses skills and slash commands instead, and Info's warnings say so). A Confined or Strict policy also confines
// the CLI and everything it starts with the kernel (see WithoutOSConfinement and
// docs/CONFINEMENT.md), and then decides as p.WithKernelConfinement(). A nil p, or one that cannot
// judge (policy.Validate: a relative or missing root), fails CreateSession with an *OptionError
// wrapping the *policy.ConfigError. Given twice, both policies guard: a call runs only if each
// allows it. Default: no policy.
func WithPolicy(p *policy.Policy) Option {
	return setOption("WithPolicy", func(o *config) {
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
	if len(o.policies) == 0 {
		return
	}
	o.ownSkillShellHooks = len(o.hooks[shared.HookEventPreSkillShellCommand]) > 0
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
	o.skillsOff = new(atomic.Pointer[string])
	for e, h := range skillsOffHooks(o.skillsOff) {
		o.hooks[e] = append([]shared.HookConfig{h}, o.hooks[e]...)
	}
}

// skillsOffReason is why a policy session refuses skills on a CLI that predates
// PreSkillShellCommand.
const skillsOffReason = "v2: skills and custom slash commands are off in this policy session: CLI %s predates the PreSkillShellCommand hook event (CLI 2.1.332 sends it), so the policy could not check a skill's embedded shell command before it ran; upgrade the CLI (npm install -g @anthropic-ai/claude-code@%s)"

// skillsOffHooks are a policy session's hooks for a CLI older than 2.1.332, which runs a skill's
// or slash command's embedded shell command (!`cmd`) without sending PreSkillShellCommand: once
// off holds the CLI's version (eventsTooNew sets it once the version is known), a Skill tool call
// is denied and a prompt's slash-command expansion blocked, so that no such command runs past the
// policy. On a newer CLI off stays nil and both hooks say nothing.
func skillsOffHooks(off *atomic.Pointer[string]) map[shared.HookEvent]shared.HookConfig {
	refuse := shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		version := off.Load()
		if version == nil {
			return nil, nil
		}
		return shared.Deny(fmt.Sprintf(skillsOffReason, *version, MaxTestedCLIVersion)), nil
	})
	return map[shared.HookEvent]shared.HookConfig{
		shared.HookEventPreToolUse:          {Matcher: "Skill", Handler: refuse},
		shared.HookEventUserPromptExpansion: {Matcher: "*", Handler: refuse},
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
