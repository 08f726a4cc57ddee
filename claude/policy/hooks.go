package policy

import (
	"context"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Hooks returns the policy as hooks: one PreToolUse handler, for every tool (MCP tools included),
// that denies a call the policy refuses with a reason naming the rule (Decision.Message), allows a
// call of a tool it guards (file tools, Bash, mapped MCP tools) that it accepts, so that the CLI
// does not prompt for it, and has no opinion on the other tools and on reads outside its roots
// (the CLI's permission rules apply). In ModeAudit it has no opinion on any call and only reports (WithDecisionLog).
//
// It also returns a PreSkillShellCommand handler: a skill's or slash command's embedded shell
// command (!`cmd`, CLI 2.1.332 and later) is analysed exactly as a Bash tool call with that
// command, in the hook input's cwd, and denied (shared.Deny) when the policy refuses it; a
// PowerShell command is denied (the policy does not read PowerShell). An allowed command gets no
// answer, which lets it run. (A CLI older than 2.1.332 never sends that event: v2 then fails
// CreateSession with ErrHooksNotEnforced rather than let a skill's command run unchecked.)
//
// Register them before the program's own PreToolUse hooks (v2.WithPolicy does): a deny ends the
// chain, and a later handler's deny still wins over the policy's allow.
func (p *Policy) Hooks() shared.Hooks {
	return shared.Hooks{
		shared.HookEventPreToolUse:           {{Matcher: "*", Handler: shared.OnPreToolUse(p.preToolUse)}},
		shared.HookEventPreSkillShellCommand: {{Matcher: "*", Handler: shared.HandlerFor(p.preSkillShell)}},
	}
}

// preSkillShell decides a skill's embedded shell command as the Bash tool's.
func (p *Policy) preSkillShell(ctx context.Context, in *shared.PreSkillShellCommandHookInput) (shared.HookOutput, error) {
	d := deny(RuleNestedCode, "a skill's %s command runs code the policy does not read; use Bash in the skill", in.ToolName)
	if p.err != nil {
		d = deny(RuleInvalidPolicy, "%v", p.err)
	} else if in.ToolName == "Bash" {
		d = p.decideBash(in.ToolInput, in.Cwd)
	}
	if p.log != nil {
		p.log(ctx, Event{Mode: p.mode, SessionID: in.SessionID, ToolName: in.ToolName, Cwd: in.Cwd, Subject: in.ToolInput.String("command"), Skill: in.CommandName, Decision: d})
	}
	if d.Allow || p.mode == ModeAudit {
		return nil, nil
	}
	return shared.Deny(d.Message()), nil
}

func (p *Policy) preToolUse(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
	d, guarded := p.Decide(in.ToolName, in.ToolInput, in.Cwd)
	if !guarded {
		return nil, nil
	}
	if p.log != nil {
		subject := in.ToolInput.String("command")
		for _, f := range []string{"file_path", "notebook_path", "path", "pattern"} {
			if subject == "" {
				subject = in.ToolInput.String(f)
			}
		}
		p.log(ctx, Event{Mode: p.mode, SessionID: in.SessionID, ToolUseID: in.ToolUseID, ToolName: in.ToolName, Cwd: in.Cwd, Subject: subject, Decision: d})
	}
	switch {
	case p.mode == ModeAudit:
		return nil, nil
	case d.Allow:
		return shared.Allow(), nil
	}
	return shared.Deny(d.Message()), nil
}

// SandboxSpec is the policy as the CLI's OS sandbox settings (v2.PolicySandbox turns it into a
// v2.Sandbox): what a hook cannot see (a program or a script writing files) the OS then stops.
type SandboxSpec struct {
	// AllowWrite are the write roots.
	AllowWrite []string
	// DenyWrite are the protected paths below the write roots that exist or are well known
	// (.git, .env, .claude/settings.json, ...), and the protected ~ paths.
	DenyWrite []string
	// DenyRead are the credentials paths (DefaultDenyRead).
	DenyRead []string
	// AllowedDomains are the hosts commands may reach (WithAllowedDomains); none: no network.
	AllowedDomains []string
}
