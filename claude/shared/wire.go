package shared

import (
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// WireHookOutput is a hook answer exactly as the CLI reads it. Build it with WireOutput. Its
// encoding is the same with github.com/go-json-experiment/json and with encoding/json (omitzero
// and omitempty on fields for which both codecs agree).
type WireHookOutput struct {
	Async          bool   `json:"async,omitzero"`
	AsyncTimeout   int    `json:"asyncTimeout,omitzero"`
	Continue       *bool  `json:"continue,omitzero"`
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitzero"`
	Decision       string `json:"decision,omitempty"`
	Reason         string `json:"reason,omitempty"`
	SystemMessage  string `json:"systemMessage,omitempty"`
	// HookSpecificOutput is nil, a *WireSpecificOutput, or, for a RawSpecificOutput on an event
	// that does not guard an action, a map[string]any with hookEventName set.
	HookSpecificOutput any `json:"hookSpecificOutput,omitzero"`
}

// WireSpecificOutput is the hookSpecificOutput object the CLI reads: hookEventName and the fields
// of the answered event (only those are set).
type WireSpecificOutput struct {
	HookEventName            HookEvent         `json:"hookEventName"`
	PermissionDecision       Decision          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string            `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             ToolInput         `json:"updatedInput,omitempty"`
	Decision                 *PermissionResult `json:"decision,omitzero"`
	AdditionalContext        string            `json:"additionalContext,omitempty"`
	UpdatedToolOutput        any               `json:"updatedToolOutput,omitzero"`
	UpdatedMCPToolOutput     any               `json:"updatedMCPToolOutput,omitzero"`
	SessionTitle             string            `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt   bool              `json:"suppressOriginalPrompt,omitzero"`
	WatchPaths               []string          `json:"watchPaths,omitempty"`
	Retry                    bool              `json:"retry,omitzero"`
	DisplayContent           string            `json:"displayContent,omitempty"`
}

// OutputError says a handler's output cannot be written for its event: a decision word nobody knows,
// a hookSpecificOutput of another event, a helper that means nothing for the event, a typed nil on
// an event that guards an action, a raw field the SDK cannot read. The SDK treats it like a handler
// error (fail closed for events that guard an action).
type OutputError struct {
	Event  HookEvent
	Reason string
}

// Error describes the failure.
func (e *OutputError) Error() string {
	return fmt.Sprintf("shared: invalid hook output for %s: %s", e.Event, e.Reason)
}

func outErr(e HookEvent, format string, args ...any) *OutputError {
	return &OutputError{Event: e, Reason: fmt.Sprintf(format, args...)}
}

// typedNilReason explains why a typed nil is refused on a guarding event.
const typedNilReason = "a typed nil %s is not \"no opinion\" on an event that guards an action (return a nil HookOutput for that); denied"

// WireOutput returns the answer the CLI reads for event e: every decision written in the event's own
// form (see SyncHookOutput.Decision), the CLI's own words, hookEventName set to e. A nil o gives
// the empty answer {} ("no opinion"). WireOutput does not modify o. It returns an *OutputError for
// an output that does not fit e (see NormalizeOutput), and for an async answer on an event that
// guards an action.
func WireOutput(e HookEvent, o HookOutput) (*WireHookOutput, error) {
	switch v := o.(type) {
	case nil:
		return &WireHookOutput{}, nil
	case AsyncHookOutput:
		return wireAsync(e, &v)
	case *AsyncHookOutput:
		if v == nil {
			if e.GuardsAction() {
				return nil, outErr(e, typedNilReason, "*shared.AsyncHookOutput")
			}
			return &WireHookOutput{}, nil
		}
		return wireAsync(e, v)
	case *AsyncWork:
		// The executor runs the work and answers for it; it is never written as such.
		return nil, outErr(e, "*shared.AsyncWork is answered by the hook executor, not written")
	}
	s, err := NormalizeOutput(e, o)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return &WireHookOutput{}, nil
	}
	w := &WireHookOutput{
		StopReason:     s.StopReason,
		SuppressOutput: s.SuppressOutput,
		Reason:         s.Reason,
		SystemMessage:  s.SystemMessage,
	}
	switch s.Continue {
	case ContinueYes:
		t := true
		w.Continue = &t
	case ContinueNo:
		f := false
		w.Continue = &f
	}
	switch s.Decision {
	case DecisionAllow:
		w.Decision = string(DecisionApprove)
	case DecisionDeny:
		w.Decision = string(DecisionBlock)
	}
	if s.HookSpecificOutput != nil {
		w.HookSpecificOutput = wireSpecific(e, s.HookSpecificOutput)
	}
	return w, nil
}

