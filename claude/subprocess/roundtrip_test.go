package subprocess

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// OnRoundTrip reports every answered CLI request once, after its answer is written, with the time
// its line was read before the time its answer was written; a request the CLI cancels is not
// reported.
func TestOnRoundTripReportsAnsweredRequests(t *testing.T) {
	t.Parallel()
	var rec rtRecorder
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("ok", func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }),
		on("slow", func(ctx context.Context) (shared.HookOutput, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	}})
	tr := startFake(t, Config{Hooks: x, OnRoundTrip: rec.add}, script(
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
	got := rec.after(t, tr, 3)
	type rt struct {
		ID, Subtype string
		Event       shared.HookEvent
	}
	var ids []rt
	for _, r := range got {
		ids = append(ids, rt{r.RequestID, r.Subtype, r.Event})
		if r.Read.IsZero() || r.Decoded.Before(r.Read) || r.Answered.Before(r.Decoded) || r.Written.Before(r.Answered) {
			t.Errorf("%s: read %v, decoded %v, answered %v, written %v: want them non-zero and in this order", r.RequestID, r.Read, r.Decoded, r.Answered, r.Written)
		}
	}
	// Each request's goroutine reports after its own write: the order of the reports is not the
	// order of the lines.
	want := []rt{{"h1", "hook_callback", shared.HookEventPreToolUse}, {"p1", "can_use_tool", ""}, {"m1", "mcp_message", ""}}
	if diff := cmp.Diff(want, ids, cmpopts.SortSlices(func(a, b rt) bool { return a.ID < b.ID })); diff != "" {
		t.Errorf("round trips (-want +got):\n%s", diff)
	}
}

// OnRoundTrip's Decoded and Answered bracket the dispatch: a hook handler and a permission
// callback run between the two.
func TestOnRoundTripTimesBracketTheCallbacks(t *testing.T) {
	t.Parallel()
	var rec rtRecorder
	var mu sync.Mutex
	ran := map[string]time.Time{}
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("ok", func(context.Context) (shared.HookOutput, error) {
			mu.Lock()
			ran["h1"] = time.Now()
			mu.Unlock()
			return nil, nil
		}),
	}})
	perm := func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		mu.Lock()
		ran["p1"] = time.Now()
		mu.Unlock()
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}
	tr := startFake(t, Config{Hooks: x, CanUseTool: perm, OnRoundTrip: rec.add}, script(
		"out "+hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "ok")),
		"read",
		"out "+canUseToolLine("p1", "Bash", "ls"),
		"read",
		"out "+systemLine,
		"wait-eof",
	))
	got := rec.after(t, tr, 2)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("%d round trips, want 2", len(got))
	}
	for _, r := range got {
		at, ok := ran[r.RequestID]
		if !ok {
			t.Errorf("%s: its callback did not run", r.RequestID)
			continue
		}
		if at.Before(r.Decoded) || r.Answered.Before(at) {
			t.Errorf("%s: callback ran at %v, outside decoded %v .. answered %v", r.RequestID, at, r.Decoded, r.Answered)
		}
	}
}

// rtRecorder keeps what Config.OnRoundTrip reports.
type rtRecorder struct {
	mu  sync.Mutex
	got []shared.RoundTrip
}

func (r *rtRecorder) add(rt shared.RoundTrip) {
	r.mu.Lock()
	r.got = append(r.got, rt)
	r.mu.Unlock()
}

// after reads the fake's echoes of the transport's answers (n of them) and its final system
// message, closes the transport and returns the round trips reported.
func (r *rtRecorder) after(t *testing.T, tr *Transport, echoes int) []shared.RoundTrip {
	t.Helper()
	for range echoes {
		nextRaw(t, tr, "echo")
	}
	if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
		t.Fatal("want the system message")
	}
	tr.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]shared.RoundTrip(nil), r.got...)
}
