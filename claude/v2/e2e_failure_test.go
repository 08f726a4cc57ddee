package v2_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A PreToolUse hook that panics, or that overruns its timeout, denies the tool (fail closed); the
// turn finishes and the session takes a second prompt.
func TestRealCLI_FailingHookDeniesAndSessionGoesOn(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	cases := []struct {
		name    string
		handler func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error)
	}{
		{"panic", func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			panic("boom from a test hook")
		}},
		{"honours ctx", func(ctx context.Context, _ *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			<-ctx.Done()
			return shared.Allow(), nil
		}},
		{"ignores ctx", func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			<-release // blocks past the test's own end, were it not for this cleanup
			return shared.Allow(), nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")),
					claudetest.TextReply("first done"),
					claudetest.TextReply("second done"),
				}
			})
			s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHookTimeout(300*time.Millisecond),
				v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.OnPreToolUse(tc.handler)))
			res, err := s.Run(testCtx(t), "touch a")
			if !errors.Is(err, v2.ErrGuardFailed) {
				t.Errorf("first turn: Run = %v, want v2.ErrGuardFailed", err)
			}
			if res == nil || res.IsError || res.Result != "first done" {
				t.Fatalf("first turn: %+v", res)
			}
			if env.exists("a.txt") {
				t.Error("the tool ran although its hook failed")
			}
			// The SDK's own fail-closed answer denied it, not the CLI's timeout of the callback
			// (which would say so in the tool_result); no wall-clock bound decides this.
			reqs := env.api.Requests()
			if tr, ok := reqs[len(reqs)-1].LastToolResult(); !ok || !tr.IsError || strings.Contains(tr.ContentText(), "did not respond before its timeout") {
				t.Errorf("the model got %+v, want the SDK's error tool_result", tr)
			}
			if res := run(t, s, "again"); res.IsError || res.Result != "second done" {
				t.Errorf("second prompt: %+v", res)
			}
		})
	}
}
