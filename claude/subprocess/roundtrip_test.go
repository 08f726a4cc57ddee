package subprocess

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// OnRoundTrip reports every answered CLI request once, after its answer is written, with the time
// its line was read before the time its answer was written; a request the CLI cancels is not
// reported.
func TestOnRoundTripReportsAnsweredRequests(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []RoundTrip
	onRT := func(rt RoundTrip) {
		mu.Lock()
		got = append(got, rt)
		mu.Unlock()
	}
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("ok", func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }),
		on("slow", func(ctx context.Context) (shared.HookOutput, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	}})
	tr := startFake(t, Config{Hooks: x, OnRoundTrip: onRT}, script(
		"out "+hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "ok")),
		"read",
		"out "+canUseToolLine("p1", "Bash", "ls"),
		"read",
		"out "+jsonLine(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "mcp_message"}}),
		"read",
		"out "+hookCallbackLine("h2", toolInput(shared.HookEventPreToolUse, "Bash", "slow")),
		"out "+cancelLine("h2"),
		"out "+systemLine,
		"wait-eof",
	))
	for range 3 {
		nextRaw(t, tr, "echo")
	}
	if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
		t.Fatal("want the system message")
	}
	tr.Close()
	mu.Lock()
	defer mu.Unlock()
	type rt struct {
		ID, Subtype string
		Event       shared.HookEvent
	}
	var ids []rt
	for _, r := range got {
		ids = append(ids, rt{r.RequestID, r.Subtype, r.Event})
		if r.Read.IsZero() || r.Written.Before(r.Read) {
			t.Errorf("%s: read %v, written %v", r.RequestID, r.Read, r.Written)
		}
	}
	want := []rt{{"h1", "hook_callback", shared.HookEventPreToolUse}, {"p1", "can_use_tool", ""}, {"m1", "mcp_message", ""}}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("round trips (-want +got):\n%s", diff)
	}
}
