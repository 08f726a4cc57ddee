package shared

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// HookOutput is what a hook handler returns: a SyncHookOutput (or a pointer to one), or an
// AsyncHookOutput. A nil HookOutput means "no opinion": the CLI goes on as if no hook ran.
type HookOutput interface {
	isHookOutput()
}

// Continue is a tri-state: whether the agent goes on after the hook. Its zero value, ContinueUnset,
// says nothing, so a zero SyncHookOutput never stops the agent by accident.
type Continue int8

const (
	// ContinueUnset leaves the choice to the CLI (the agent goes on).
	ContinueUnset Continue = iota
	// ContinueYes says explicitly that the agent goes on.
	ContinueYes
	// ContinueNo stops the agent loop after this event (continue:false on the wire). For PreToolUse
	// the tool still runs; the loop stops after it (the real CLI's behaviour).
	ContinueNo
)

// MarshalJSON writes true, false, or null for ContinueUnset (omitted by SyncHookOutput's encoder).
func (c Continue) MarshalJSON() ([]byte, error) {
	switch c {
	case ContinueYes:
		return []byte("true"), nil
	case ContinueNo:
		return []byte("false"), nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads true, false or null.
func (c *Continue) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "true":
		*c = ContinueYes
	case "false":
		*c = ContinueNo
	case "null":
		*c = ContinueUnset
	default:
		// Type must be set: UnmarshalTypeError.Error calls Type.String.
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[Continue]()}
	}
	return nil
}

