package hooks_test

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The helpers are event-neutral: each is written in the answered event's own form, and a helper
// that means nothing for an event is an *OutputError (which the SDK turns into a denial on
// guarding events). AllowPermission / DenyPermission are gone: Allow, AllowWithInput and Deny
// answer PermissionRequest.
func TestHelpersPerEvent(t *testing.T) {
	in := shared.ToolInput{"command": "ls"}
	const (
		pre  = shared.HookEventPreToolUse
		perm = shared.HookEventPermissionRequest
		ms   = shared.HookEventPreModelSwitch
		ups  = shared.HookEventUserPromptSubmit
		upe  = shared.HookEventUserPromptExpansion
		post = shared.HookEventPostToolUse
	)
	tests := []struct {
		name string
		e    shared.HookEvent
		out  shared.HookOutput
		want string // "" for an *OutputError
	}{
		{"Allow", pre, shared.Allow(), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"Allow", perm, shared.Allow(), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"Allow", ms, shared.Allow(), `{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"allow"}}`},
		{"Allow", ups, shared.Allow(), `{"decision":"approve"}`},
		{"Allow", post, shared.Allow(), `{"decision":"approve"}`},
		{"AllowWithInput", pre, shared.AllowWithInput(in), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`},
		{"AllowWithInput", perm, shared.AllowWithInput(in), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`},
		{"AllowWithInput", ms, shared.AllowWithInput(in), ""},
		{"AllowWithInput", ups, shared.AllowWithInput(in), ""},
		{"AllowWithInput", upe, shared.AllowWithInput(in), ""},
		{"AllowWithInput", post, shared.AllowWithInput(in), ""},
		{"Deny", pre, shared.Deny("no"), `{"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"Deny", perm, shared.Deny("no"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
		{"Deny", ms, shared.Deny("no"), `{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"Deny", ups, shared.Deny("no"), `{"decision":"block","reason":"no"}`},
		{"Deny", upe, shared.Deny("no"), `{"decision":"block","reason":"no"}`},
		{"Block", pre, shared.Block("no"), `{"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"Block", perm, shared.Block("no"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
		{"Block without reason", perm, shared.Block(""), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"denied by a PermissionRequest hook"}}}`},
		{"Block", ms, shared.Block("no"), `{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"Block", post, shared.Block("no"), `{"decision":"block","reason":"no"}`},
		{"Ask", pre, shared.Ask("why"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why"}}`},
		{"Ask", perm, shared.Ask("why"), ""},
		{"Ask", ms, shared.Ask("why"), ""},
		{"Ask", ups, shared.Ask("why"), ""},
		{"AddContext", pre, shared.AddContext("c"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"c"}}`},
		{"AddContext", ups, shared.AddContext("c"), `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}`},
		{"AddContext", perm, shared.AddContext("c"), ""},
		{"AddContext", ms, shared.AddContext("c"), ""},
		{"Stop", perm, shared.Stop("s"), `{"continue":false,"stopReason":"s"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+string(tt.e), func(t *testing.T) {
			b, err := hooks.Marshal(tt.e, tt.out)
			if tt.want == "" {
				var oe *hooks.OutputError
				if !errors.As(err, &oe) {
					t.Fatalf("got %s, %v; want an *OutputError", b, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
