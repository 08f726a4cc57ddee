package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/internal/commandhook"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// runLog records Observe reports (and progress lines) as text, in order.
type runLog struct {
	mu    sync.Mutex
	lines []string
	ends  chan HandlerRun // every end report of an async phase
}

func newRunLog() *runLog { return &runLog{ends: make(chan HandlerRun, 16)} }

func (l *runLog) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *runLog) observe(r HandlerRun) {
	phase := ""
	if r.Async {
		phase = " async"
	}
	if r.Outcome == "" {
		l.add(r.Name + phase + " started")
		return
	}
	l.add(r.Name + phase + " " + string(r.Outcome))
	if r.Async {
		l.ends <- r
	}
}

func (l *runLog) progress(r HandlerRun, stream, line string) {
	l.add(r.Name + " " + stream + ": " + line)
}

func (l *runLog) got() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// An async answer of an event that does not guard an action: the chain answers at once, with
// the other handlers' answers, and the work ends later in the background, reported as such.
func TestAsyncAnswerRunsInTheBackground(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := newRunLog()
		release := make(chan struct{})
		var workRan bool
		x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {
			{Name: "audit", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return shared.Async(time.Minute, func(ctx context.Context) (shared.HookOutput, error) {
					<-release
					time.Sleep(2 * time.Second) // fake time
					workRan = true
					return shared.AddContext("dropped: nowhere to go"), nil
				}), nil
			})},
			{Name: "ctx", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return shared.AddContext("sync context"), nil
			})},
		}}, Options{Observe: log.observe})
		res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
		if res.Err != nil || res.Ran != 2 {
			t.Fatalf("Run = %+v", res)
		}
		if diff := cmp.Diff(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PostToolUse", "additionalContext": "sync context"}},
			wireJSON(t, shared.HookEventPostToolUse, res.Output)); diff != "" {
			t.Errorf("immediate answer (-want +got):\n%s", diff)
		}
		if workRan {
			t.Fatal("the chain waited for the async work")
		}
		close(release)
		end := <-log.ends
		if end.Outcome != shared.HookOutcomeSuccess || end.Duration != 2*time.Second || end.ID != 1 || end.Event != shared.HookEventPostToolUse {
			t.Errorf("async end report %+v", end)
		}
		want := []string{"audit started", "audit success", "audit async started", "ctx started", "ctx success", "audit async success"}
		if diff := cmp.Diff(want, log.got()); diff != "" {
			t.Errorf("reports (-want +got):\n%s", diff)
		}
		x.Close()
	})
}

// For events that guard an action an async answer is refused and the SDK denies, saying why;
// the work never starts. A plain {"async":true} is refused the same way there, and passed on
// elsewhere.
func TestAsyncAnswerRefusedForGuardingEvents(t *testing.T) {
	started := false
	work := shared.Async(time.Second, func(context.Context) (shared.HookOutput, error) { started = true; return nil, nil })
	for _, e := range []shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPermissionRequest, shared.HookEventUserPromptSubmit} {
		for _, out := range []shared.HookOutput{work, &shared.AsyncHookOutput{Async: true}, shared.AsyncHookOutput{Async: true}} {
			x := newExecutor(t, shared.Hooks{e: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return out, nil })}}}, Options{})
			res := x.Run(context.Background(), input(e, "Bash"), "r")
			if !errors.Is(res.Err, shared.ErrAsyncNotAllowed) {
				t.Errorf("%s %T: Err = %v, want shared.ErrAsyncNotAllowed", e, out, res.Err)
			}
			if v, reason := denialOf(t, e, res.Output); (v != "deny" && v != "block") || !strings.Contains(reason, "async answer refused") {
				t.Errorf("%s %T: answer %q %q, want a denial that says why", e, out, v, reason)
			}
			x.Close()
		}
	}
	if started {
		t.Error("refused async work ran")
	}
	x := newExecutor(t, shared.Hooks{shared.HookEventStop: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return &shared.AsyncHookOutput{Async: true}, nil
	})}}}, Options{})
	if got := wireJSON(t, shared.HookEventStop, x.Run(context.Background(), input(shared.HookEventStop, ""), "r").Output); !cmp.Equal(got, map[string]any{"async": true}) {
		t.Errorf("Stop {async:true} answered %v", got)
	}
}

