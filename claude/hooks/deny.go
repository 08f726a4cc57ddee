package hooks

import (
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// denial returns event e's own denial with reason: the answer the SDK sends when a handler of
// an event that guards an action fails (error, panic, timeout, invalid output). For PreToolUse it
// is permissionDecision deny (and the legacy decision:"block"); for PermissionRequest a deny
// decision; for PreModelSwitch a deny; for UserPromptSubmit, UserPromptExpansion and PreSkillShellCommand a block. For
// other events it returns nil: they fail open. The denial is in the form Normalize returns (a
// top-level deny is written as "block"), so it can go to Encode as it is.
func denial(e shared.HookEvent, reason string) *shared.SyncHookOutput {
	switch e {
	case shared.HookEventPreToolUse:
		return &shared.SyncHookOutput{Decision: shared.DecisionDeny, Reason: reason, HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: shared.DecisionDeny, PermissionDecisionReason: reason}}
	case shared.HookEventPermissionRequest:
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: reason}}}
	case shared.HookEventPreModelSwitch:
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: shared.DecisionDeny, PermissionDecisionReason: reason}}
	case shared.HookEventUserPromptSubmit, shared.HookEventUserPromptExpansion, shared.HookEventPreSkillShellCommand:
		return &shared.SyncHookOutput{Decision: shared.DecisionDeny, Reason: reason}
	}
	return nil
}
