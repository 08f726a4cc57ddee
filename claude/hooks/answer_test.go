package hooks_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// jsonDiff compares two JSON texts semantically (key order and spacing do not matter).
func jsonDiff(t *testing.T, want string, got []byte) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad golden JSON %s: %v", want, err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %s: %v", got, err)
	}
	return cmp.Diff(w, g)
}

func TestMarshalWireOutput(t *testing.T) {
	type E = shared.HookEvent
	tests := []struct {
		name  string
		event E
		out   shared.HookOutput
		want  string
	}{
		{"nil", shared.HookEventPreToolUse, nil, `{}`},
		{"nil for Stop", shared.HookEventStop, nil, `{}`},
		{"zero sync", shared.HookEventPreToolUse, shared.SyncHookOutput{}, `{}`},
		{"zero sync pointer", shared.HookEventPostToolUse, &shared.SyncHookOutput{}, `{}`},
		{"Deny", shared.HookEventPreToolUse, shared.Deny("x"),
			`{"decision":"block","reason":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`},
		{"Allow", shared.HookEventPreToolUse, shared.Allow(),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"AllowWithInput", shared.HookEventPreToolUse, shared.AllowWithInput(shared.ToolInput{"command": "echo rewritten"}),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}`},
		{"Ask", shared.HookEventPreToolUse, shared.Ask("please ask"),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"please ask"}}`},
		{"permission decision dialect", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "Block", PermissionDecisionReason: "r"}},
			`{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{"permission decision defer", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: shared.DecisionDefer}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`},
		{"top-level allow is PreToolUse's permissionDecision", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: shared.DecisionAllow},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"top-level yes", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: "YES"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"legacy approve", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: shared.DecisionApprove},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"approve for Stop", shared.HookEventStop, &shared.SyncHookOutput{Decision: shared.DecisionApprove},
			`{"decision":"approve"}`},
		{"the stronger of the two decisions of one answer", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{Decision: shared.DecisionAllow, HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: shared.DecisionDeny, PermissionDecisionReason: "r"}},
			`{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{"a top-level block of PermissionRequest is its deny", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{Decision: shared.DecisionBlock, Reason: "r", HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionAllow}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"r"}}}`},
		{"a top-level block of PreModelSwitch is its deny", shared.HookEventPreModelSwitch, shared.Block("r"),
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{"legacy deny", shared.HookEventPostToolUse, &shared.SyncHookOutput{Decision: shared.DecisionDeny, Reason: "post block reason"},
			`{"decision":"block","reason":"post block reason"}`},
		{"Block for Stop", shared.HookEventStop, shared.Block("keep going please"),
			`{"decision":"block","reason":"keep going please"}`},
		{"continue unset omitted", shared.HookEventPostToolUse, &shared.SyncHookOutput{Continue: shared.ContinueUnset, SystemMessage: "m"},
			`{"systemMessage":"m"}`},
		{"continue no", shared.HookEventPostToolUse, &shared.SyncHookOutput{Continue: shared.ContinueNo},
			`{"continue":false}`},
		{"continue yes", shared.HookEventPostToolUse, &shared.SyncHookOutput{Continue: shared.ContinueYes},
			`{"continue":true}`},
		{"Stop", shared.HookEventPreToolUse, shared.Stop("enough"),
			`{"continue":false,"stopReason":"enough"}`},
		{"all top-level fields", shared.HookEventPostToolUse,
			shared.SyncHookOutput{Continue: shared.ContinueYes, StopReason: "s", SuppressOutput: true, Decision: "block", Reason: "r", SystemMessage: "m"},
			`{"continue":true,"stopReason":"s","suppressOutput":true,"decision":"block","reason":"r","systemMessage":"m"}`},
		{"top-level ask moves into permissionDecision", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: shared.DecisionAsk, Reason: "why"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why"}}`},
		{"top-level defer moves into permissionDecision", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: "Defer"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`},
		{"top-level ask keeps the specific fields", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{Decision: shared.DecisionAsk, HookSpecificOutput: &shared.PreToolUseOutput{AdditionalContext: "ctx", UpdatedInput: shared.ToolInput{"a": "b"}}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","additionalContext":"ctx","updatedInput":{"a":"b"}}}`},
		{"top-level ask keeps a ContextOutput's context", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{Decision: shared.DecisionAsk, Reason: "r", HookSpecificOutput: &shared.ContextOutput{AdditionalContext: "ctx"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r","additionalContext":"ctx"}}`},
		{"top-level ask with a raw specific output", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{Decision: shared.DecisionAsk, HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"additionalContext": "c"}}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","additionalContext":"c"}}`},
		{"raw deny of PreToolUse", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "deny", "hookEventName": "PreToolUse"}}},
			`{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`},
		{"raw rewrite of PreToolUse", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"updatedInput": map[string]any{"command": "echo safe"}}}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe"}}}`},
		{"raw deny of PermissionRequest", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"decision": map[string]any{"behavior": "deny", "message": "m"}}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}`},
		{"raw deny of PreModelSwitch", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "deny"}}},
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny"}}`},
		{"PermissionRequest allow with updatedInput", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionAllow, UpdatedInput: shared.ToolInput{"command": "ls"}}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`},
		{"PermissionRequest deny with interrupt", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no", Interrupt: true}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no","interrupt":true}}}`},
		{"PermissionRequest without decision", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{}},
			`{}`},
		{"async", shared.HookEventPostToolUse, shared.AsyncHookOutput{Async: true, AsyncTimeout: 5000},
			`{"async":true,"asyncTimeout":5000}`},
		{"async pointer without timeout", shared.HookEventPostToolUse, &shared.AsyncHookOutput{Async: true},
			`{"async":true}`},
		{"nil async pointer", shared.HookEventPostToolUse, (*shared.AsyncHookOutput)(nil), `{}`},
		{"nil sync pointer for Stop", shared.HookEventStop, (*shared.SyncHookOutput)(nil), `{}`},
		{"nil specific output of another event for Stop", shared.HookEventStop,
			&shared.SyncHookOutput{HookSpecificOutput: (*shared.PostToolUseOutput)(nil)}, `{}`},
		{"raw specific output", shared.HookEventPostToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"futureField": []any{"a"}, "hookEventName": "Wrong"}}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","futureField":["a"]}}`},
		{"raw specific output without fields", shared.HookEventStop,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{}},
			`{}`},
		{"AddContext for Stop", shared.HookEventStop, shared.AddContext("STOP-CTX"),
			`{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"STOP-CTX"}}`},
		{"AddContext for PostToolBatch", shared.HookEventPostToolBatch, shared.AddContext("PTB-CTX"),
			`{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"PTB-CTX"}}`},
		{"PostToolUse output", shared.HookEventPostToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "c", UpdatedToolOutput: map[string]any{"stdout": "REPLACED"}, UpdatedMCPToolOutput: "m"}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c","updatedToolOutput":{"stdout":"REPLACED"},"updatedMCPToolOutput":"m"}}`},
		{"UserPromptSubmit output", shared.HookEventUserPromptSubmit,
			&shared.SyncHookOutput{Decision: "block", Reason: "prompt blocked", HookSpecificOutput: &shared.UserPromptSubmitOutput{SessionTitle: "My Title", SuppressOriginalPrompt: true, AdditionalContext: "UPS"}},
			`{"decision":"block","reason":"prompt blocked","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","sessionTitle":"My Title","suppressOriginalPrompt":true,"additionalContext":"UPS"}}`},
		{"SessionStart output", shared.HookEventSessionStart,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.SessionStartOutput{AdditionalContext: "ctx", WatchPaths: []string{"/p/a"}}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx","watchPaths":["/p/a"]}}`},
		{"PermissionDenied output", shared.HookEventPermissionDenied,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionDeniedOutput{Retry: true}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}`},
		{"PreModelSwitch deny", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: "block", PermissionDecisionReason: "no switching"}},
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"no switching"}}`},
		{"MessageDisplay output", shared.HookEventMessageDisplay,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.MessageDisplayOutput{DisplayContent: "REDACTED DISPLAY"}},
			`{"hookSpecificOutput":{"hookEventName":"MessageDisplay","displayContent":"REDACTED DISPLAY"}}`},
		{"nil PostToolUseOutput pointer", shared.HookEventPostToolUse,
			&shared.SyncHookOutput{Reason: "r", HookSpecificOutput: (*shared.PostToolUseOutput)(nil)},
			`{"reason":"r"}`},
		{"nil RawSpecificOutput pointer", shared.HookEventStop,
			&shared.SyncHookOutput{HookSpecificOutput: (*shared.RawSpecificOutput)(nil)},
			`{}`},
		{"nil ContextOutput pointer", shared.HookEventStop,
			&shared.SyncHookOutput{HookSpecificOutput: (*shared.ContextOutput)(nil)},
			`{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hooks.Marshal(tc.event, tc.out)
			if err != nil {
				t.Fatalf("MarshalWireOutput(%s): %v", tc.event, err)
			}
			if diff := jsonDiff(t, tc.want, got); diff != "" {
				t.Errorf("MarshalWireOutput(%s) mismatch (-want +got):\n%s\ngot: %s", tc.event, diff, got)
			}
			// The JSON is the WireOutput value, marshalled.
			w, err := hooks.AnswerOf(tc.event, tc.out)
			if err != nil {
				t.Fatalf("WireOutput: %v", err)
			}
			b, _ := json.Marshal(w)
			if diff := jsonDiff(t, tc.want, b); diff != "" {
				t.Errorf("json.Marshal(WireOutput(...)) mismatch (-want +got):\n%s", diff)
			}
			// The transport's encoder (sorted keys, omitempty as encoding/json read it) writes the
			// same answer.
			b1, err := json.Marshal(w, json.Deterministic(true), jsonv1.OmitEmptyWithLegacySemantics(true))
			if err != nil {
				t.Fatal(err)
			}
			if diff := jsonDiff(t, tc.want, b1); diff != "" {
				t.Errorf("the transport's encoding of WireOutput(...) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The hookEventName written is always the event answered, whatever the output type. (A raw
// output naming another event on a guarding event is refused: TestWireOutputErrors.)
func TestWireOutputEventNameIsTheAnsweredEvent(t *testing.T) {
	for _, e := range shared.AllHookEvents() {
		for name, spec := range map[string]shared.HookSpecificOutput{
			"context": &shared.ContextOutput{AdditionalContext: "c"},
			"raw":     &shared.RawSpecificOutput{Fields: map[string]any{"hookEventName": "PostToolUse", "futureField": 1}},
		} {
			if e.GuardsAction() && (name == "raw" || e == shared.HookEventPermissionRequest || e == shared.HookEventPreModelSwitch || e == shared.HookEventPreSkillShellCommand) {
				continue
			}
			t.Run(string(e)+"/"+name, func(t *testing.T) {
				b, err := hooks.Marshal(e, &shared.SyncHookOutput{HookSpecificOutput: spec})
				if err != nil {
					t.Fatal(err)
				}
				var got struct {
					HSO struct {
						HookEventName string `json:"hookEventName"`
					} `json:"hookSpecificOutput"`
				}
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				if got.HSO.HookEventName != string(e) {
					t.Errorf("hookEventName = %q, want %q (json %s)", got.HSO.HookEventName, e, b)
				}
			})
		}
	}
}

// customSpecific is a HookSpecificOutput this SDK has no encoder for.
type customSpecific struct{}

func (customSpecific) ForEvent(shared.HookEvent) bool { return true }

// customOutput is a HookOutput that is neither sync nor async.
type customOutput struct{ shared.HookOutput }

func TestWireOutputErrors(t *testing.T) {
	tests := []struct {
		name   string
		event  shared.HookEvent
		out    shared.HookOutput
		wantIn string
	}{
		{"specific output of another event", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "c"}}, "another event"},
		{"PreToolUseOutput answering PostToolUse", shared.HookEventPostToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny"}}, "another event"},
		{"AllowWithInput answering UserPromptSubmit", shared.HookEventUserPromptSubmit, shared.AllowWithInput(shared.ToolInput{"a": "b"}), "only meaningful for PreToolUse and PermissionRequest"},
		{"AddContext answering PermissionRequest", shared.HookEventPermissionRequest, shared.AddContext("c"), "another event"},
		{"typed nil for PreToolUse", shared.HookEventPreToolUse, (*shared.SyncHookOutput)(nil), "typed nil"},
		{"typed nil async for PermissionRequest", shared.HookEventPermissionRequest, (*shared.AsyncHookOutput)(nil), "typed nil"},
		{"typed nil specific output for PreModelSwitch", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: (*shared.ModelSwitchOutput)(nil)}, "typed nil"},
		{"typed nil specific output of another event for UserPromptSubmit", shared.HookEventUserPromptSubmit,
			&shared.SyncHookOutput{HookSpecificOutput: (*shared.PostToolUseOutput)(nil)}, "typed nil"},
		{"async for PreToolUse", shared.HookEventPreToolUse, shared.AsyncHookOutput{Async: true}, "async"},
		{"raw unknown field on PreToolUse", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "allow", "newField": 1}}}, "cannot read"},
		{"raw key in another case on PreToolUse", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"PermissionDecision": "allow"}}}, "cannot read"},
		{"raw word the CLI does not read", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "approve"}}}, `"approve"`},
		{"raw wrong type", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"updatedInput": "rm -rf /"}}}, "cannot read"},
		{"raw hookEventName of another event", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"hookEventName": "PostToolUse"}}}, "hookEventName"},
		{"raw behavior the CLI does not read", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"decision": map[string]any{"behavior": "Allow"}}}}, `"Allow"`},
		{"raw ask on PreModelSwitch", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "ask"}}}, `"ask"`},
		{"raw unknown field on UserPromptSubmit", shared.HookEventUserPromptSubmit,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"decision": "block"}}}, "cannot read"},
		{"two updatedInputs", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{UpdatedInput: shared.ToolInput{"a": 1}, HookSpecificOutput: &shared.PreToolUseOutput{UpdatedInput: shared.ToolInput{"b": 1}}}, "two updatedInputs"},
		{"PermissionRequest rewrite without allow", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{UpdatedInput: shared.ToolInput{"a": 1}}, "without an allow"},
		{"PermissionRequestOutput answering PreToolUse", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{}}, "another event"},
		{"ModelSwitchOutput answering PostModelSwitch", shared.HookEventPostModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: "deny"}}, "another event"},
		{"SessionStartOutput answering Stop", shared.HookEventStop,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.SessionStartOutput{}}, "another event"},
		{"top-level ask with the output of another event", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{Decision: shared.DecisionAsk, HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "c"}}, "another event"},
		{"unknown decision", shared.HookEventPreToolUse, &shared.SyncHookOutput{Decision: "maybe"}, `unknown decision "maybe"`},
		{"unknown decision for Stop", shared.HookEventStop, shared.SyncHookOutput{Decision: "perhaps"}, `unknown decision "perhaps"`},
		{"unknown permission decision", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "maybe"}}, `"maybe"`},
		{"ask for Stop", shared.HookEventStop, &shared.SyncHookOutput{Decision: shared.DecisionAsk}, "only meaningful for PreToolUse"},
		{"defer for PostToolUse", shared.HookEventPostToolUse, &shared.SyncHookOutput{Decision: shared.DecisionDefer}, "only meaningful for PreToolUse"},
		{"ask for PermissionRequest", shared.HookEventPermissionRequest, &shared.SyncHookOutput{Decision: "ASK"}, "only meaningful for PreToolUse"},
		{"model switch ask", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: shared.DecisionAsk}}, "invalid model switch decision"},
		{"model switch nonsense", shared.HookEventPreModelSwitch,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: "later"}}, "invalid model switch decision"},
		{"permission behavior", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: "maybe"}}}, `unknown permission behavior "maybe"`},
		{"empty permission behavior", shared.HookEventPermissionRequest,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{}}}, "unknown permission behavior"},
		{"unsupported specific type", shared.HookEventPreToolUse,
			&shared.SyncHookOutput{HookSpecificOutput: customSpecific{}}, "unsupported hookSpecificOutput"},
		{"unsupported output type", shared.HookEventPreToolUse, customOutput{}, "not a synchronous output"},
		{"AsyncWork", shared.HookEventStop, shared.Async(0, nil), "AsyncWork"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hooks.Marshal(tc.event, tc.out)
			var oe *hooks.OutputError
			if !errors.As(err, &oe) {
				t.Fatalf("MarshalWireOutput = %s, %v; want an *OutputError", b, err)
			}
			if b != nil {
				t.Errorf("MarshalWireOutput returned bytes with its error: %s", b)
			}
			if oe.Event != tc.event {
				t.Errorf("OutputError.Event = %q, want %q", oe.Event, tc.event)
			}
			if !strings.Contains(oe.Reason, tc.wantIn) {
				t.Errorf("OutputError.Reason = %q, want it to contain %q", oe.Reason, tc.wantIn)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "hooks: ") || !strings.Contains(msg, string(tc.event)) {
				t.Errorf("Error() = %q, want the package prefix and the event", msg)
			}
			if w, err2 := hooks.AnswerOf(tc.event, tc.out); w != nil || err2 == nil {
				t.Errorf("WireOutput = %v, %v; want nil and an error", w, err2)
			}
		})
	}
}

// WireOutput must not change the handler's output: the executor may encode it more than once.
func TestWireOutputDoesNotModifyItsInput(t *testing.T) {
	spec := &shared.PreToolUseOutput{PermissionDecision: "Block", PermissionDecisionReason: "r"}
	out := &shared.SyncHookOutput{Decision: shared.DecisionAsk, Reason: "why", HookSpecificOutput: spec}
	raw := &shared.RawSpecificOutput{Fields: map[string]any{"additionalContext": "v", "hookEventName": "PreToolUse"}}
	outRaw := &shared.SyncHookOutput{HookSpecificOutput: raw}
	if _, err := hooks.AnswerOf(shared.HookEventPreToolUse, out); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.AnswerOf(shared.HookEventPreToolUse, outRaw); err != nil {
		t.Fatal(err)
	}
	want := &shared.SyncHookOutput{Decision: shared.DecisionAsk, Reason: "why",
		HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "Block", PermissionDecisionReason: "r"}}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"additionalContext": "v", "hookEventName": "PreToolUse"}, raw.Fields); diff != "" {
		t.Errorf("RawSpecificOutput.Fields changed (-before +after):\n%s", diff)
	}
}

func TestDenyOutput(t *testing.T) {
	tests := []struct {
		event shared.HookEvent
		want  string // "" means DenyOutput returns nil
	}{
		{shared.HookEventPreToolUse,
			`{"decision":"block","reason":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`},
		{shared.HookEventPermissionRequest,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"x"}}}`},
		{shared.HookEventUserPromptSubmit, `{"decision":"block","reason":"x"}`},
		{shared.HookEventUserPromptExpansion, `{"decision":"block","reason":"x"}`},
		{shared.HookEventPreModelSwitch,
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"x"}}`},
		{shared.HookEventPostToolUse, ""},
		{shared.HookEventStop, ""},
		{shared.HookEventPostToolBatch, ""},
		{"Unknown", ""},
	}
	for _, tc := range tests {
		t.Run(string(tc.event), func(t *testing.T) {
			d := hooks.Denial(tc.event, "x")
			if tc.want == "" {
				if d != nil {
					t.Fatalf("DenyOutput(%s) = %+v, want nil (fails open)", tc.event, d)
				}
				return
			}
			if d == nil {
				t.Fatalf("DenyOutput(%s) = nil, want a denial", tc.event)
			}
			b, err := hooks.Marshal(tc.event, d)
			if err != nil {
				t.Fatalf("MarshalWireOutput(DenyOutput(%s)): %v", tc.event, err)
			}
			if diff := jsonDiff(t, tc.want, b); diff != "" {
				t.Errorf("DenyOutput(%s) mismatch (-want +got):\n%s", tc.event, diff)
			}
		})
	}
	// Exactly the events that guard an action have a denial.
	for _, e := range shared.AllHookEvents() {
		if got := hooks.Denial(e, "r") != nil; got != e.GuardsAction() {
			t.Errorf("DenyOutput(%s) != nil is %v, but GuardsAction() is %v", e, got, e.GuardsAction())
		}
	}
}
