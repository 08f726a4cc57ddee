package shared

import (
	"encoding/json"
	"fmt"
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

func (e *OutputError) Error() string {
	return fmt.Sprintf("shared: invalid hook output for %s: %s", e.Event, e.Reason)
}

// WireOutput returns the answer the CLI reads for event e: decisions normalised to the CLI's words
// (approve/block at the top level, allow/deny/ask/defer in permissionDecision), hookEventName set
// to e. A nil o gives the empty answer {}. It returns an *OutputError for an output that does not
// fit e.
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
		p := &PreToolUseOutput{}
		if cur, ok := spec.(*PreToolUseOutput); ok && cur != nil {
			*p = *cur
		}
		if p.PermissionDecision == "" {
			p.PermissionDecision = d
			if p.PermissionDecisionReason == "" {
				p.PermissionDecisionReason = s.Reason
			}
		}
		spec = p
	}
	if spec != nil {
		hs, err := wireSpecific(e, spec)
		if err != nil {
			return nil, err
		}
		w.HookSpecificOutput = hs
	}
	return w, nil
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
