package hooks

import (
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

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
	spec := specificType(e)
	if err := json.Unmarshal(b, spec, json.RejectUnknownMembers(true)); err != nil {
		return nil, outErr(e, "raw hookSpecificOutput the SDK cannot read as the CLI would: %v", err)
	}
	if err := checkWords(e, spec); err != nil {
		return nil, err
	}
	return spec, nil
}

// specificType returns a new, empty typed hookSpecificOutput of event e.
func specificType(e shared.HookEvent) shared.HookSpecificOutput {
	switch e {
	case shared.HookEventPreToolUse:
		return &shared.PreToolUseOutput{}
	case shared.HookEventPermissionRequest:
		return &shared.PermissionRequestOutput{}
	case shared.HookEventPreModelSwitch:
		return &shared.ModelSwitchOutput{}
	case shared.HookEventUserPromptSubmit:
		return &shared.UserPromptSubmitOutput{}
	case shared.HookEventPostToolUse:
		return &shared.PostToolUseOutput{}
	case shared.HookEventSessionStart:
		return &shared.SessionStartOutput{}
	case shared.HookEventPermissionDenied:
		return &shared.PermissionDeniedOutput{}
	case shared.HookEventMessageDisplay:
		return &shared.MessageDisplayOutput{}
	}
	return &shared.ContextOutput{}
}

// checkWords reports a decision word in spec, read from a raw output of e, that the CLI does not
// read.
func checkWords(e shared.HookEvent, spec shared.HookSpecificOutput) error {
	word := func(w shared.Decision, allowed ...shared.Decision) error {
		if w == "" || slices.Contains(allowed, w) {
			return nil
		}
		return outErr(e, "raw hookSpecificOutput has the word %q, which the CLI does not read", w)
	}
	switch v := spec.(type) {
	case *shared.PreToolUseOutput:
		return word(v.PermissionDecision, shared.DecisionAllow, shared.DecisionDeny, shared.DecisionAsk, shared.DecisionDefer)
	case *shared.ModelSwitchOutput:
		return word(v.PermissionDecision, shared.DecisionAllow, shared.DecisionDeny)
	case *shared.PermissionRequestOutput:
		if v.Decision == nil {
			return nil
		}
		if err := word(shared.Decision(v.Decision.Behavior), shared.Decision(shared.PermissionAllow), shared.Decision(shared.PermissionDeny)); err != nil {
			return err
		}
		if v.Decision.Behavior == "" {
			return outErr(e, "raw hookSpecificOutput decision without a behavior")
		}
	}
	return nil
}
