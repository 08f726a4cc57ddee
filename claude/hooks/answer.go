package hooks

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Answer is a hook answer exactly as the CLI reads it. Build it with Output. Its
// encoding is the same with github.com/go-json-experiment/json and with encoding/json (omitzero
// and omitempty on fields for which both codecs agree).
type Answer struct {
	Async          bool   `json:"async,omitzero"`
	AsyncTimeout   int    `json:"asyncTimeout,omitzero"`
	Continue       *bool  `json:"continue,omitzero"`
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitzero"`
	Decision       string `json:"decision,omitempty"`
	Reason         string `json:"reason,omitempty"`
	SystemMessage  string `json:"systemMessage,omitempty"`
	// HookSpecificOutput is nil, a *specificAnswer, or, for a RawSpecificOutput on an event
	// that does not guard an action, a map[string]any with hookEventName set.
	HookSpecificOutput any `json:"hookSpecificOutput,omitzero"`
}

// specificAnswer is the hookSpecificOutput object the CLI reads: hookEventName and the fields
// of the answered event (only those are set).
type specificAnswer struct {
	HookEventName            shared.HookEvent         `json:"hookEventName"`
	PermissionDecision       shared.Decision          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string                   `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             shared.ToolInput         `json:"updatedInput,omitempty"`
	Decision                 *shared.PermissionResult `json:"decision,omitzero"`
	AdditionalContext        string                   `json:"additionalContext,omitempty"`
	UpdatedToolOutput        any                      `json:"updatedToolOutput,omitzero"`
	UpdatedMCPToolOutput     any                      `json:"updatedMCPToolOutput,omitzero"`
	SessionTitle             string                   `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt   bool                     `json:"suppressOriginalPrompt,omitzero"`
	WatchPaths               []string                 `json:"watchPaths,omitempty"`
	Retry                    bool                     `json:"retry,omitzero"`
	DisplayContent           string                   `json:"displayContent,omitempty"`
}

// OutputError says a handler's output cannot be written for its event: a decision word nobody knows,
// a hookSpecificOutput of another event, a helper that means nothing for the event, a typed nil on
// an event that guards an action, a raw field the SDK cannot read. The SDK treats it like a handler
// error (fail closed for events that guard an action).
type OutputError struct {
	Event  shared.HookEvent
	Reason string
}

// Error describes the failure.
func (e *OutputError) Error() string {
	return fmt.Sprintf("hooks: invalid hook output for %s: %s", e.Event, e.Reason)
}

func outErr(e shared.HookEvent, format string, args ...any) *OutputError {
	return &OutputError{Event: e, Reason: fmt.Sprintf(format, args...)}
}

// typedNilReason explains why a typed nil is refused on a guarding event.
const typedNilReason = "a typed nil %s is not \"no opinion\" on an event that guards an action (return a nil Answer for that); denied"

// Output returns the answer the CLI reads for event e: every decision written in the event's own
// form (see SyncHookOutput.Decision), the CLI's own words, hookEventName set to e. A nil o gives
// the empty answer {} ("no opinion"). Output does not modify o. It returns an *OutputError for
// an output that does not fit e (see Normalize), and for an async answer on an event that
// guards an action.
func AnswerOf(e shared.HookEvent, o shared.HookOutput) (*Answer, error) {
	switch v := o.(type) {
	case nil:
		return &Answer{}, nil
	case shared.AsyncHookOutput:
		return wireAsync(e, &v)
	case *shared.AsyncHookOutput:
		if v == nil {
			if e.GuardsAction() {
				return nil, outErr(e, typedNilReason, "*shared.AsyncHookOutput")
			}
			return &Answer{}, nil
		}
		return wireAsync(e, v)
	case *shared.AsyncWork:
		// The executor runs the work and answers for it; it is never written as such.
		return nil, outErr(e, "*shared.AsyncWork is answered by the hook executor, not written")
	}
	s, err := Normalize(e, o)
	if err != nil {
		return nil, err
	}
	return encode(e, s), nil
}

