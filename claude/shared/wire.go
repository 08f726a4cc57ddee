package shared

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// WireHookOutput is a hook answer exactly as the CLI reads it. Build it with WireOutput.
type WireHookOutput struct {
	Async              bool   `json:"async,omitempty"`
	AsyncTimeout       int    `json:"asyncTimeout,omitempty"`
	Continue           *bool  `json:"continue,omitempty"`
	StopReason         string `json:"stopReason,omitempty"`
	SuppressOutput     bool   `json:"suppressOutput,omitempty"`
	Decision           string `json:"decision,omitempty"`
	Reason             string `json:"reason,omitempty"`
	SystemMessage      string `json:"systemMessage,omitempty"`
	HookSpecificOutput any    `json:"hookSpecificOutput,omitempty"`
}

// OutputError says a handler's output cannot be written for its event: a decision word nobody knows,
// or a hookSpecificOutput of another event. The SDK treats it like a handler error (fail closed for
// events that guard an action).
type OutputError struct {
	Event  HookEvent
	Reason string
}

// Error describes the failure.
func (e *OutputError) Error() string {
	return fmt.Sprintf("shared: invalid hook output for %s: %s", e.Event, e.Reason)
}

// WireOutput returns the answer the CLI reads for event e: decisions normalised to the CLI's words
// (approve/block at the top level, allow/deny/ask/defer in permissionDecision), hookEventName set
// to e. A nil o (or a nil *SyncHookOutput or *AsyncHookOutput) gives the empty answer {}, and a
// nil hookSpecificOutput pointer is left out. WireOutput does not modify o. It returns an
// *OutputError for an output that does not fit e.
func WireOutput(e HookEvent, o HookOutput) (*WireHookOutput, error) {
	if o == nil {
		return &WireHookOutput{}, nil
	}
	switch v := o.(type) {
	case AsyncHookOutput:
		return &WireHookOutput{Async: true, AsyncTimeout: v.AsyncTimeout}, nil
	case *AsyncHookOutput:
		if v == nil {
			return &WireHookOutput{}, nil
		}
		return &WireHookOutput{Async: true, AsyncTimeout: v.AsyncTimeout}, nil
	}
	if v, ok := o.(*SyncHookOutput); ok && v == nil {
		return &WireHookOutput{}, nil // a typed nil is "no opinion", like nil
	}
	s, ok := AsSync(o)
	if !ok {
		return nil, &OutputError{Event: e, Reason: fmt.Sprintf("unsupported output type %T", o)}
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
	d, ok := s.Decision.Normalize()
	if !ok {
		return nil, &OutputError{Event: e, Reason: fmt.Sprintf("unknown decision %q", s.Decision)}
	}
	spec := s.HookSpecificOutput
	switch d {
	case DecisionAllow:
		w.Decision = string(DecisionApprove)
	case DecisionDeny:
		w.Decision = string(DecisionBlock)
	case DecisionAsk, DecisionDefer:
		// Only a tool call can be asked about or deferred: move it into permissionDecision.
		if e != HookEventPreToolUse {
			return nil, &OutputError{Event: e, Reason: fmt.Sprintf("decision %q is only meaningful for PreToolUse", s.Decision)}
		}
		var err error
		if spec, err = withPermissionDecision(e, spec, d, s.Reason); err != nil {
			return nil, err
		}
	}
	if spec != nil && !isNilPointer(spec) {
		hs, err := wireSpecific(e, spec)
		if err != nil {
			return nil, err
		}
		w.HookSpecificOutput = hs
	}
	return w, nil
}

// withPermissionDecision returns spec with permissionDecision d (and reason, if it has none), for a
// top-level ask or defer. The fields spec already has are kept; a permissionDecision it already has
// wins. A spec of another event is an error, as it would be without the decision.
func withPermissionDecision(e HookEvent, spec HookSpecificOutput, d Decision, reason string) (HookSpecificOutput, error) {
	if spec != nil && !isNilPointer(spec) && !spec.ForEvent(e) {
		return nil, &OutputError{Event: e, Reason: fmt.Sprintf("hookSpecificOutput %T belongs to another event", spec)}
	}
	p := &PreToolUseOutput{}
	switch cur := spec.(type) {
	case *PreToolUseOutput:
		if cur != nil {
			*p = *cur
		}
	case *ContextOutput:
		if cur != nil {
			p.AdditionalContext = cur.AdditionalContext
		}
	case *RawSpecificOutput:
		if cur == nil {
			break
		}
		f := make(map[string]any, len(cur.Fields)+2)
		for k, v := range cur.Fields {
			f[k] = v
		}
		if _, ok := f["permissionDecision"]; !ok {
			f["permissionDecision"] = d
			if _, ok := f["permissionDecisionReason"]; !ok && reason != "" {
				f["permissionDecisionReason"] = reason
			}
		}
		return &RawSpecificOutput{Fields: f}, nil
	case nil:
	default:
		return spec, nil // wireSpecific reports the unsupported type
	}
	if p.PermissionDecision == "" {
		p.PermissionDecision = d
		if p.PermissionDecisionReason == "" {
			p.PermissionDecisionReason = reason
		}
	}
	return p, nil
}

// isNilPointer reports whether spec is a typed nil pointer, such as (*PreToolUseOutput)(nil): it
// is written like no hookSpecificOutput at all.
func isNilPointer(spec HookSpecificOutput) bool {
	v := reflect.ValueOf(spec)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// CheckWireOutput reports whether o can be sent for event e: the error WireOutput(e, o) would
// return, or nil. "No opinion" (nil, a nil *SyncHookOutput), the most common answer, is valid for
// every event; the other common answers (a *SyncHookOutput whose decision needs no rewriting, with
// no specific output or one of the plain ones) are checked without building the wire struct, whose
// only failures for them are these checks; anything else goes through WireOutput itself.
func CheckWireOutput(e HookEvent, o HookOutput) error {
	s, ok := o.(*SyncHookOutput)
	if o == nil || ok && s == nil {
		return nil // WireOutput's {} (without building it)
	}
	if !ok {
		_, err := WireOutput(e, o)
		return err
	}
	switch d, ok := s.Decision.Normalize(); {
	case !ok, d == DecisionAsk, d == DecisionDefer:
		_, err := WireOutput(e, o) // an error, or a rewrite into permissionDecision
		return err
	}
	var forEvent bool
	switch sp := s.HookSpecificOutput.(type) {
	case nil:
		return nil
	case *PreToolUseOutput:
		if sp == nil {
			return nil
		}
		if sp.PermissionDecision != "" {
			if _, ok := sp.PermissionDecision.Normalize(); !ok {
				_, err := WireOutput(e, o)
				return err
			}
		}
		forEvent = sp.ForEvent(e)
	case *ContextOutput:
		forEvent = sp == nil || sp.ForEvent(e)
	case *PostToolUseOutput:
		forEvent = sp == nil || sp.ForEvent(e)
	case *UserPromptSubmitOutput:
		forEvent = sp == nil || sp.ForEvent(e)
	case *SessionStartOutput:
		forEvent = sp == nil || sp.ForEvent(e)
	}
	if forEvent {
		return nil
	}
	_, err := WireOutput(e, o) // the error it gives, or a type not listed above
	return err
}

// MarshalWireOutput is WireOutput followed by json.Marshal.
func MarshalWireOutput(e HookEvent, o HookOutput) ([]byte, error) {
	w, err := WireOutput(e, o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

func wireSpecific(e HookEvent, spec HookSpecificOutput) (any, error) {
	if !spec.ForEvent(e) {
		return nil, &OutputError{Event: e, Reason: fmt.Sprintf("hookSpecificOutput %T belongs to another event", spec)}
	}
	type head struct {
		HookEventName HookEvent `json:"hookEventName"`
	}
	h := head{e}
	switch v := spec.(type) {
	case *PreToolUseOutput:
		if v == nil {
			return nil, nil
		}
		c := *v
		if c.PermissionDecision != "" {
			d, ok := c.PermissionDecision.Normalize()
			if !ok {
				return nil, &OutputError{Event: e, Reason: fmt.Sprintf("unknown permission decision %q", v.PermissionDecision)}
			}
			c.PermissionDecision = d
		}
		return struct {
			head
			*PreToolUseOutput
		}{h, &c}, nil
	case *ModelSwitchOutput:
		if v == nil {
			return nil, nil
		}
		c := *v
		if c.PermissionDecision != "" {
			d, ok := c.PermissionDecision.Normalize()
			if !ok || (d != DecisionAllow && d != DecisionDeny) {
				return nil, &OutputError{Event: e, Reason: fmt.Sprintf("invalid model switch decision %q", v.PermissionDecision)}
			}
			c.PermissionDecision = d
		}
		return struct {
			head
			*ModelSwitchOutput
		}{h, &c}, nil
	case *PermissionRequestOutput:
		if v == nil {
			return nil, nil
		}
		if v.Decision != nil && v.Decision.Behavior != PermissionAllow && v.Decision.Behavior != PermissionDeny {
			return nil, &OutputError{Event: e, Reason: fmt.Sprintf("unknown permission behavior %q", v.Decision.Behavior)}
		}
		return struct {
			head
			*PermissionRequestOutput
		}{h, v}, nil
	case *PostToolUseOutput:
		return struct {
			head
			*PostToolUseOutput
		}{h, v}, nil
	case *UserPromptSubmitOutput:
		return struct {
			head
			*UserPromptSubmitOutput
		}{h, v}, nil
	case *SessionStartOutput:
		return struct {
			head
			*SessionStartOutput
		}{h, v}, nil
	case *PermissionDeniedOutput:
		return struct {
			head
			*PermissionDeniedOutput
		}{h, v}, nil
	case *MessageDisplayOutput:
		return struct {
			head
			*MessageDisplayOutput
		}{h, v}, nil
	case *ContextOutput:
		return struct {
			head
			*ContextOutput
		}{h, v}, nil
	case *RawSpecificOutput:
		m := make(map[string]any, len(v.Fields)+1)
		for k, x := range v.Fields {
			m[k] = x
		}
		m["hookEventName"] = e
		return m, nil
	}
	return nil, &OutputError{Event: e, Reason: fmt.Sprintf("unsupported hookSpecificOutput type %T", spec)}
}

// DenyOutput returns event e's own denial with reason: the answer the SDK sends when a handler of
// an event that guards an action fails (error, panic, timeout, invalid output). For PreToolUse it
// is permissionDecision deny; for PermissionRequest a deny decision; for PreModelSwitch a deny; for
// UserPromptSubmit and UserPromptExpansion a block. For other events it returns nil: they fail open.
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
