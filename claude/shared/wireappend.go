package shared

import (
	"encoding/json"

	"github.com/hookwire/agent-sdk-go/internal/jsonstr"
)

// AppendWireOutput appends to dst the JSON of WireOutput(e, o), byte for byte what json.Marshal
// writes for it, and returns the extended buffer. It is the allocation-free way to write a hook's
// answer: the common answers (no opinion; a top-level decision, reason, system message, continue
// and stop reason; a PreToolUse permission decision with its reason and additional context; an
// additional context) are written directly, everything else through WireOutput and json.Marshal.
// On error dst is returned unchanged with WireOutput's *OutputError.
func AppendWireOutput(dst []byte, e HookEvent, o HookOutput) ([]byte, error) {
	if b, ok := appendWireFast(dst, e, o); ok {
		return b, nil
	}
	w, err := WireOutput(e, o)
	if err != nil {
		return dst, err
	}
	b, err := json.Marshal(w)
	if err != nil {
		return dst, &OutputError{Event: e, Reason: err.Error()}
	}
	return append(dst, b...), nil
}

// appendWireFast writes the common outputs; ok is false (and dst unchanged in content) for any
// output it does not write exactly as WireOutput and json.Marshal would, or that is an error.
func appendWireFast(dst []byte, e HookEvent, o HookOutput) (_ []byte, ok bool) {
	var s *SyncHookOutput
	switch v := o.(type) {
	case nil:
		return append(dst, "{}"...), true
	case *SyncHookOutput:
		if v == nil {
			return append(dst, "{}"...), true
		}
		s = v
	case SyncHookOutput:
		s = &v
	default:
		return dst, false
	}
	var decision string
	switch d, ok := s.Decision.Normalize(); {
	case !ok:
		return dst, false
	case d == DecisionAllow:
		decision = string(DecisionApprove)
	case d == DecisionDeny:
		decision = string(DecisionBlock)
	case d != DecisionNone:
		return dst, false // ask and defer move into permissionDecision
	}
	// The event's own fields, checked before anything is written.
	var pre *PreToolUseOutput
	var ctx *ContextOutput
	var permission Decision
	switch v := s.HookSpecificOutput.(type) {
	case nil:
	case *PreToolUseOutput:
		if v != nil {
			if e != HookEventPreToolUse || len(v.UpdatedInput) > 0 {
				return dst, false
			}
			if v.PermissionDecision != "" {
				d, ok := v.PermissionDecision.Normalize()
				if !ok || d == DecisionNone {
					return dst, false
				}
				permission = d
			}
			pre = v
		}
	case *ContextOutput:
		ctx = v
	default:
		return dst, false
	}
	if !plainEvent(e) {
		return dst, false
	}

	start := len(dst)
	b := append(dst, '{')
	field := func(name string) {
		if len(b) > start+1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
	}
	switch s.Continue {
	case ContinueUnset:
	case ContinueYes:
		field("continue")
		b = append(b, "true"...)
	case ContinueNo:
		field("continue")
		b = append(b, "false"...)
	default:
		return dst[:start], false
	}
	str := func(name, v string) {
		if v != "" {
			field(name)
			b = jsonstr.Append(b, v)
		}
	}
	str("stopReason", s.StopReason)
	if s.SuppressOutput {
		field("suppressOutput")
		b = append(b, "true"...)
	}
	str("decision", decision)
	str("reason", s.Reason)
	str("systemMessage", s.SystemMessage)
	if pre != nil || ctx != nil {
		field("hookSpecificOutput")
		b = append(b, `{"hookEventName":`...)
		b = jsonstr.Append(b, string(e))
		if pre != nil {
			if permission != "" {
				b = append(b, `,"permissionDecision":`...)
				b = jsonstr.Append(b, string(permission))
			}
			if pre.PermissionDecisionReason != "" {
				b = append(b, `,"permissionDecisionReason":`...)
				b = jsonstr.Append(b, pre.PermissionDecisionReason)
			}
			if pre.AdditionalContext != "" {
				b = append(b, `,"additionalContext":`...)
				b = jsonstr.Append(b, pre.AdditionalContext)
			}
		} else if ctx.AdditionalContext != "" {
			b = append(b, `,"additionalContext":`...)
			b = jsonstr.Append(b, ctx.AdditionalContext)
		}
		b = append(b, '}')
	}
	return append(b, '}'), true
}

// plainEvent reports whether e's name needs no escaping in JSON (every known event's does not).
func plainEvent(e HookEvent) bool { return jsonstr.Plain(string(e)) }
