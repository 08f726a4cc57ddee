package shared_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestPermissionHelpers(t *testing.T) {
	tests := []struct {
		name string
		out  shared.HookOutput
		want string
	}{
		{"allow", shared.AllowPermission(nil), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"allow rewritten", shared.AllowPermission(shared.ToolInput{"command": "ls"}), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`},
		{"deny", shared.DenyPermission("no"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := shared.MarshalWireOutput(shared.HookEventPermissionRequest, tt.out)
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			_ = json.Unmarshal(b, &got)
			_ = json.Unmarshal([]byte(tt.want), &want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// PreToolUse's Deny does not fit PermissionRequest: an error, which the SDK turns into a deny.
	if _, err := shared.MarshalWireOutput(shared.HookEventPermissionRequest, shared.Deny("x")); err == nil {
		t.Error("Deny answering PermissionRequest: want an *OutputError")
	}
}
