package replay

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Load: many hook requests in flight in one session, many sessions side by side in one process.
// Every answer must reach the right request (the fake checks each against the request it answers,
// via expectn), memory must stay bounded, and nothing may be left. These tests count goroutines and
// measure the heap: they do not run in parallel.

// loadTranscript: n PreToolUse requests for "cmd <tag>-$i", all sent before any answer is read,
// then n answers expected in any order, each the deny "<tag>-$i" for request h$i, then the result.
func loadTranscript(n int, tag string) []string {
	in := `{"session_id":"s1","cwd":"/proj","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cmd ` + tag + `-$i"},"tool_use_id":"t$i"}`
	return []string{
		initExpect, initAnswer, userExpect,
		fmt.Sprintf(`sendn %d {"type":"control_request","request_id":"h$i","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","tool_use_id":"t$i","input":%s}}`, n, in),
		fmt.Sprintf(`expectn %d {"type":"control_response","response":{"subtype":"success","request_id":"h$i","response":{"decision":"block","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"%s-$i"}}}}`, n, tag),
		resultLine,
	}
}

// denyCommand denies each command with its own suffix, so that a crossed answer shows.
func denyCommand(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
	return shared.Deny(strings.TrimPrefix(in.ToolInput.String("command"), "cmd ")), nil
}

// heapAndStacks is the memory the process holds for live objects and goroutine stacks.
func heapAndStacks() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc + m.StackInuse
}

// TestThousandHooksInFlight: 1,000 hook requests arrive before any is answered, and every handler
// waits until all 1,000 have started: they really are in flight at once (a serial or bounded
// executor would deadlock here and deny them after their timeout). Each is answered correctly.
func TestThousandHooksInFlight(t *testing.T) {
	const n = 1000
	f := newFake(t, loadTranscript(n, "x")...)
	var started atomic.Int32
	all := make(chan struct{})
	var peak atomic.Uint64
	hook := func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if started.Add(1) == n {
			peak.Store(heapAndStacks()) // every handler is blocked here or below: the peak
			close(all)
		}
		select {
		case <-all:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return denyCommand(ctx, in)
	}
	before := heapAndStacks()
	s := f.start(t, v2.WithHookTimeout(time.Minute), v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.OnPreToolUse(hook)))
	if err := s.Send(testCtx(t), "go"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := receiveAll(t, s); err != nil {
		t.Fatalf("Receive: %v (the fake exits 97 when an answer is wrong or missing)", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := len(f.answers(t)); got != n {
		t.Errorf("%d answers, want %d", got, n)
	}
	// 1,000 requests in flight, each with its goroutine, input and answer: well under 64 KiB each
	// (a request holds about 10 KiB here with -race).
	grown := int64(peak.Load()) - int64(before)
	t.Logf("memory with %d requests in flight: %d KiB more (%d bytes per request)", n, grown>>10, grown/n)
	if grown > n*64<<10 {
		t.Errorf("memory grew by %d MiB with %d requests in flight", grown>>20, n)
	}
	noLeaks(t)
}

// TestHundredSessions: 100 sessions side by side in one process, each with its own CLI and 20 hook
// requests in flight, answered by handlers shared by all sessions. Every answer reaches its own
// session's request; memory goes back to where it was once they are closed.
func TestHundredSessions(t *testing.T) {
	const sessions, perSession = 100, 20
	before := heapAndStacks()
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for k := range sessions {
		f := newFake(t, loadTranscript(perSession, fmt.Sprintf("s%d", k))...)
		opts := append(f.options(t), v2.WithHookTimeout(time.Minute), v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.OnPreToolUse(denyCommand)))
		wg.Go(func() {
			err := func() error {
				s, err := v2.CreateSession(testCtx(t), opts...)
				if err != nil {
					return err
				}
				defer s.Close()
				if err := s.Send(testCtx(t), "go"); err != nil {
					return err
				}
				for m, err := range s.Receive(testCtx(t)) {
					if err != nil {
						return err
					}
					if r, ok := m.(*shared.ResultMessage); ok && r.Result != "done" {
						return fmt.Errorf("result %q", r.Result)
					}
				}
				return s.Close()
			}()
			if err != nil {
				errs <- fmt.Errorf("session %d: %w", k, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	noLeaks(t)
	after := heapAndStacks()
	t.Logf("heap and stacks: %d KiB before, %d KiB after %d sessions", before>>10, after>>10, sessions)
	if after > before+8<<20 {
		t.Errorf("%d MiB more held after every session closed", (after-before)>>20)
	}
}
