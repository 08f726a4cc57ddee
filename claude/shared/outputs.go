package shared

import (
	"bytes"
	"fmt"
	"strings"
)

// HookOutput is what a hook handler returns: a SyncHookOutput (or a pointer to one), an
// AsyncHookOutput, or an *AsyncWork. A nil HookOutput means "no opinion": the CLI goes on as if no
// hook ran.
//
// A typed nil (a nil *SyncHookOutput, *AsyncHookOutput or *AsyncWork held in a non-nil HookOutput,
// or a nil pointer as HookSpecificOutput) is not "no opinion" on an event that guards an action
// (HookEvent.GuardsAction): it is almost always a bug (a handler that returns a nil pointer it meant
// to fill), so the SDK denies, saying why. On other events it counts as no opinion.
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
		return fmt.Errorf("shared: continue must be true, false or null, not %s", jsonKind(b))
	}
	return nil
}

// jsonKind names the kind of the JSON value b.
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
// opinion". For convenience see Allow, AllowWithInput, Deny, Ask, Block, Stop and AddContext.
//
// Decision, Reason and UpdatedInput are event-neutral: the SDK writes them in the answered event's
// own form (see Decision and WireOutput). HookSpecificOutput holds the event's own fields; when
// both say something, the stronger decision wins (deny > defer > ask > allow), and two
// updatedInputs in one answer are an error. SyncHookOutput is not meant to be encoded with a JSON
// codec directly: WireOutput gives the CLI's form.
type SyncHookOutput struct {
	// Continue set to ContinueNo stops the agent loop, with StopReason. On an event that guards an
	// action it does not end the chain: the later guards still run and decide (for PreToolUse the
	// CLI runs the tool anyway, then stops).
	Continue   Continue `json:"continue,omitzero"`
	StopReason string   `json:"stopReason,omitempty"`
	// SuppressOutput hides the hook's output from the transcript.
	SuppressOutput bool `json:"suppressOutput,omitzero"`
	// Decision is the verdict, in any dialect (see Decision.Normalize), written in the answered
	// event's own form:
	//   - PreToolUse: hookSpecificOutput.permissionDecision allow / deny / ask / defer (a deny also
	//     as the legacy decision:"block");
	//   - PermissionRequest: hookSpecificOutput.decision.behavior allow / deny (Reason is the
	//     deny's message);
	//   - PreModelSwitch: hookSpecificOutput.permissionDecision allow / deny;
	//   - every other event: decision:"approve" / "block" (UserPromptSubmit: a block drops the
	//     prompt; PostToolUse: Reason goes to the model; Stop and SubagentStop: one more turn).
	// ask and defer mean something for PreToolUse only; elsewhere they are an *OutputError (a denial
	// on events that guard an action).
	Decision Decision `json:"decision,omitempty"`
	// Reason explains Decision; it reaches the model for a deny or block.
	Reason string `json:"reason,omitempty"`
	// UpdatedInput makes the tool run with this input: PreToolUse's updatedInput, or, with an allow,
	// PermissionRequest's decision.updatedInput. For every other event, and for a PermissionRequest
	// answer that does not allow, it is an *OutputError (a denial on events that guard an action).
	UpdatedInput ToolInput `json:"-"`
	// SystemMessage is shown to the user (a system/informational message), not to the model.
	SystemMessage string `json:"systemMessage,omitempty"`
	// HookSpecificOutput holds the event's own fields, e.g. a *PreToolUseOutput.
	HookSpecificOutput HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

func (SyncHookOutput) isHookOutput() {}

// AsyncHookOutput tells the CLI the hook goes on in the background and takes no decision now. The
// CLI 2.1.330 reads it as "no decision" at once; see docs/HOOKS.md for what the SDK does with it.
//
// It is refused on events that guard an action (an *OutputError, so a denial): a decision that
// comes later cannot stop the action.
type AsyncHookOutput struct {
	Async bool `json:"async"`
	// AsyncTimeout in milliseconds; zero leaves the CLI's default.
	AsyncTimeout int `json:"asyncTimeout,omitzero"`
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
	UpdatedToolOutput any `json:"updatedToolOutput,omitzero"`
	// UpdatedMCPToolOutput replaces an MCP tool's output.
	UpdatedMCPToolOutput any `json:"updatedMCPToolOutput,omitzero"`
}

// ForEvent reports whether e is PostToolUse.
func (*PostToolUseOutput) ForEvent(e HookEvent) bool { return e == HookEventPostToolUse }

// UserPromptSubmitOutput is UserPromptSubmit's own output.
type UserPromptSubmitOutput struct {
	AdditionalContext      string `json:"additionalContext,omitempty"`
	SessionTitle           string `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt bool   `json:"suppressOriginalPrompt,omitzero"`
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
	// UpdatedPermissions (allow only) are permission updates the CLI applies, e.g. the request's
	// PermissionSuggestions for "always allow".
	UpdatedPermissions []PermissionUpdate `json:"updatedPermissions,omitempty"`
	// Message (deny only) reaches the model.
	Message string `json:"message,omitempty"`
	// Interrupt (deny only) also ends the turn.
	Interrupt bool `json:"interrupt,omitzero"`
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
	Retry bool `json:"retry,omitzero"`
}

// ForEvent reports whether e is PermissionDenied.
func (*PermissionDeniedOutput) ForEvent(e HookEvent) bool { return e == HookEventPermissionDenied }

// ModelSwitchOutput is PreModelSwitch's own output: a deny refuses the switch. Its decision is
// allow or deny; ask and defer are an *OutputError (so a denial).
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
// PreToolUse, PostToolUse, UserPromptSubmit, UserPromptExpansion and SessionStart.
type ContextOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ForEvent reports true for every event but PermissionRequest and PreModelSwitch, whose answers
// have no additionalContext: there it would be dropped, so it is an *OutputError (a denial).
// Whether the CLI uses the context is per event (docs/HOOKS.md).
func (*ContextOutput) ForEvent(e HookEvent) bool {
	return e != HookEventPermissionRequest && e != HookEventPreModelSwitch
}

// RawSpecificOutput is an escape hatch for event fields this SDK has no type for. Fields is written
// as the hookSpecificOutput object (hookEventName is set to the answered event).
//
// On an event that guards an action (HookEvent.GuardsAction) the SDK does not pass Fields on
// blindly: it reads them as the CLI would (exact key names, the CLI's own decision words: allow,
// deny, ask, defer for PreToolUse; decision.behavior allow, deny for PermissionRequest; allow,
// deny for PreModelSwitch) and merges them with their meaning (a raw deny is a deny that ends the
// chain, a raw updatedInput a rewrite). A field or value it cannot read that way (an unknown key,
// a wrong type, another word, a hookEventName of another event) is an *OutputError: the SDK
// denies. On other events Fields is written as it is.
type RawSpecificOutput struct {
	Fields map[string]any
}

// ForEvent reports true for every event (its fields are checked when it is written).
func (*RawSpecificOutput) ForEvent(HookEvent) bool { return true }

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

// The helpers below are event-neutral: the SDK writes each in the answered event's own form (see
// SyncHookOutput.Decision). A helper that means nothing for an event (Ask for PermissionRequest,
// AllowWithInput for UserPromptSubmit, ...) is an *OutputError there: for an event that guards an
// action the SDK then denies, and reports the error.

// Allow returns an answer that lets the action go ahead: PreToolUse permissionDecision allow (the
// tool runs without a permission check), PermissionRequest behavior allow, PreModelSwitch allow,
// decision:"approve" elsewhere.
func Allow() *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionAllow}
}

// AllowWithInput returns an answer that allows the tool and makes it run with input: for PreToolUse
// (permissionDecision allow + updatedInput) and PermissionRequest (behavior allow + updatedInput).
// For any other event it is an *OutputError.
func AllowWithInput(input ToolInput) *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionAllow, UpdatedInput: input}
}

// Deny returns an answer that refuses the action, in the event's own form: PreToolUse
// permissionDecision deny (the tool does not run), PermissionRequest behavior deny (reason is the
// message), PreModelSwitch deny, decision:"block" elsewhere. reason reaches the model. It ends the
// chain. Deny and Block are the same answer.
func Deny(reason string) *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionDeny, Reason: reason}
}

// Ask returns a PreToolUse answer that forces a permission prompt. For any other event it is an
// *OutputError.
func Ask(reason string) *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionAsk, Reason: reason}
}

// Block returns an answer that blocks, with a reason: the same as Deny. For events that guard an
// action it is the event's own denial (PreToolUse: the tool does not run; PermissionRequest:
// behavior deny; PreModelSwitch: the switch is refused; UserPromptSubmit: the prompt is dropped);
// for PostToolUse it sends the reason to the model; for Stop and SubagentStop it forces another
// turn. It ends the chain.
func Block(reason string) *SyncHookOutput {
	return &SyncHookOutput{Decision: DecisionBlock, Reason: reason}
}

// Stop returns an answer that stops the agent loop (continue:false) with a reason. It decides
// nothing about the action: for PreToolUse the tool still runs (then the loop stops).
func Stop(reason string) *SyncHookOutput {
	return &SyncHookOutput{Continue: ContinueNo, StopReason: reason}
}

// AddContext returns an answer that adds text to the model's next request. PermissionRequest and
// PreModelSwitch answers have no context: there it is an *OutputError.
func AddContext(text string) *SyncHookOutput {
	return &SyncHookOutput{HookSpecificOutput: &ContextOutput{AdditionalContext: text}}
}
