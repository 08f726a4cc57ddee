package v2_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_PermissionRequestGuardAndCallbackAgree: with a permission callback, the CLI sends
// the PermissionRequest hook and can_use_tool for one tool call at once and takes the first
// decisive answer. A guard that denies late must still win over a callback that allows at once:
// the SDK holds the callback's allow until the guard of the same tool call has decided. The guard
// here decides only once it sees the callback's answer written (or at its timeout), so if the
// allow went out first, the tool would run.
func TestRealCLI_PermissionRequestGuardAndCallbackAgree(t *testing.T) {
	t.Parallel()
	guardOutput := func(b shared.PermissionBehavior) shared.HookOutput {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: b, Message: "the guard says no"}}}
	}
	tests := []struct {
		name string
		// guard decides, given a channel closed when the callback's answer was written, and one
		// closed when the callback was called.
		guard   func(ctx context.Context, written, asked <-chan struct{}) shared.HookOutput
		wantRan bool
	}{
		{"late guard deny wins over a quick allow", func(ctx context.Context, written, _ <-chan struct{}) shared.HookOutput {
			select {
			case <-written:
			case <-ctx.Done():
			}
			return guardOutput(shared.PermissionDeny)
		}, false},
		{"late guard allow, callback allow: the tool runs", func(ctx context.Context, _, asked <-chan struct{}) shared.HookOutput {
			select {
			case <-asked:
			case <-ctx.Done():
			}
			return guardOutput(shared.PermissionAllow)
		}, true},
		{"guard without opinion, callback allow: the tool runs", func(ctx context.Context, _, asked <-chan struct{}) shared.HookOutput {
			select {
			case <-asked:
			case <-ctx.Done():
			}
			return nil
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("done")}
			})
			written, asked := make(chan struct{}), make(chan struct{})
			var writtenOnce, askedOnce sync.Once
			s := env.session(t,
				v2.WithHooks(shared.Hooks{shared.HookEventPermissionRequest: {{Matcher: "Bash", Timeout: 3 * time.Second,
					Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
						return tt.guard(ctx, written, asked), nil
					})}}}),
				v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
					askedOnce.Do(func() { close(asked) })
					return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
				}),
				v2.WithRoundTripTrace(func(rt shared.RoundTrip) {
					if rt.Subtype == "can_use_tool" {
						writtenOnce.Do(func() { close(written) })
					}
				}),
			)
			run(t, s, "touch a")
			if ran := env.exists("a.txt"); ran != tt.wantRan {
				t.Errorf("the tool ran: %v, want %v", ran, tt.wantRan)
			}
		})
	}
}