func wireAsync(e HookEvent, a *AsyncHookOutput) (*WireHookOutput, error) {
	if e.GuardsAction() {
		return nil, outErr(e, "an async answer cannot guard an action (a later decision could not stop it)")
	}
	return &WireHookOutput{Async: true, AsyncTimeout: a.AsyncTimeout}, nil
}

// NormalizeOutput returns o as the SDK merges and writes it for event e, or nil for "no opinion"
// (a nil o; a typed nil on an event that does not guard an action). It checks everything WireOutput
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
// Async answers (AsyncHookOutput, *AsyncWork) are not synchronous outputs: NormalizeOutput returns
// an *OutputError for them. NormalizeOutput does not modify o; the result shares no pointer
// with it except maps and slices (tool inputs, permission updates).
func NormalizeOutput(e HookEvent, o HookOutput) (*SyncHookOutput, error) {
	var s *SyncHookOutput
	switch v := o.(type) {
	case nil:
		return nil, nil
	case *SyncHookOutput:
		if v == nil {
			if e.GuardsAction() {
				return nil, outErr(e, typedNilReason, "*shared.SyncHookOutput")
			}
			return nil, nil
		}
		s = v
	case SyncHookOutput:
		s = &v
	default:
		if isNilValue(o) && e.GuardsAction() {
			return nil, outErr(e, typedNilReason, fmt.Sprintf("%T", o))
		}
		return nil, outErr(e, "%T is not a synchronous output", o)
	}
	return normalize(e, s)
}

