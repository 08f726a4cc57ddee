package shared_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// wireOutputCorpus is every combination of a set of outputs and every event, plus odd strings:
// what AppendWireOutput must write exactly as MarshalWireOutput does.
func wireOutputCorpus() []shared.HookOutput {
	texts := []string{"", "plain reason", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\x01",
		"héllo wörld ✓", "fish & chips", "a > b", "del\x7f", "line\u2028sep\u2029", "bad \xff utf8", "emoji 🎉"}
	var outs []shared.HookOutput
	outs = append(outs, nil, (*shared.SyncHookOutput)(nil), shared.SyncHookOutput{}, &shared.SyncHookOutput{},
		&shared.AsyncHookOutput{}, shared.AsyncHookOutput{AsyncTimeout: 5},
		shared.Allow(), shared.Deny("no"), shared.Ask("why"), shared.Block("stop it"), shared.Stop("halt"),
		shared.AddContext("ctx"))
	for _, d := range []shared.Decision{"", "allow", "APPROVE", " deny ", "block", "ask", "defer", "maybe"} {
		for _, txt := range texts {
			outs = append(outs,
				&shared.SyncHookOutput{Decision: d, Reason: txt},
				&shared.SyncHookOutput{Decision: d, SystemMessage: txt, SuppressOutput: true, Continue: shared.ContinueYes},
				&shared.SyncHookOutput{Continue: shared.ContinueNo, StopReason: txt, Decision: d},
				&shared.SyncHookOutput{Continue: shared.Continue(7)},
				&shared.SyncHookOutput{Decision: d, HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: d, PermissionDecisionReason: txt}},
				&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: d, AdditionalContext: txt}},
				&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: d, UpdatedInput: shared.ToolInput{"command": txt}}},
				&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: d, UpdatedInput: shared.ToolInput{}}},
				&shared.SyncHookOutput{Decision: d, HookSpecificOutput: &shared.ContextOutput{AdditionalContext: txt}},
				&shared.SyncHookOutput{HookSpecificOutput: (*shared.PreToolUseOutput)(nil)},
				&shared.SyncHookOutput{HookSpecificOutput: (*shared.ContextOutput)(nil)},
				&shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: txt}},
				&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"x": txt}}},
			)
		}
	}
	return outs
}

// TestAppendWireOutputIsMarshalWireOutput: for every event and output of the corpus, the appended
// bytes are exactly MarshalWireOutput's, errors included, and dst's content is kept.
func TestAppendWireOutputIsMarshalWireOutput(t *testing.T) {
	events := append(shared.AllHookEvents(), "SomeFutureEvent", `Odd"Event<>`)
	n := 0
	for _, e := range events {
		for i, o := range wireOutputCorpus() {
			want, wantErr := shared.MarshalWireOutput(e, o)
			got, err := shared.AppendWireOutput([]byte("head:"), e, o)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%s #%d %#v: error %v, MarshalWireOutput's %v", e, i, o, err, wantErr)
			}
			if err != nil {
				var oe *shared.OutputError
				if !errors.As(err, &oe) || err.Error() != wantErr.Error() {
					t.Errorf("%s #%d: error %v, want %v", e, i, err, wantErr)
				}
				if string(got) != "head:" {
					t.Errorf("%s #%d: dst changed on error: %q", e, i, got)
				}
				continue
			}
			if diff := cmp.Diff("head:"+string(want), string(got)); diff != "" {
				t.Errorf("%s #%d %#v (-MarshalWireOutput +AppendWireOutput):\n%s", e, i, o, diff)
			}
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d outputs compared", n)
	}
}

// TestAppendWireOutputCommonAnswersDoNotAllocate: the answers hooks give most often are written
// without an allocation (the fast path is taken).
func TestAppendWireOutputCommonAnswersDoNotAllocate(t *testing.T) {
	cases := []struct {
		e shared.HookEvent
		o shared.HookOutput
	}{
		{shared.HookEventPreToolUse, nil},
		{shared.HookEventPreToolUse, shared.Allow()},
		{shared.HookEventPreToolUse, shared.Deny("outside the project")},
		{shared.HookEventPostToolUse, shared.Block("fix the lint errors")},
		{shared.HookEventPostToolUse, shared.AddContext("took 3 s")},
		{shared.HookEventStop, &shared.SyncHookOutput{Continue: shared.ContinueNo, StopReason: "budget"}},
	}
	buf := make([]byte, 0, 1024)
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%T", c.e, c.o), func(t *testing.T) {
			allocs := testing.AllocsPerRun(100, func() {
				if _, err := shared.AppendWireOutput(buf[:0], c.e, c.o); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations, want 0", allocs)
			}
		})
	}
}
