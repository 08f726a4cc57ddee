package hooks

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// TestEveryEventFailsClosedOrOpen: for each of the CLI's events, each way a handler can fail (an
// error, a panic, a timeout, another event's output, an unknown decision word, a typed handler
// registered for the wrong event). Events that guard an action (PreToolUse, PermissionRequest,
// UserPromptSubmit, UserPromptExpansion, PreModelSwitch) end the chain with their own denial; every
// other event fails open: the answers of the other handlers still apply, and only a timeout ends
// the chain.
func TestEveryEventFailsClosedOrOpen(t *testing.T) {
	for _, e := range shared.AllHookEvents() {
		// An output, and a typed handler, that belong to another event than e.
		var other shared.HookSpecificOutput = &shared.PreToolUseOutput{PermissionDecision: shared.DecisionAllow}
		wrongAdapter := shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			return shared.Allow(), nil
		})
		if e == shared.HookEventPreToolUse {
			other = &shared.PostToolUseOutput{AdditionalContext: "x"}
			wrongAdapter = shared.OnPostToolUse(func(context.Context, *shared.PostToolUseHookInput) (shared.HookOutput, error) {
				return nil, nil
			})
		}
		failures := []struct {
			name    string
			handler shared.HookHandler
			timeout time.Duration
		}{
			{"error", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, errBoom }), 0},
			{"panic", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { panic("exploded") }), 0},
			{"timeout", shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				<-ctx.Done()
				return shared.Allow(), nil // too late: must not count
			}), time.Second},
			{"another event's output", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return &shared.SyncHookOutput{HookSpecificOutput: other}, nil
			}), 0},
			{"unknown decision", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return &shared.SyncHookOutput{Decision: "perhaps"}, nil
			}), 0},
			// Wrapped, so that registration (shared.CheckHandlerEvent, which refuses the adapter
			// itself) cannot see it: the adapter's own check at run time is what is tested.
			{"typed handler for another event", shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
				return wrongAdapter.Handle(ctx, in)
			}), 0},
		}
		for _, f := range failures {
			t.Run(string(e)+"/"+f.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					after := false
					x := newExecutor(t, shared.Hooks{e: {
						{Name: "before", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
							return &shared.SyncHookOutput{SystemMessage: "before"}, nil
						})},
						{Name: "bad", Handler: f.handler, Timeout: f.timeout},
						{Name: "after", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
							after = true
							return &shared.SyncHookOutput{SystemMessage: "after"}, nil
						})},
					}}, Options{})
					res := x.Run(context.Background(), input(e, "Bash"), "r")
					var he *shared.HookError
					if !errors.As(res.Err, &he) || he.Name != "bad" {
						t.Fatalf("Err = %v, want the failure of the bad handler", res.Err)
					}
					var want shared.HookOutput
					switch {
					case e.GuardsAction():
						want = denial(e, "hook failed, denied by the SDK (fail-closed): "+errSummary(res.Err))
					case f.name == "timeout":
						want = &shared.SyncHookOutput{SystemMessage: "before"}
					default:
						want = &shared.SyncHookOutput{SystemMessage: "before\nafter"}
					}
					if diff := cmp.Diff(wireJSON(t, e, want), wireJSON(t, e, res.Output)); diff != "" {
						t.Errorf("answer (-want +got):\n%s", diff)
					}
					if wantAfter := !e.GuardsAction() && f.name != "timeout"; after != wantAfter {
						t.Errorf("the handler after the failed one ran: %v, want %v", after, wantAfter)
					}
				})
			})
		}
	}
}
