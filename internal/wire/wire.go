package wire

import (
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// HookOutput is a hook answer exactly as the CLI reads it. Build it with Output. Its
// encoding is the same with github.com/go-json-experiment/json and with encoding/json (omitzero
// and omitempty on fields for which both codecs agree).
type HookOutput struct {
	Async          bool   `json:"async,omitzero"`
	AsyncTimeout   int    `json:"asyncTimeout,omitzero"`
	Continue       *bool  `json:"continue,omitzero"`
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitzero"`
	Decision       string `json:"decision,omitempty"`
	Reason         string `json:"reason,omitempty"`
	SystemMessage  string `json:"systemMessage,omitempty"`
	// HookSpecificOutput is nil, a *SpecificOutput, or, for a RawSpecificOutput on an event
	// that does not guard an action, a map[string]any with hookEventName set.
	HookSpecificOutput any `json:"hookSpecificOutput,omitzero"`
}

// SpecificOutput is the hookSpecificOutput object the CLI reads: hookEventName and the fields
// of the answered event (only those are set).
type SpecificOutput struct {
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
	return fmt.Sprintf("shared: invalid hook output for %s: %s", e.Event, e.Reason)
}

func outErr(e shared.HookEvent, format string, args ...any) *OutputError {
	return &OutputError{Event: e, Reason: fmt.Sprintf(format, args...)}
}

// typedNilReason explains why a typed nil is refused on a guarding event.
const typedNilReason = "a typed nil %s is not \"no opinion\" on an event that guards an action (return a nil HookOutput for that); denied"

// Output returns the answer the CLI reads for event e: every decision written in the event's own
// form (see SyncHookOutput.Decision), the CLI's own words, hookEventName set to e. A nil o gives
// the empty answer {} ("no opinion"). Output does not modify o. It returns an *OutputError for
// an output that does not fit e (see Normalize), and for an async answer on an event that
// guards an action.
func Output(e shared.HookEvent, o shared.HookOutput) (*HookOutput, error) {
	switch v := o.(type) {
	case nil:
		return &HookOutput{}, nil
	case shared.AsyncHookOutput:
		return wireAsync(e, &v)
	case *shared.AsyncHookOutput:
		if v == nil {
			if e.GuardsAction() {
				return nil, outErr(e, typedNilReason, "*shared.AsyncHookOutput")
			}
			return &HookOutput{}, nil
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
	if s == nil {
		return &HookOutput{}, nil
	}
	w := &HookOutput{
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
	return w, nil
}

func wireAsync(e shared.HookEvent, a *shared.AsyncHookOutput) (*HookOutput, error) {
	if e.GuardsAction() {
		return nil, outErr(e, "an async answer cannot guard an action (a later decision could not stop it)")
	}
	return &HookOutput{Async: true, AsyncTimeout: a.AsyncTimeout}, nil
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

func normalize(e shared.HookEvent, s *shared.SyncHookOutput) (*shared.SyncHookOutput, error) {
	guard := e.GuardsAction()
	c := *s
	c.Decision, c.UpdatedInput, c.HookSpecificOutput = "", nil, nil
	d, ok := s.Decision.Normalize()
	if !ok {
		return nil, outErr(e, "unknown decision %q", s.Decision)
	}
	spec := s.HookSpecificOutput
	if spec != nil && isNilValue(spec) {
		if guard {
			return nil, outErr(e, typedNilReason, fmt.Sprintf("hookSpecificOutput %T", spec))
		}
		spec = nil
	}
	if raw, ok := spec.(*shared.RawSpecificOutput); ok {
		typed, err := readRaw(e, raw)
		switch {
		case err == nil:
			spec = typed
		case guard:
			return nil, err
		}
		// Elsewhere a raw output the SDK has no type for is written as it is.
	}
	if spec != nil && !spec.ForEvent(e) {
		return nil, outErr(e, "hookSpecificOutput %T belongs to another event", spec)
	}
	if (d == shared.DecisionAsk || d == shared.DecisionDefer) && e != shared.HookEventPreToolUse {
		return nil, outErr(e, "decision %q is only meaningful for PreToolUse", s.Decision)
	}
	if s.UpdatedInput != nil && e != shared.HookEventPreToolUse && e != shared.HookEventPermissionRequest {
		return nil, outErr(e, "updatedInput (AllowWithInput) is only meaningful for PreToolUse and PermissionRequest")
	}
	switch e {
	case shared.HookEventPreToolUse:
		p := shared.PreToolUseOutput{}
		switch sp := spec.(type) {
		case nil:
		case *shared.PreToolUseOutput:
			p = *sp
			if p.PermissionDecision != "" {
				pd, ok := p.PermissionDecision.Normalize()
				if !ok {
					return nil, outErr(e, "unknown permission decision %q", sp.PermissionDecision)
				}
				p.PermissionDecision = pd
			}
		case *shared.ContextOutput:
			p.AdditionalContext = sp.AdditionalContext
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		if d != shared.DecisionNone && Rank(d) > Rank(p.PermissionDecision) {
			p.PermissionDecision, p.PermissionDecisionReason = d, s.Reason
		}
		if s.UpdatedInput != nil {
			if p.UpdatedInput != nil {
				return nil, outErr(e, "two updatedInputs in one answer")
			}
			p.UpdatedInput = s.UpdatedInput
		}
		c.Reason = ""
		if p.PermissionDecision == shared.DecisionDeny {
			// Also the legacy spelling, so that every CLI version reads it as a block.
			c.Decision, c.Reason = shared.DecisionDeny, p.PermissionDecisionReason
		} else if d == shared.DecisionNone {
			c.Reason = s.Reason
		}
		if p.PermissionDecision != "" || p.PermissionDecisionReason != "" || p.UpdatedInput != nil || p.AdditionalContext != "" {
			c.HookSpecificOutput = &p
		}
	case shared.HookEventPermissionRequest:
		var r *shared.PermissionResult
		switch sp := spec.(type) {
		case nil:
		case *shared.PermissionRequestOutput:
			if sp.Decision != nil {
				if b := sp.Decision.Behavior; b != shared.PermissionAllow && b != shared.PermissionDeny {
					return nil, outErr(e, "unknown permission behavior %q", b)
				}
				cp := *sp.Decision
				r = &cp
			}
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		switch {
		case d == shared.DecisionDeny:
			if r == nil || r.Behavior != shared.PermissionDeny {
				r = &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: s.Reason}
			}
		case d == shared.DecisionAllow && r == nil:
			r = &shared.PermissionResult{Behavior: shared.PermissionAllow}
		}
		if s.UpdatedInput != nil {
			switch {
			case r == nil:
				return nil, outErr(e, "updatedInput without an allow")
			case r.Behavior == shared.PermissionAllow && r.UpdatedInput != nil:
				return nil, outErr(e, "two updatedInputs in one answer")
			case r.Behavior == shared.PermissionAllow:
				r.UpdatedInput = s.UpdatedInput
			}
		}
		if r != nil && r.Behavior == shared.PermissionDeny && r.Message == "" {
			r.Message = "denied by a PermissionRequest hook"
		}
		c.Reason = ""
		if r != nil {
			c.HookSpecificOutput = &shared.PermissionRequestOutput{Decision: r}
		} else if d == shared.DecisionNone {
			c.Reason = s.Reason
		}
	case shared.HookEventPreModelSwitch:
		m := shared.ModelSwitchOutput{}
		switch sp := spec.(type) {
		case nil:
		case *shared.ModelSwitchOutput:
			m = *sp
			if m.PermissionDecision != "" {
				pd, ok := m.PermissionDecision.Normalize()
				if !ok || (pd != shared.DecisionAllow && pd != shared.DecisionDeny) {
					return nil, outErr(e, "invalid model switch decision %q", sp.PermissionDecision)
				}
				m.PermissionDecision = pd
			}
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		if d != shared.DecisionNone && Rank(d) > Rank(m.PermissionDecision) {
			m.PermissionDecision, m.PermissionDecisionReason = d, s.Reason
		}
		c.Reason = ""
		if m != (shared.ModelSwitchOutput{}) {
			c.HookSpecificOutput = &m
		} else if d == shared.DecisionNone {
			c.Reason = s.Reason
		}
	case shared.HookEventPreSkillShellCommand:
		// Only the top-level decision (approve / block). The CLI also reads a hookSpecificOutput
		// of PreToolUse's shape, where any answer but allow keeps the command from running; the
		// SDK takes none, so that one form carries the verdict: a handler's output of another
		// shape denies (fail-closed).
		if spec != nil {
			return nil, outErr(e, "hookSpecificOutput %T is not read on PreSkillShellCommand: answer shared.Deny, shared.Block or shared.Allow", spec)
		}
		c.Decision = d
	default:
		// The top-level decision: approve / block (the event's own form, including
		// UserPromptSubmit's and UserPromptExpansion's denial).
		c.Decision = d
		switch spec.(type) {
		case nil, *shared.ContextOutput, *shared.UserPromptSubmitOutput, *shared.PostToolUseOutput, *shared.SessionStartOutput,
			*shared.PermissionDeniedOutput, *shared.MessageDisplayOutput, *shared.RawSpecificOutput:
			c.HookSpecificOutput = spec
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
	}
	return &c, nil
}

// Rank orders permission decisions (allow < ask < defer < deny; 0 for none): a stronger one
// replaces a weaker one, in a handler's answer and across a chain's (claude/subprocess's merger).
func Rank(d shared.Decision) int {
	switch d {
	case shared.DecisionAllow:
		return 1
	case shared.DecisionAsk:
		return 2
	case shared.DecisionDefer:
		return 3
	case shared.DecisionDeny:
		return 4
	}
	return 0
}

// isNilValue reports whether v is a typed nil pointer (or map, slice, func...) in an interface.
func isNilValue(v any) bool {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return r.IsNil()
	}
	return false
}

// readRaw reads a raw hookSpecificOutput of event e into e's typed output as the CLI would: exact
// key names, the CLI's own words; anything it cannot read that way is an *OutputError (a denial on
// a guarding event; elsewhere the raw output is written as it is).
func readRaw(e shared.HookEvent, r *shared.RawSpecificOutput) (shared.HookSpecificOutput, error) {
	fields := make(map[string]any, len(r.Fields))
	for k, v := range r.Fields {
		fields[k] = v
	}
	if name, ok := fields["hookEventName"]; ok {
		if n, ok := name.(string); !ok || shared.HookEvent(n) != e {
			return nil, outErr(e, "raw hookSpecificOutput has hookEventName %v (the CLI blocks on a wrong one)", name)
		}
		delete(fields, "hookEventName")
	}
	if len(fields) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, outErr(e, "raw hookSpecificOutput cannot be encoded: %v", err)
	}
	var spec shared.HookSpecificOutput
	switch e {
	case shared.HookEventPreToolUse:
		spec = &shared.PreToolUseOutput{}
	case shared.HookEventPermissionRequest:
		spec = &shared.PermissionRequestOutput{}
	case shared.HookEventPreModelSwitch:
		spec = &shared.ModelSwitchOutput{}
	case shared.HookEventUserPromptSubmit:
		spec = &shared.UserPromptSubmitOutput{}
	case shared.HookEventPostToolUse:
		spec = &shared.PostToolUseOutput{}
	case shared.HookEventSessionStart:
		spec = &shared.SessionStartOutput{}
	case shared.HookEventPermissionDenied:
		spec = &shared.PermissionDeniedOutput{}
	case shared.HookEventMessageDisplay:
		spec = &shared.MessageDisplayOutput{}
	default:
		spec = &shared.ContextOutput{}
	}
	if err := json.Unmarshal(b, spec, json.RejectUnknownMembers(true)); err != nil {
		return nil, outErr(e, "raw hookSpecificOutput the SDK cannot read as the CLI would: %v", err)
	}
	word := func(w shared.Decision, allowed ...shared.Decision) error {
		if w == "" {
			return nil
		}
		for _, a := range allowed {
			if w == a {
				return nil
			}
		}
		return outErr(e, "raw hookSpecificOutput has the word %q, which the CLI does not read", w)
	}
	switch v := spec.(type) {
	case *shared.PreToolUseOutput:
		err = word(v.PermissionDecision, shared.DecisionAllow, shared.DecisionDeny, shared.DecisionAsk, shared.DecisionDefer)
	case *shared.ModelSwitchOutput:
		err = word(v.PermissionDecision, shared.DecisionAllow, shared.DecisionDeny)
	case *shared.PermissionRequestOutput:
		if v.Decision != nil {
			err = word(shared.Decision(v.Decision.Behavior), shared.Decision(shared.PermissionAllow), shared.Decision(shared.PermissionDeny))
			if err == nil && v.Decision.Behavior == "" {
				err = outErr(e, "raw hookSpecificOutput decision without a behavior")
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return spec, nil
}

// Check reports whether o can be sent for event e: the error Output(e, o) would
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
	_, err := Output(e, o)
	return err
}

// Marshal is Output followed by json.Marshal (github.com/go-json-experiment/json),
// with invalid UTF-8 in a string written as U+FFFD (jsontext.AllowInvalidUTF8), as encoding/json
// did: a reason taken from a tool's bytes must not keep a denial from being sent.
func Marshal(e shared.HookEvent, o shared.HookOutput) ([]byte, error) {
	w, err := Output(e, o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w, jsontext.AllowInvalidUTF8(true))
}

// wireSpecific writes spec, a normalised output of e (see Normalize), as the CLI reads it.
func wireSpecific(e shared.HookEvent, spec shared.HookSpecificOutput) any {
	w := &SpecificOutput{HookEventName: e}
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

// Deny returns event e's own denial with reason: the answer the SDK sends when a handler of
// an event that guards an action fails (error, panic, timeout, invalid output). For PreToolUse it
// is permissionDecision deny (and the legacy decision:"block"); for PermissionRequest a deny
// decision; for PreModelSwitch a deny; for UserPromptSubmit and UserPromptExpansion a block. For
// other events it returns nil: they fail open.
func Deny(e shared.HookEvent, reason string) *shared.SyncHookOutput {
	switch e {
	case shared.HookEventPreToolUse:
		return &shared.SyncHookOutput{Decision: shared.DecisionBlock, Reason: reason, HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: shared.DecisionDeny, PermissionDecisionReason: reason}}
	case shared.HookEventPermissionRequest:
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: reason}}}
	case shared.HookEventPreModelSwitch:
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: shared.DecisionDeny, PermissionDecisionReason: reason}}
	case shared.HookEventUserPromptSubmit, shared.HookEventUserPromptExpansion, shared.HookEventPreSkillShellCommand:
		return &shared.SyncHookOutput{Decision: shared.DecisionBlock, Reason: reason}
	}
	return nil
}
