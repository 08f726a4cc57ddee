package hooks

import (
	"fmt"
	"reflect"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// normalize is Normalize for a synchronous output s.
func normalize(e shared.HookEvent, s *shared.SyncHookOutput) (*shared.SyncHookOutput, error) {
	c := *s
	c.Decision, c.UpdatedInput, c.HookSpecificOutput = "", nil, nil
	d, ok := s.Decision.Normalize()
	if !ok {
		return nil, outErr(e, "unknown decision %q", s.Decision)
	}
	spec, err := specificOf(e, s.HookSpecificOutput)
	if err != nil {
		return nil, err
	}
	if (d == shared.DecisionAsk || d == shared.DecisionDefer) && e != shared.HookEventPreToolUse {
		return nil, outErr(e, "decision %q is only meaningful for PreToolUse", s.Decision)
	}
	if s.UpdatedInput != nil && e != shared.HookEventPreToolUse && e != shared.HookEventPermissionRequest {
		return nil, outErr(e, "updatedInput (AllowWithInput) is only meaningful for PreToolUse and PermissionRequest")
	}
	switch e {
	case shared.HookEventPreToolUse:
		err = normalizePreToolUse(e, s, d, spec, &c)
	case shared.HookEventPermissionRequest:
		err = normalizePermissionRequest(e, s, d, spec, &c)
	case shared.HookEventPreModelSwitch:
		err = normalizeModelSwitch(e, s, d, spec, &c)
	case shared.HookEventPreSkillShellCommand:
		// Only the top-level decision (approve / block). The CLI also reads a hookSpecificOutput
		// of PreToolUse's shape, where any answer but allow keeps the command from running; the
		// SDK takes none, so that one form carries the verdict: a handler's output of another
		// shape denies (fail-closed).
		if spec != nil {
			err = outErr(e, "hookSpecificOutput %T is not read on PreSkillShellCommand: answer shared.Deny, shared.Block or shared.Allow", spec)
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
			err = outErr(e, "unsupported hookSpecificOutput type %T", spec)
		}
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// specificOf returns the hookSpecificOutput spec of an answer for e as normalize reads it: nil for
// a typed nil (an error on an event that guards an action), a raw output read into e's typed one
// (kept raw where it cannot be, unless e guards an action), and an error for another event's.
func specificOf(e shared.HookEvent, spec shared.HookSpecificOutput) (shared.HookSpecificOutput, error) {
	guard := e.GuardsAction()
	if spec != nil && isNilValue(spec) {
		if guard {
			return nil, outErr(e, typedNilReason, fmt.Sprintf("hookSpecificOutput %T", spec))
		}
		return nil, nil
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
	return spec, nil
}

// normalizePreToolUse sets c's PreToolUse verdict from s (its decision d, its spec).
func normalizePreToolUse(e shared.HookEvent, s *shared.SyncHookOutput, d shared.Decision, spec shared.HookSpecificOutput, c *shared.SyncHookOutput) error {
	p := shared.PreToolUseOutput{}
	switch sp := spec.(type) {
	case nil:
	case *shared.PreToolUseOutput:
		p = *sp
		if p.PermissionDecision != "" {
			pd, ok := p.PermissionDecision.Normalize()
			if !ok {
				return outErr(e, "unknown permission decision %q", sp.PermissionDecision)
			}
			p.PermissionDecision = pd
		}
	case *shared.ContextOutput:
		p.AdditionalContext = sp.AdditionalContext
	default:
		return outErr(e, "unsupported hookSpecificOutput type %T", spec)
	}
	if d != shared.DecisionNone && rank(d) > rank(p.PermissionDecision) {
		p.PermissionDecision, p.PermissionDecisionReason = d, s.Reason
	}
	if s.UpdatedInput != nil {
		if p.UpdatedInput != nil {
			return outErr(e, "two updatedInputs in one answer")
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
	return nil
}

// normalizePermissionRequest sets c's PermissionRequest verdict from s (its decision d, its spec).
func normalizePermissionRequest(e shared.HookEvent, s *shared.SyncHookOutput, d shared.Decision, spec shared.HookSpecificOutput, c *shared.SyncHookOutput) error {
	r, err := permissionDecision(e, spec)
	if err != nil {
		return err
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
			return outErr(e, "updatedInput without an allow")
		case r.Behavior == shared.PermissionAllow && r.UpdatedInput != nil:
			return outErr(e, "two updatedInputs in one answer")
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
	return nil
}

// permissionDecision returns a copy of a PermissionRequest spec's decision (nil: none).
func permissionDecision(e shared.HookEvent, spec shared.HookSpecificOutput) (*shared.PermissionResult, error) {
	switch sp := spec.(type) {
	case nil:
		return nil, nil
	case *shared.PermissionRequestOutput:
		if sp.Decision == nil {
			return nil, nil
		}
		if b := sp.Decision.Behavior; b != shared.PermissionAllow && b != shared.PermissionDeny {
			return nil, outErr(e, "unknown permission behavior %q", b)
		}
		cp := *sp.Decision
		return &cp, nil
	}
	return nil, outErr(e, "unsupported hookSpecificOutput type %T", spec)
}

// normalizeModelSwitch sets c's PreModelSwitch verdict from s (its decision d, its spec).
func normalizeModelSwitch(e shared.HookEvent, s *shared.SyncHookOutput, d shared.Decision, spec shared.HookSpecificOutput, c *shared.SyncHookOutput) error {
	m := shared.ModelSwitchOutput{}
	switch sp := spec.(type) {
	case nil:
	case *shared.ModelSwitchOutput:
		m = *sp
		if m.PermissionDecision != "" {
			pd, ok := m.PermissionDecision.Normalize()
			if !ok || (pd != shared.DecisionAllow && pd != shared.DecisionDeny) {
				return outErr(e, "invalid model switch decision %q", sp.PermissionDecision)
			}
			m.PermissionDecision = pd
		}
	default:
		return outErr(e, "unsupported hookSpecificOutput type %T", spec)
	}
	if d != shared.DecisionNone && rank(d) > rank(m.PermissionDecision) {
		m.PermissionDecision, m.PermissionDecisionReason = d, s.Reason
	}
	c.Reason = ""
	if m != (shared.ModelSwitchOutput{}) {
		c.HookSpecificOutput = &m
	} else if d == shared.DecisionNone {
		c.Reason = s.Reason
	}
	return nil
}

// Rank orders permission decisions (allow < ask < defer < deny; 0 for none): a stronger one
// replaces a weaker one, in a handler's answer and across a chain's (merge.go's merger).
func rank(d shared.Decision) int {
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