// Encode returns the answer the CLI reads for s, an output of event e in the form Normalize
// returns (nil: the empty answer {}). It does not check s again: give it only what Normalize
// returned, what denial returns, or a merge of such answers (merge.go's merger).
func encode(e shared.HookEvent, s *shared.SyncHookOutput) *Answer {
	if s == nil {
		return &Answer{}
	}
	w := &Answer{
		StopReason:     s.StopReason,
		SuppressOutput: s.SuppressOutput,
		Reason:         s.Reason,
		SystemMessage:  s.SystemMessage,
	}
	switch s.Continue {
	case shared.ContinueYes:
		t := true
		w.Continue = &t
	case shared.ContinueNo:
		f := false
		w.Continue = &f
	}
	switch s.Decision {
	case shared.DecisionAllow:
		w.Decision = string(shared.DecisionApprove)
	case shared.DecisionDeny:
		w.Decision = string(shared.DecisionBlock)
	}
	if s.HookSpecificOutput != nil {
		w.HookSpecificOutput = wireSpecific(e, s.HookSpecificOutput)
	}
	return w
}

func wireAsync(e shared.HookEvent, a *shared.AsyncHookOutput) (*Answer, error) {
	if e.GuardsAction() {
		return nil, outErr(e, "an async answer cannot guard an action (a later decision could not stop it)")
	}
	return &Answer{Async: true, AsyncTimeout: a.AsyncTimeout}, nil
}

// Normalize returns o as the SDK merges and writes it for event e, or nil for "no opinion"
// (a nil o; a typed nil on an event that does not guard an action). It checks everything Output
// checks and returns the same *OutputError. In the result:
//   - Decision is "", DecisionAllow or DecisionDeny (top-level approve / block), and only for
//     events other than PreToolUse, PermissionRequest and PreModelSwitch; for those three the
//     verdict is in the event's own output (a PreToolUse deny is also Decision deny, the legacy
//     spelling);
//   - UpdatedInput is nil: a rewrite is in *PreToolUseOutput or in the *PermissionResult;
//   - HookSpecificOutput is nil or a typed output of e (*PreToolUseOutput with a normalised
//     permission decision, *PermissionRequestOutput with behavior allow or deny,
//     *ModelSwitchOutput with allow or deny, *UserPromptSubmitOutput or *ContextOutput for
//     UserPromptSubmit and UserPromptExpansion, any fitting output for other events); a
//     *RawSpecificOutput is read into the event's typed output (exact key names, the CLI's words);
//     on an event that guards an action what cannot be read so is an *OutputError, elsewhere it is
//     kept as it is.
//
// Async answers (AsyncHookOutput, *AsyncWork) are not synchronous outputs: Normalize returns
// an *OutputError for them. Normalize does not modify o; the result shares no pointer
// with it except maps and slices (tool inputs, permission updates).
func Normalize(e shared.HookEvent, o shared.HookOutput) (*shared.SyncHookOutput, error) {
	var s *shared.SyncHookOutput
	switch v := o.(type) {
	case nil:
		return nil, nil
	case *shared.SyncHookOutput:
		if v == nil {
			if e.GuardsAction() {
				return nil, outErr(e, typedNilReason, "*shared.SyncHookOutput")
			}
			return nil, nil
		}
		s = v
	case shared.SyncHookOutput:
		s = &v
	default:
		if isNilValue(o) && e.GuardsAction() {
			return nil, outErr(e, typedNilReason, fmt.Sprintf("%T", o))
		}
		return nil, outErr(e, "%T is not a synchronous output", o)
	}
	return normalize(e, s)
}

// Check reports whether o can be sent for event e: the error AnswerOf(e, o) would
// return, or nil; an *AsyncWork (which the executor answers for) is valid on events that do not
// guard an action. "No opinion" (a nil o; a nil *SyncHookOutput on an event that does not guard an
// action), the most common answer, is checked without allocating.
func Check(e shared.HookEvent, o shared.HookOutput) error {
	if s, ok := o.(*shared.SyncHookOutput); o == nil || ok && s == nil && !e.GuardsAction() {
		return nil
	}
	if _, ok := o.(*shared.AsyncWork); ok {
		// The executor answers for it: valid where an async answer is.
		if e.GuardsAction() {
			return outErr(e, "an async answer cannot guard an action (a later decision could not stop it)")
		}
		return nil
	}
	_, err := AnswerOf(e, o)
	return err
}