func TestAsyncWorkFailures(t *testing.T) {
	tests := []struct {
		name    string
		work    func(ctx context.Context, stuck <-chan struct{}) (shared.HookOutput, error)
		outcome shared.HookOutcome
		errIs   error
		took    time.Duration
	}{
		{"error", func(context.Context, <-chan struct{}) (shared.HookOutput, error) { return nil, errBoom }, shared.HookOutcomeError, errBoom, 0},
		{"panic", func(context.Context, <-chan struct{}) (shared.HookOutput, error) { panic("async boom") }, shared.HookOutcomePanic, shared.ErrHookPanic, 0},
		{"timeout, ctx honoured", func(ctx context.Context, _ <-chan struct{}) (shared.HookOutput, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, shared.HookOutcomeTimeout, shared.ErrHookTimeout, 3 * time.Second},
		{"timeout, ctx ignored", func(ctx context.Context, stuck <-chan struct{}) (shared.HookOutput, error) { <-stuck; return nil, nil }, shared.HookOutcomeTimeout, shared.ErrHookTimeout, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				log := newRunLog()
				stuck := make(chan struct{}) // a work that ignores its ctx waits for the test's end
				x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {{Name: "h", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
					return shared.Async(3*time.Second, func(ctx context.Context) (shared.HookOutput, error) { return tt.work(ctx, stuck) }), nil
				})}}}, Options{Observe: log.observe})
				if res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r"); res.Err != nil || res.Output != nil {
					t.Fatalf("Run = %+v, want no opinion at once", res)
				}
				end := <-log.ends
				if end.Outcome != tt.outcome || !errors.Is(end.Err, tt.errIs) || end.Duration != tt.took {
					t.Errorf("end = %v %v after %v, want %v (%v) after %v", end.Outcome, end.Err, end.Duration, tt.outcome, tt.errIs, tt.took)
				}
				x.Close()
				close(stuck)
			})
		})
	}
}

// Close waits for the background work (bounded by its timeout); an async answer after Close is
// not run and is reported cancelled.
func TestCloseWaitsForAsyncWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := newRunLog()
		release := make(chan struct{})
		runs := 0
		x := newExecutor(t, shared.Hooks{shared.HookEventNotification: {{Name: "n", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Async(time.Hour, func(context.Context) (shared.HookOutput, error) {
				runs++
				<-release
				return nil, nil
			}), nil
		})}}}, Options{Observe: log.observe})
		x.Run(context.Background(), input(shared.HookEventNotification, ""), "r1")
		closed := make(chan struct{})
		go func() { x.Close(); close(closed) }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned while async work was running")
		default:
		}
		close(release)
		<-closed
		if end := <-log.ends; end.Outcome != shared.HookOutcomeSuccess {
			t.Errorf("end %+v", end)
		}
		x.Run(context.Background(), input(shared.HookEventNotification, ""), "r2")
		if end := <-log.ends; end.Outcome != shared.HookOutcomeCancelled || runs != 1 {
			t.Errorf("after Close: outcome %v, work ran %d times", end.Outcome, runs)
		}
	})
}

// A command hook that prints {"async":true} is run a second time in the background (the Goat
// runner's two phases), with HOOK_ASYNC_PHASE=1.
func TestCommandHookTwoPhaseAsync(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "phase2")
	cmd := `if [ "$HOOK_ASYNC_PHASE" = 1 ]; then echo "$HOOK_TOOL_NAME" > ` + marker + `; echo second; else echo '{"async":true,"asyncTimeout":5000}'; fi`
	log := newRunLog()
	x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {{Name: "cmd", Handler: commandhook.New(cmd, shared.CommandHookOptions{})}}},
		Options{Observe: log.observe, Progress: log.progress})
	res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
	if res.Err != nil || res.Output != nil {
		t.Fatalf("first phase: %+v, want no opinion", res)
	}
	end := <-log.ends
	x.Close()
	if end.Outcome != shared.HookOutcomeSuccess {
		t.Fatalf("second phase: %+v", end)
	}
	if b, err := os.ReadFile(marker); err != nil || strings.TrimSpace(string(b)) != "Bash" {
		t.Errorf("second phase marker: %q, %v", b, err)
	}
	want := []string{"cmd started", `cmd stdout: {"async":true,"asyncTimeout":5000}`, "cmd success", "cmd async started", "cmd stdout: second", "cmd async success"}
	if diff := cmp.Diff(want, log.got()); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}

	// For a guarding event the async answer is refused and the second phase never runs.
	os.Remove(marker)
	x = newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: commandhook.New(cmd, shared.CommandHookOptions{})}}}, Options{})
	res = x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
	x.Close()
	if v, _ := denialOf(t, shared.HookEventPreToolUse, res.Output); v != "deny" || !errors.Is(res.Err, shared.ErrAsyncNotAllowed) {
		t.Errorf("PreToolUse async command: %q, %v", v, res.Err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refused second phase ran")
	}
}
