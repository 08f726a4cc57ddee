package hooks_test

import (
	"context"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// CheckWireOutput agrees with WireOutput on every event for the outputs it checks itself and for
// those it hands on.
func TestCheckWireOutputAgreesWithWireOutput(t *testing.T) {
	specs := []shared.HookSpecificOutput{
		nil,
		(*shared.PreToolUseOutput)(nil),
		&shared.PreToolUseOutput{},
		&shared.PreToolUseOutput{PermissionDecision: shared.DecisionAllow},
		&shared.PreToolUseOutput{PermissionDecision: "bogus"},
		&shared.PreToolUseOutput{PermissionDecision: shared.DecisionDeny, UpdatedInput: shared.ToolInput{"a": 1.0}},
		(*shared.ContextOutput)(nil),
		&shared.ContextOutput{AdditionalContext: "c"},
		(*shared.PostToolUseOutput)(nil),
		&shared.PostToolUseOutput{AdditionalContext: "c"},
		(*shared.UserPromptSubmitOutput)(nil),
		&shared.UserPromptSubmitOutput{AdditionalContext: "c"},
		(*shared.SessionStartOutput)(nil),
		&shared.SessionStartOutput{AdditionalContext: "c"},
		&shared.ModelSwitchOutput{PermissionDecision: shared.DecisionAsk},
		&shared.PermissionRequestOutput{},
	}
	decisions := []shared.Decision{"", shared.DecisionAllow, shared.DecisionDeny, shared.DecisionAsk, shared.DecisionDefer, shared.DecisionApprove, shared.DecisionBlock, "bogus"}
	var outs []shared.HookOutput
	for _, sp := range specs {
		for _, d := range decisions {
			outs = append(outs, &shared.SyncHookOutput{Decision: d, HookSpecificOutput: sp}, shared.SyncHookOutput{Decision: d, HookSpecificOutput: sp})
		}
	}
	outs = append(outs, nil, (*shared.SyncHookOutput)(nil), shared.Allow(), shared.AsyncHookOutput{}, &shared.AsyncHookOutput{})
	for _, e := range shared.AllHookEvents() {
		for i, o := range outs {
			_, werr := hooks.AnswerOf(e, o)
			verr := hooks.Check(e, o)
			if (werr == nil) != (verr == nil) {
				t.Errorf("%s, output %d (%#v): CheckWireOutput %v, WireOutput %v", e, i, o, verr, werr)
			}
		}
	}
}

// "No opinion" (a typed nil is that only on events that do not guard an action) is the answer of most handlers (audit, metrics, a policy that lets a call through):
// checking it builds nothing.
func TestCheckWireOutputNoOpinionAllocatesNothing(t *testing.T) {
	for _, o := range []shared.HookOutput{nil, (*shared.SyncHookOutput)(nil)} {
		if n := testing.AllocsPerRun(100, func() { _ = hooks.Check(shared.HookEventPostToolUse, o) }); n != 0 {
			t.Errorf("CheckWireOutput(%#v): %v allocations, want 0", o, n)
		}
	}
}

// What CheckWireOutput accepts depends on whether the event guards an action: a typed nil and an
// async answer are refused there, accepted elsewhere.
func TestCheckWireOutputGuardingEvents(t *testing.T) {
	work := shared.Async(0, func(context.Context) (shared.HookOutput, error) { return nil, nil })
	for _, o := range []shared.HookOutput{(*shared.SyncHookOutput)(nil), (*shared.AsyncHookOutput)(nil), work, shared.AsyncHookOutput{Async: true}} {
		for _, e := range shared.AllHookEvents() {
			err := hooks.Check(e, o)
			if (err != nil) != e.GuardsAction() {
				t.Errorf("CheckWireOutput(%s, %#v) = %v; want an error exactly on guarding events", e, o, err)
			}
		}
	}
}
