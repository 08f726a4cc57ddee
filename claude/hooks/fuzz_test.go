package hooks_test

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// FuzzOutput builds outputs from fuzzed decision words, reasons and event names, and checks that
// MarshalWireOutput never panics and, when it succeeds, writes a JSON object whose
// hookSpecificOutput.hookEventName, if any, is the event answered.
func FuzzOutput(f *testing.F) {
	f.Add("PreToolUse", "deny", "allow", "reason", uint8(0), int8(0))
	f.Add("PreToolUse", "ask", "", "why", uint8(1), int8(2))
	f.Add("Stop", "block", "", "keep going", uint8(2), int8(1))
	f.Add("PermissionRequest", "", "allow", "", uint8(3), int8(0))
	f.Add("PreModelSwitch", "", "deny", "no switching", uint8(4), int8(2))
	f.Add("PostToolUse", "approve", "", "", uint8(5), int8(0))
	f.Add("SomeFutureEvent", "defer", "maybe", "\x00\"}", uint8(6), int8(-1))
	f.Fuzz(func(t *testing.T, event, decision, specDecision, reason string, specKind uint8, cont int8) {
		e := shared.HookEvent(event)
		out := &shared.SyncHookOutput{
			Continue:      shared.Continue(cont),
			Decision:      shared.Decision(decision),
			Reason:        reason,
			StopReason:    reason,
			SystemMessage: reason,
		}
		switch specKind % 12 {
		case 0:
		case 1:
			out.HookSpecificOutput = &shared.PreToolUseOutput{PermissionDecision: shared.Decision(specDecision), PermissionDecisionReason: reason, UpdatedInput: shared.ToolInput{"k": reason}}
		case 2:
			out.HookSpecificOutput = &shared.ContextOutput{AdditionalContext: reason}
		case 3:
			out.HookSpecificOutput = &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionBehavior(specDecision), Message: reason}}
		case 4:
			out.HookSpecificOutput = &shared.ModelSwitchOutput{PermissionDecision: shared.Decision(specDecision), PermissionDecisionReason: reason}
		case 5:
			out.HookSpecificOutput = &shared.PostToolUseOutput{AdditionalContext: reason, UpdatedToolOutput: reason}
		case 6:
			out.HookSpecificOutput = &shared.RawSpecificOutput{Fields: map[string]any{specDecision: reason, "hookEventName": specDecision}}
		case 7:
			out.HookSpecificOutput = &shared.UserPromptSubmitOutput{AdditionalContext: reason, SessionTitle: specDecision}
		case 8:
			out.HookSpecificOutput = (*shared.RawSpecificOutput)(nil)
		case 9:
			out.HookSpecificOutput = (*shared.PreToolUseOutput)(nil)
		case 10:
			out.HookSpecificOutput = &shared.SessionStartOutput{AdditionalContext: reason, WatchPaths: []string{specDecision}}
		case 11:
			out.HookSpecificOutput = &shared.MessageDisplayOutput{DisplayContent: reason}
		}
		for _, o := range []shared.HookOutput{out, *out, hooks.Denial(e, reason)} {
			if d, ok := o.(*shared.SyncHookOutput); ok && d == nil {
				continue
			}
			b, err := hooks.Marshal(e, o)
			if err != nil {
				continue
			}
			var got map[string]jsontext.Value
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("MarshalWireOutput(%q) wrote invalid JSON %q: %v", e, b, err)
			}
			hso, ok := got["hookSpecificOutput"]
			if !ok {
				continue
			}
			var head struct {
				HookEventName *string `json:"hookEventName"`
			}
			if err := json.Unmarshal(hso, &head); err != nil {
				t.Fatalf("hookSpecificOutput is not an object: %s", hso)
			}
			if head.HookEventName == nil {
				t.Fatalf("hookSpecificOutput without hookEventName: %s", b)
			}
			// Invalid UTF-8 is written as U+FFFD; compare with what e becomes once encoded.
			want, _ := json.Marshal(string(e), jsontext.AllowInvalidUTF8(true))
			var wantS string
			_ = json.Unmarshal(want, &wantS)
			if *head.HookEventName != wantS {
				t.Fatalf("hookEventName = %q, want %q (json %s)", *head.HookEventName, wantS, b)
			}
		}
	})
}