func normalize(e HookEvent, s *SyncHookOutput) (*SyncHookOutput, error) {
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
	if raw, ok := spec.(*RawSpecificOutput); ok {
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
	if (d == DecisionAsk || d == DecisionDefer) && e != HookEventPreToolUse {
		return nil, outErr(e, "decision %q is only meaningful for PreToolUse", s.Decision)
	}
	if s.UpdatedInput != nil && e != HookEventPreToolUse && e != HookEventPermissionRequest {
		return nil, outErr(e, "updatedInput (AllowWithInput) is only meaningful for PreToolUse and PermissionRequest")
	}
	switch e {
	case HookEventPreToolUse:
		p := PreToolUseOutput{}
		switch sp := spec.(type) {
		case nil:
		case *PreToolUseOutput:
			p = *sp
			if p.PermissionDecision != "" {
				pd, ok := p.PermissionDecision.Normalize()
				if !ok {
					return nil, outErr(e, "unknown permission decision %q", sp.PermissionDecision)
				}
				p.PermissionDecision = pd
			}
		case *ContextOutput:
			p.AdditionalContext = sp.AdditionalContext
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		if d != DecisionNone && rank(d) > rank(p.PermissionDecision) {
			p.PermissionDecision, p.PermissionDecisionReason = d, s.Reason
		}
		if s.UpdatedInput != nil {
			if p.UpdatedInput != nil {
				return nil, outErr(e, "two updatedInputs in one answer")
			}
			p.UpdatedInput = s.UpdatedInput
		}
		c.Reason = ""
		if p.PermissionDecision == DecisionDeny {
			// Also the legacy spelling, so that every CLI version reads it as a block.
			c.Decision, c.Reason = DecisionDeny, p.PermissionDecisionReason
		} else if d == DecisionNone {
			c.Reason = s.Reason
		}
		if p.PermissionDecision != "" || p.PermissionDecisionReason != "" || p.UpdatedInput != nil || p.AdditionalContext != "" {
			c.HookSpecificOutput = &p
		}
	case HookEventPermissionRequest:
		var r *PermissionResult
		switch sp := spec.(type) {
		case nil:
		case *PermissionRequestOutput:
			if sp.Decision != nil {
				if b := sp.Decision.Behavior; b != PermissionAllow && b != PermissionDeny {
					return nil, outErr(e, "unknown permission behavior %q", b)
				}
				cp := *sp.Decision
				r = &cp
			}
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		switch {
		case d == DecisionDeny:
			if r == nil || r.Behavior != PermissionDeny {
				r = &PermissionResult{Behavior: PermissionDeny, Message: s.Reason}
			}
		case d == DecisionAllow && r == nil:
			r = &PermissionResult{Behavior: PermissionAllow}
		}
		if s.UpdatedInput != nil {
			switch {
			case r == nil:
				return nil, outErr(e, "updatedInput without an allow")
			case r.Behavior == PermissionAllow && r.UpdatedInput != nil:
				return nil, outErr(e, "two updatedInputs in one answer")
			case r.Behavior == PermissionAllow:
				r.UpdatedInput = s.UpdatedInput
			}
		}
		if r != nil && r.Behavior == PermissionDeny && r.Message == "" {
			r.Message = "denied by a PermissionRequest hook"
		}
		c.Reason = ""
		if r != nil {
			c.HookSpecificOutput = &PermissionRequestOutput{Decision: r}
		} else if d == DecisionNone {
			c.Reason = s.Reason
		}
	case HookEventPreModelSwitch:
		m := ModelSwitchOutput{}
		switch sp := spec.(type) {
		case nil:
		case *ModelSwitchOutput:
			m = *sp
			if m.PermissionDecision != "" {
				pd, ok := m.PermissionDecision.Normalize()
				if !ok || (pd != DecisionAllow && pd != DecisionDeny) {
					return nil, outErr(e, "invalid model switch decision %q", sp.PermissionDecision)
				}
				m.PermissionDecision = pd
			}
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
		if d != DecisionNone && rank(d) > rank(m.PermissionDecision) {
			m.PermissionDecision, m.PermissionDecisionReason = d, s.Reason
		}
		c.Reason = ""
		if m != (ModelSwitchOutput{}) {
			c.HookSpecificOutput = &m
		} else if d == DecisionNone {
			c.Reason = s.Reason
		}
	default:
		// The top-level decision: approve / block (the event's own form, including
		// UserPromptSubmit's and UserPromptExpansion's denial).
		c.Decision = d
		switch spec.(type) {
		case nil, *ContextOutput, *UserPromptSubmitOutput, *PostToolUseOutput, *SessionStartOutput,
			*PermissionDeniedOutput, *MessageDisplayOutput, *RawSpecificOutput:
			c.HookSpecificOutput = spec
		default:
			return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
	}
	return &c, nil
}

// rank orders permission decisions: a stronger one replaces a weaker one.
func rank(d Decision) int {
	switch d {
	case DecisionAllow:
		return 1
	case DecisionAsk:
		return 2
	case DecisionDefer:
		return 3
	case DecisionDeny:
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
func readRaw(e HookEvent, r *RawSpecificOutput) (HookSpecificOutput, error) {
	fields := make(map[string]any, len(r.Fields))
	for k, v := range r.Fields {
		fields[k] = v
	}
	if name, ok := fields["hookEventName"]; ok {
		if n, ok := name.(string); !ok || HookEvent(n) != e {
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
	var spec HookSpecificOutput
	switch e {
	case HookEventPreToolUse:
		spec = &PreToolUseOutput{}
	case HookEventPermissionRequest:
		spec = &PermissionRequestOutput{}
	case HookEventPreModelSwitch:
		spec = &ModelSwitchOutput{}
	case HookEventUserPromptSubmit:
		spec = &UserPromptSubmitOutput{}
	case HookEventPostToolUse:
		spec = &PostToolUseOutput{}
	case HookEventSessionStart:
		spec = &SessionStartOutput{}
	case HookEventPermissionDenied:
		spec = &PermissionDeniedOutput{}
	case HookEventMessageDisplay:
		spec = &MessageDisplayOutput{}
	default:
		spec = &ContextOutput{}
	}
	if err := json.Unmarshal(b, spec, json.RejectUnknownMembers(true)); err != nil {
		return nil, outErr(e, "raw hookSpecificOutput the SDK cannot read as the CLI would: %v", err)
	}
	word := func(w Decision, allowed ...Decision) error {
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
	case *PreToolUseOutput:
		err = word(v.PermissionDecision, DecisionAllow, DecisionDeny, DecisionAsk, DecisionDefer)
	case *ModelSwitchOutput:
		err = word(v.PermissionDecision, DecisionAllow, DecisionDeny)
	case *PermissionRequestOutput:
		if v.Decision != nil {
			err = word(Decision(v.Decision.Behavior), Decision(PermissionAllow), Decision(PermissionDeny))
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

// CheckWireOutput reports whether o can be sent for event e: the error WireOutput(e, o) would
// return, or nil; an *AsyncWork (which the executor answers for) is valid on events that do not
// guard an action. "No opinion" (a nil o; a nil *SyncHookOutput on an event that does not guard an
// action), the most common answer, is checked without allocating.
func CheckWireOutput(e HookEvent, o HookOutput) error {
	if s, ok := o.(*SyncHookOutput); o == nil || ok && s == nil && !e.GuardsAction() {
		return nil
	}
	if _, ok := o.(*AsyncWork); ok {
		// The executor answers for it: valid where an async answer is.
		if e.GuardsAction() {
			return outErr(e, "an async answer cannot guard an action (a later decision could not stop it)")
		}
		return nil
	}
	_, err := WireOutput(e, o)
	return err
}

// MarshalWireOutput is WireOutput followed by json.Marshal (github.com/go-json-experiment/json),
// with invalid UTF-8 in a string written as U+FFFD (jsontext.AllowInvalidUTF8), as encoding/json
// did: a reason taken from a tool's bytes must not keep a denial from being sent.
func MarshalWireOutput(e HookEvent, o HookOutput) ([]byte, error) {
	w, err := WireOutput(e, o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w, jsontext.AllowInvalidUTF8(true))
}

// wireSpecific writes spec, a normalised output of e (see NormalizeOutput), as the CLI reads it.
func wireSpecific(e HookEvent, spec HookSpecificOutput) any {
	w := &WireSpecificOutput{HookEventName: e}
	switch v := spec.(type) {
	case *PreToolUseOutput:
		w.PermissionDecision, w.PermissionDecisionReason = v.PermissionDecision, v.PermissionDecisionReason
		w.UpdatedInput, w.AdditionalContext = v.UpdatedInput, v.AdditionalContext
	case *ModelSwitchOutput:
		w.PermissionDecision, w.PermissionDecisionReason = v.PermissionDecision, v.PermissionDecisionReason
	case *PermissionRequestOutput:
		w.Decision = v.Decision
	case *PostToolUseOutput:
		w.AdditionalContext, w.UpdatedToolOutput, w.UpdatedMCPToolOutput = v.AdditionalContext, v.UpdatedToolOutput, v.UpdatedMCPToolOutput
	case *UserPromptSubmitOutput:
		w.AdditionalContext, w.SessionTitle, w.SuppressOriginalPrompt = v.AdditionalContext, v.SessionTitle, v.SuppressOriginalPrompt
	case *SessionStartOutput:
		w.AdditionalContext, w.WatchPaths = v.AdditionalContext, v.WatchPaths
	case *PermissionDeniedOutput:
		w.Retry = v.Retry
	case *MessageDisplayOutput:
		w.DisplayContent = v.DisplayContent
	case *ContextOutput:
		w.AdditionalContext = v.AdditionalContext
	case *RawSpecificOutput:
		m := make(map[string]any, len(v.Fields)+1)
		for k, x := range v.Fields {
			m[k] = x
		}
		m["hookEventName"] = e
		return m
	}
	return w
}

// DenyOutput returns event e's own denial with reason: the answer the SDK sends when a handler of
// an event that guards an action fails (error, panic, timeout, invalid output). For PreToolUse it
// is permissionDecision deny (and the legacy decision:"block"); for PermissionRequest a deny
// decision; for PreModelSwitch a deny; for UserPromptSubmit and UserPromptExpansion a block. For
// other events it returns nil: they fail open.
func DenyOutput(e HookEvent, reason string) *SyncHookOutput {
	switch e {
	case HookEventPreToolUse:
		return &SyncHookOutput{Decision: DecisionBlock, Reason: reason, HookSpecificOutput: &PreToolUseOutput{PermissionDecision: DecisionDeny, PermissionDecisionReason: reason}}
	case HookEventPermissionRequest:
		return &SyncHookOutput{HookSpecificOutput: &PermissionRequestOutput{Decision: &PermissionResult{Behavior: PermissionDeny, Message: reason}}}
	case HookEventPreModelSwitch:
		return &SyncHookOutput{HookSpecificOutput: &ModelSwitchOutput{PermissionDecision: DecisionDeny, PermissionDecisionReason: reason}}
	case HookEventUserPromptSubmit, HookEventUserPromptExpansion:
		return &SyncHookOutput{Decision: DecisionBlock, Reason: reason}
	}
	return nil
}