// Marshal is Output followed by json.Marshal (github.com/go-json-experiment/json),
// with invalid UTF-8 in a string written as U+FFFD (jsontext.AllowInvalidUTF8), as encoding/json
// did: a reason taken from a tool's bytes must not keep a denial from being sent.
func Marshal(e shared.HookEvent, o shared.HookOutput) ([]byte, error) {
	w, err := AnswerOf(e, o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w, jsontext.AllowInvalidUTF8(true))
}

// wireSpecific writes spec, a normalised output of e (see Normalize), as the CLI reads it.
func wireSpecific(e shared.HookEvent, spec shared.HookSpecificOutput) any {
	w := &specificAnswer{HookEventName: e}
	switch v := spec.(type) {
	case *shared.PreToolUseOutput:
		w.PermissionDecision, w.PermissionDecisionReason = v.PermissionDecision, v.PermissionDecisionReason
		w.UpdatedInput, w.AdditionalContext = v.UpdatedInput, v.AdditionalContext
	case *shared.ModelSwitchOutput:
		w.PermissionDecision, w.PermissionDecisionReason = v.PermissionDecision, v.PermissionDecisionReason
	case *shared.PermissionRequestOutput:
		w.Decision = v.Decision
	case *shared.PostToolUseOutput:
		w.AdditionalContext, w.UpdatedToolOutput, w.UpdatedMCPToolOutput = v.AdditionalContext, v.UpdatedToolOutput, v.UpdatedMCPToolOutput
	case *shared.UserPromptSubmitOutput:
		w.AdditionalContext, w.SessionTitle, w.SuppressOriginalPrompt = v.AdditionalContext, v.SessionTitle, v.SuppressOriginalPrompt
	case *shared.SessionStartOutput:
		w.AdditionalContext, w.WatchPaths = v.AdditionalContext, v.WatchPaths
	case *shared.PermissionDeniedOutput:
		w.Retry = v.Retry
	case *shared.MessageDisplayOutput:
		w.DisplayContent = v.DisplayContent
	case *shared.ContextOutput:
		w.AdditionalContext = v.AdditionalContext
	case *shared.RawSpecificOutput:
		m := make(map[string]any, len(v.Fields)+1)
		for k, x := range v.Fields {
			m[k] = x
		}
		m["hookEventName"] = e
		return m
	}
	return w
}

// lastResortBlock is the answer of last resort, when not even an event's denial can be encoded:
// a top-level block, never an allow.
var lastResortBlock = Answer{Decision: "block", Reason: "invalid hook output; denied by the SDK"}

// answerFor returns out, a chain's answer (Result.Output), as the CLI reads it for event e. A
// *shared.SyncHookOutput is in Normalize's form (a merge, or an event's denial): it is encoded as
// it is. Anything else is checked by AnswerOf: an output that does not fit e is replaced by e's
// denial (or {} for events that do not guard an action), and that failing too, by a top-level
// block.
func (x *Engine) answerFor(e shared.HookEvent, out shared.HookOutput) *Answer {
	if s, ok := out.(*shared.SyncHookOutput); ok && s != nil {
		return encode(e, s)
	}
	w, err := AnswerOf(e, out)
	if err == nil {
		return w
	}
	x.logger.Warn("hooks: invalid hook output", "event", string(e), "error", err)
	if w, err := AnswerOf(e, denial(e, "invalid hook output: "+err.Error())); err == nil {
		return w
	}
	block := lastResortBlock
	return &block
}

// Refusal returns the answer that refuses a hook request of event e the SDK does not run (it
// could not be decoded, its id was a duplicate, no handler is registered): e's denial with
// reason, as the CLI reads it, or nil where e guards no action (the caller then answers {} or an
// error).
func Refusal(e shared.HookEvent, reason string) *Answer {
	d := denial(e, reason)
	if d == nil {
		return nil
	}
	return encode(e, d)
}