// jsonKind names the kind of the JSON value b, as encoding/json's errors do.
func jsonKind(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "empty input"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// Decision is a hook's verdict, in any dialect. The wire uses approve/block at the top level and
// allow/deny/ask/defer in permissionDecision; Normalize maps every spelling to one of the
// Decision constants.
type Decision string

// The decisions. DecisionApprove and DecisionBlock are the top-level spellings; DecisionAllow and
// DecisionDeny mean the same for a tool call.
const (
	DecisionNone    Decision = ""
	DecisionAllow   Decision = "allow"
	DecisionApprove Decision = "approve"
	DecisionDeny    Decision = "deny"
	DecisionBlock   Decision = "block"
	DecisionAsk     Decision = "ask"
	DecisionDefer   Decision = "defer"
)

// Normalize maps every dialect's word to allow, deny, ask, defer or "": approve/allow/yes -> allow,
// block/deny/no -> deny, case-insensitively. ok is false for a word it does not know; callers that
// decide whether a tool runs must then deny.
func (d Decision) Normalize() (norm Decision, ok bool) {
	switch strings.ToLower(strings.TrimSpace(string(d))) {
	case "":
		return DecisionNone, true
	case "allow", "approve", "approved", "yes", "accept":
		return DecisionAllow, true
	case "deny", "block", "blocked", "denied", "no", "reject":
		return DecisionDeny, true
	case "ask":
		return DecisionAsk, true
	case "defer":
		return DecisionDefer, true
	}
	return DecisionNone, false
}

// SyncHookOutput is a hook's synchronous answer. Every field is optional; the zero value means "no
// opinion". For convenience see Allow, Deny, Ask, Block, Stop and AddContext.
type SyncHookOutput struct {
	// Continue set to ContinueNo stops the agent loop, with StopReason.
	Continue   Continue `json:"continue,omitempty"`
	StopReason string   `json:"stopReason,omitempty"`
	// SuppressOutput hides the hook's output from the transcript.
	SuppressOutput bool `json:"suppressOutput,omitempty"`
	// Decision is the top-level verdict: allow/approve or deny/block (any dialect). For PreToolUse it
	// is the same as a permission decision; for PostToolUse, Stop and SubagentStop a block sends
	// Reason to the model (Stop: forces one more turn); for UserPromptSubmit a block drops the prompt.
	Decision Decision `json:"decision,omitempty"`
	// Reason explains Decision; it reaches the model for a deny or block.
	Reason string `json:"reason,omitempty"`
	// SystemMessage is shown to the user (a system/informational message), not to the model.
	SystemMessage string `json:"systemMessage,omitempty"`
	// HookSpecificOutput holds the event's own fields, e.g. a *PreToolUseOutput.
	HookSpecificOutput HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

func (SyncHookOutput) isHookOutput() {}

// AsyncHookOutput tells the CLI the hook goes on in the background and takes no decision now. The
// CLI 2.1.330 reads it as "no decision" at once; see docs/HOOKS.md for what the SDK does with it.
type AsyncHookOutput struct {
	Async bool `json:"async"`
	// AsyncTimeout in milliseconds; zero leaves the CLI's default.
	AsyncTimeout int `json:"asyncTimeout,omitempty"`
}

func (AsyncHookOutput) isHookOutput() {}

// HookSpecificOutput is the per-event part of an answer. The SDK writes hookEventName itself, from
// the event being answered, so a handler cannot get it wrong (a wrong one makes the CLI block).
type HookSpecificOutput interface {
	// ForEvent reports whether this output belongs to event e.
	ForEvent(e HookEvent) bool
}

// PreToolUseOutput is PreToolUse's own output.
type PreToolUseOutput struct {
	// PermissionDecision: allow skips the permission check, deny stops the tool (the reason reaches
	// the model), ask forces a permission prompt, defer ends the turn with the call deferred.
	PermissionDecision       Decision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string   `json:"permissionDecisionReason,omitempty"`
	// UpdatedInput replaces the tool's input: the tool runs with it.
	UpdatedInput ToolInput `json:"updatedInput,omitempty"`
	// AdditionalContext reaches the model in its next request.
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ForEvent reports whether e is PreToolUse.
func (*PreToolUseOutput) ForEvent(e HookEvent) bool { return e == HookEventPreToolUse }

// PostToolUseOutput is PostToolUse's own output.
type PostToolUseOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
	// UpdatedToolOutput replaces the tool's output; it must have the tool's own output shape.
	UpdatedToolOutput any `json:"updatedToolOutput,omitempty"`
	// UpdatedMCPToolOutput replaces an MCP tool's output.
	UpdatedMCPToolOutput any `json:"updatedMCPToolOutput,omitempty"`
}

// ForEvent reports whether e is PostToolUse.
func (*PostToolUseOutput) ForEvent(e HookEvent) bool { return e == HookEventPostToolUse }

// UserPromptSubmitOutput is UserPromptSubmit's own output.
type UserPromptSubmitOutput struct {
	AdditionalContext      string `json:"additionalContext,omitempty"`
	SessionTitle           string `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt bool   `json:"suppressOriginalPrompt,omitempty"`
}

// ForEvent reports whether e is UserPromptSubmit.
func (*UserPromptSubmitOutput) ForEvent(e HookEvent) bool { return e == HookEventUserPromptSubmit }

// SessionStartOutput is SessionStart's own output.
type SessionStartOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
	// WatchPaths makes the CLI fire FileChanged when one of these files changes.
	WatchPaths []string `json:"watchPaths,omitempty"`
}

// ForEvent reports whether e is SessionStart.
func (*SessionStartOutput) ForEvent(e HookEvent) bool { return e == HookEventSessionStart }

// PermissionBehavior is a permission verdict: allow or deny.
type PermissionBehavior string

// The permission behaviours.
const (
	PermissionAllow PermissionBehavior = "allow"
	PermissionDeny  PermissionBehavior = "deny"
)

// PermissionResult is a permission verdict, used by PermissionRequest hooks and can_use_tool.
type PermissionResult struct {
	Behavior PermissionBehavior `json:"behavior"`
	// UpdatedInput (allow only) makes the tool run with this input.
	UpdatedInput ToolInput `json:"updatedInput,omitempty"`
	// UpdatedPermissions (allow only) are permission updates, as the CLI's suggestions spell them.
	UpdatedPermissions []json.RawMessage `json:"updatedPermissions,omitempty"`
	// Message (deny only) reaches the model.
	Message string `json:"message,omitempty"`
	// Interrupt (deny only) also ends the turn.
	Interrupt bool `json:"interrupt,omitempty"`
}

// PermissionRequestOutput is PermissionRequest's own output.
type PermissionRequestOutput struct {
	Decision *PermissionResult `json:"decision,omitempty"`
}

// ForEvent reports whether e is PermissionRequest.
func (*PermissionRequestOutput) ForEvent(e HookEvent) bool { return e == HookEventPermissionRequest }

// PermissionDeniedOutput is PermissionDenied's own output.
type PermissionDeniedOutput struct {
	// Retry tells the model it may retry the call.
	Retry bool `json:"retry,omitempty"`
}

// ForEvent reports whether e is PermissionDenied.
func (*PermissionDeniedOutput) ForEvent(e HookEvent) bool { return e == HookEventPermissionDenied }

// ModelSwitchOutput is PreModelSwitch's own output: a deny refuses the switch.
type ModelSwitchOutput struct {
	PermissionDecision       Decision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string   `json:"permissionDecisionReason,omitempty"`
}

// ForEvent reports whether e is PreModelSwitch.
func (*ModelSwitchOutput) ForEvent(e HookEvent) bool { return e == HookEventPreModelSwitch }

// MessageDisplayOutput is MessageDisplay's own output.
type MessageDisplayOutput struct {
	// DisplayContent replaces the text shown (and the result text); the model's history keeps the
	// original.
	DisplayContent string `json:"displayContent,omitempty"`
}

// ForEvent reports whether e is MessageDisplay.
func (*MessageDisplayOutput) ForEvent(e HookEvent) bool { return e == HookEventMessageDisplay }

// ContextOutput adds context for the model, for any event that takes additionalContext without other
// fields of its own: PostToolUseFailure, PostToolBatch, Stop, SubagentStart, SubagentStop, and also
// PreToolUse, PostToolUse, UserPromptSubmit and SessionStart.
type ContextOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ForEvent reports true for every event: whether the CLI uses the context is per event (docs/HOOKS.md).
func (*ContextOutput) ForEvent(HookEvent) bool { return true }

// RawSpecificOutput is an escape hatch for event fields this SDK has no type for. Fields is written
// as the hookSpecificOutput object (hookEventName is added).
type RawSpecificOutput struct {
	Fields map[string]any
}

// ForEvent reports true for every event.
func (*RawSpecificOutput) ForEvent(HookEvent) bool { return true }

// MarshalJSON writes Fields.
func (r *RawSpecificOutput) MarshalJSON() ([]byte, error) { return json.Marshal(r.Fields) }

// AsSync returns the SyncHookOutput held by o, and whether o is one (by value or pointer, non-nil).
func AsSync(o HookOutput) (*SyncHookOutput, bool) {
	switch v := o.(type) {
	case SyncHookOutput:
		return &v, true
	case *SyncHookOutput:
		if v != nil {
			return v, true
		}
	}
	return nil, false
}

// Allow returns a PreToolUse answer that allows the tool (skipping the permission check).
func Allow() *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PreToolUseOutput{PermissionDecision: DecisionAllow}}
}

// AllowWithInput returns a PreToolUse answer that allows the tool and rewrites its input.
func AllowWithInput(input ToolInput) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PreToolUseOutput{PermissionDecision: DecisionAllow, UpdatedInput: input}}
}

// Deny returns a PreToolUse answer that stops the tool; reason reaches the model.
func Deny(reason string) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PreToolUseOutput{PermissionDecision: DecisionDeny, PermissionDecisionReason: reason}}
}

// Ask returns a PreToolUse answer that forces a permission prompt.
func Ask(reason string) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PreToolUseOutput{PermissionDecision: DecisionAsk, PermissionDecisionReason: reason}}
}

// Block returns a top-level block with a reason, meaningful for every event that can block (for
// PreToolUse it denies the tool; for Stop it forces another turn; for UserPromptSubmit it drops the
// prompt; for PostToolUse it sends the reason to the model).
func Block(reason string) *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionBlock, Reason: reason}
}

// Stop returns an answer that stops the agent loop (continue:false) with a reason.
func Stop(reason string) *SyncHookOutput {
	return &SyncHookOutput{Continue: ContinueNo, StopReason: reason}
}

// AddContext returns an answer that adds text to the model's next request.
func AddContext(text string) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &ContextOutput{AdditionalContext: text}}
}

// AllowPermission returns a PermissionRequest answer that grants the permission; a non-nil
// updatedInput makes the tool run with it.
func AllowPermission(updatedInput ToolInput) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PermissionRequestOutput{Decision: &PermissionResult{Behavior: PermissionAllow, UpdatedInput: updatedInput}}}
}

// DenyPermission returns a PermissionRequest answer that refuses the permission; message reaches
// the model. (shared.Deny is PreToolUse's answer: returned from a PermissionRequest hook it does
// not fit the event, and the SDK fails closed, denying anyway.)
func DenyPermission(message string) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &PermissionRequestOutput{Decision: &PermissionResult{Behavior: PermissionDeny, Message: message}}}
}
