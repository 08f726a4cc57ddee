package shared

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// RefusalKind says what kind of refusal stopped a turn from doing what its prompt asked.
type RefusalKind string

// The kinds of refusal (Refusal.Kind).
const (
	// RefusalPromptBlocked: a UserPromptSubmit hook blocked the prompt (a block or deny answer,
	// continue:false, or a hook that failed and so blocked it: fail-closed). The model never saw it.
	RefusalPromptBlocked RefusalKind = "prompt_blocked"
	// RefusalPermissionDenied: every tool call the turn asked for was refused (by a hook, the
	// permission callback, the permission mode or a rule) and none ran.
	RefusalPermissionDenied RefusalKind = "permission_denied"
	// RefusalGuardFailed: a hook of an event that guards an action failed (returned an error,
	// panicked, timed out, or gave an output that does not fit its event), and the SDK refused the
	// action in its place (fail-closed).
	RefusalGuardFailed RefusalKind = "guard_failed"
)

// Refusal is one thing that stopped a turn, as the SDK saw it in the turn's messages and hook runs
// (ResultMessage.Refusals).
type Refusal struct {
	Kind RefusalKind
	// Reason is the refusal's reason as given: the hook's reason for a blocked prompt, the
	// failure of a guard.
	Reason string
	// Event is the hook event of a blocked prompt or a failed guard.
	Event HookEvent
	// ToolName and ToolUseID name the refused tool call (permission_denied, and guard_failed of
	// a tool event).
	ToolName  string
	ToolUseID string
	// Err is the guard's failure (a *HookError) for guard_failed; nil otherwise.
	Err error
}

// String describes the refusal in one line.
func (r Refusal) String() string {
	switch r.Kind {
	case RefusalPromptBlocked:
		return fmt.Sprintf("prompt blocked by a %s hook: %s", r.Event, r.Reason)
	case RefusalPermissionDenied:
		return fmt.Sprintf("permission denied: %s (%s) did not run", r.ToolName, r.ToolUseID)
	case RefusalGuardFailed:
		what := string(r.Event)
		if r.ToolName != "" {
			what += " of " + r.ToolName
		}
		return fmt.Sprintf("guard failed, denied by the SDK (fail-closed): %s: %s", what, r.Reason)
	}
	return fmt.Sprintf("%s: %s", r.Kind, r.Reason)
}

// PermissionDenial is one entry of a result's permission_denials: a tool call the CLI did not run.
type PermissionDenial struct {
	ToolName  string         `json:"tool_name"`
	ToolUseID string         `json:"tool_use_id"`
	ToolInput jsontext.Value `json:"tool_input,omitempty"`
}

// Denials decodes the result's permission_denials: the tool calls of the turn the CLI refused.
// An entry it cannot decode is left out.
func (r *ResultMessage) Denials() []PermissionDenial {
	if r == nil || len(r.PermissionDenials) == 0 {
		return nil
	}
	var raw []jsontext.Value
	if json.Unmarshal(r.PermissionDenials, &raw) != nil {
		return nil
	}
	out := make([]PermissionDenial, 0, len(raw))
	for _, v := range raw {
		var d PermissionDenial
		if json.Unmarshal(v, &d) == nil {
			out = append(out, d)
		}
	}
	return out
}
