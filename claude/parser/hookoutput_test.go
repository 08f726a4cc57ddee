package parser_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestDecodeHookOutput(t *testing.T) {
	tests := []struct {
		name    string
		event   shared.HookEvent
		raw     string
		want    shared.HookOutput
		wantErr bool
	}{
		{"empty object", shared.HookEventPreToolUse, `{}`, &shared.SyncHookOutput{}, false},
		{"deny", shared.HookEventPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny", PermissionDecisionReason: "no"}}, false},
		{"rewrite without hookEventName", shared.HookEventPreToolUse, `{"hookSpecificOutput":{"updatedInput":{"command":"ls"}}}`,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{UpdatedInput: shared.ToolInput{"command": "ls"}}}, false},
		{"top level fields", shared.HookEventStop, `{"continue":false,"stopReason":"s","decision":"block","reason":"r","systemMessage":"m","suppressOutput":true}`,
			&shared.SyncHookOutput{Continue: shared.ContinueNo, StopReason: "s", Decision: "block", Reason: "r", SystemMessage: "m", SuppressOutput: true}, false},
		{"continue true", shared.HookEventStop, `{"continue":true}`, &shared.SyncHookOutput{Continue: shared.ContinueYes}, false},
		{"async", shared.HookEventPostToolUse, `{"async":true,"asyncTimeout":500}`, &shared.AsyncHookOutput{Async: true, AsyncTimeout: 500}, false},
		{"context for another event type", shared.HookEventPostToolBatch, `{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"c"}}`,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.ContextOutput{AdditionalContext: "c"}}, false},
		{"unknown fields kept raw", shared.HookEventSubagentStart, `{"hookSpecificOutput":{"additionalContext":"c","x":1}}`,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"additionalContext": "c", "x": float64(1)}}}, false},
		{"permission request", shared.HookEventPermissionRequest, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m"}}}`,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: "deny", Message: "m"}}}, false},
		{"wrong hookEventName", shared.HookEventPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}`, nil, true},
		{"not JSON", shared.HookEventPreToolUse, `{"decision":`, nil, true},
		{"wrong type", shared.HookEventPreToolUse, `{"hookSpecificOutput":{"permissionDecision":5}}`, nil, true},
		// The CLI reads the answer with JSON.parse: the last of duplicate names wins, names match
		// exactly. A duplicate is an error here (the executor then denies a guarding event).
		{"permissionDecision twice", shared.HookEventPreToolUse, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecision":"allow"}}`, nil, true},
		{"decision twice", shared.HookEventStop, `{"decision":"block","decision":"approve"}`, nil, true},
		{"invalid UTF-8", shared.HookEventStop, "{\"reason\":\"\xff\"}", nil, true},
		{"names in another case are unknown", shared.HookEventStop, `{"Decision":"block","Continue":false}`, &shared.SyncHookOutput{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parser.DecodeHookOutput(tt.event, []byte(tt.raw))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
