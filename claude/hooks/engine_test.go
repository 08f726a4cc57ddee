package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

var quiet = slog.New(slog.DiscardHandler)

// recorder keeps the order in which handlers ran, and what each saw.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// step is one handler of a chain under test.
type step struct {
	name    string
	matcher string
	out     shared.HookOutput
	err     error
	panic   any
	timeout time.Duration
	// hang makes the handler wait for ctx (it honours it) and return ctx.Err().
	hang bool
}

// handler records name (and, for tool events, the command it saw) and then does what s says.
func (s step) handler(rec *recorder) shared.HookHandler {
	return shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		seen := s.name
		if tc := shared.ToolCall(in); tc != nil && tc.ToolInput.String("command") != "" {
			seen += ":" + tc.ToolInput.String("command")
		}
		rec.add(seen)
		if s.panic != nil {
			panic(s.panic)
		}
		if s.hang {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return s.out, s.err
	})
}

func chain(rec *recorder, e shared.HookEvent, steps ...step) shared.Hooks {
	var cfgs []shared.HookConfig
	for _, s := range steps {
		cfgs = append(cfgs, shared.HookConfig{Name: s.name, Matcher: s.matcher, Handler: s.handler(rec), Timeout: s.timeout})
	}
	return shared.Hooks{e: cfgs}
}

func newExecutor(t testing.TB, hooks shared.Hooks, opts Options) *Engine {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	x, err := New(hooks, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return x
}

// input returns an input of event e; tool events get tool and {"command":"orig"}.
func input(e shared.HookEvent, tool string) shared.HookInput {
	in := shared.NewHookInput(e)
	b := in.Base()
	b.HookEventName, b.SessionID, b.Cwd = e, "sess", "/work"
	if tc := shared.ToolCall(in); tc != nil {
		tc.ToolName, tc.ToolUseID = tool, "toolu_01"
		tc.ToolInput = shared.ToolInput{"command": "orig"}
	}
	if p, ok := in.(*shared.UserPromptSubmitHookInput); ok {
		p.Prompt = "hello"
	}
	return in
}

// wireJSON is the answer the CLI would read for out, decoded into plain JSON values.
func wireJSON(t testing.TB, e shared.HookEvent, out shared.HookOutput) any {
	t.Helper()
	b, err := Marshal(e, out)
	if err != nil {
		t.Fatalf("MarshalWireOutput(%s, %#v): %v", e, out, err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func parseJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %s: %v", s, err)
	}
	return v
}

var errBoom = errors.New("boom")

func TestRunChain(t *testing.T) {
	pre, post := shared.HookEventPreToolUse, shared.HookEventPostToolUse
	tests := []struct {
		name  string
		event shared.HookEvent
		tool  string
		steps []step
		// wantCalls is the order the handlers ran in, with the command each saw.
		wantCalls []string
		// want is the wire JSON sent to the CLI.
		want    string
		wantErr error
	}{
		{
			name:  "matcher filters by tool name",
			event: pre, tool: "Read",
			steps:     []step{{name: "write", matcher: "Write|Edit", out: shared.Deny("no writes")}, {name: "read", matcher: "Read", out: shared.Allow()}, {name: "all", matcher: "*"}},
			wantCalls: []string{"read:orig", "all:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		},
		{
			name:  "no handler matches: no opinion",
			event: pre, tool: "Read",
			steps: []step{{name: "write", matcher: "Write|Edit", out: shared.Deny("no")}},
			want:  `{}`,
		},
		{
			name:      "UserPromptSubmit ignores the matcher",
			event:     shared.HookEventUserPromptSubmit,
			steps:     []step{{name: "a", matcher: "Bash", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.UserPromptSubmitOutput{AdditionalContext: "ctx"}}}},
			wantCalls: []string{"a"},
			want:      `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}`,
		},
		{
			name:      "Stop ignores the matcher",
			event:     shared.HookEventStop,
			steps:     []step{{name: "a", matcher: "Write|Edit", out: shared.Block("keep going")}},
			wantCalls: []string{"a"},
			want:      `{"decision":"block","reason":"keep going"}`,
		},
		{
			name:  "deny short-circuits",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Allow()}, {name: "b", out: shared.Deny("no")}, {name: "c", out: shared.Allow()}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
		},
		{
			name:  "top-level block short-circuits",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Block("legacy")}, {name: "b", out: shared.Allow()}},
			wantCalls: []string{"a:orig"},
			want:      `{"decision":"block","reason":"legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"legacy"}}`,
		},
		{
			name:  "PostToolUse block short-circuits",
			event: post, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Block("look again")}, {name: "b", out: shared.AddContext("never")}},
			wantCalls: []string{"a:orig"},
			want:      `{"decision":"block","reason":"look again"}`,
		},
		{
			name:  "continue:true lets the chain go on",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: &shared.SyncHookOutput{Continue: shared.ContinueYes}}, {name: "b", out: shared.Allow()}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		},
		{
			name:  "continue:false stops the chain",
			event: post, tool: "Bash",
			steps:     []step{{name: "a", out: shared.AddContext("first")}, {name: "b", out: shared.Stop("enough")}, {name: "c", out: shared.AddContext("never")}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"continue":false,"stopReason":"enough","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"first"}}`,
		},
		{
			name:  "updatedInput is what the next handler sees; the last one is sent",
			event: pre, tool: "Bash",
			steps: []step{
				{name: "a", out: shared.AllowWithInput(shared.ToolInput{"command": "one"})},
				{name: "b", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{UpdatedInput: shared.ToolInput{"command": "two"}}}},
				{name: "c"},
			},
			wantCalls: []string{"a:orig", "b:one", "c:two"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"two"}}}`,
		},
		{
			name:  "additionalContext and systemMessage are joined",
			event: pre, tool: "Bash",
			steps: []step{
				{name: "a", out: &shared.SyncHookOutput{SystemMessage: "s1", HookSpecificOutput: &shared.ContextOutput{AdditionalContext: "one"}}},
				{name: "b", out: &shared.SyncHookOutput{SystemMessage: "s2", HookSpecificOutput: &shared.PreToolUseOutput{AdditionalContext: "two"}}},
			},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"systemMessage":"s1\ns2","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"one\n\ntwo"}}`,
		},
		{
			name:  "PostToolUse context joined, last specific output kept",
			event: post, tool: "Bash",
			steps: []step{
				{name: "a", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "one", UpdatedToolOutput: map[string]any{"stdout": "x"}}}},
				{name: "b", out: shared.AddContext("two")},
			},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"one\n\ntwo","updatedToolOutput":{"stdout":"x"}}}`,
		},
		{
			name:  "ask outranks an earlier allow",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Allow()}, {name: "b", out: shared.Ask("check")}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check"}}`,
		},
		{
			name:  "ask outranks a later allow",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Ask("check")}, {name: "b", out: shared.Allow()}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check"}}`,
		},
		{
			name:  "deny outranks ask and allow, and keeps the rewrite and context",
			event: pre, tool: "Bash",
			steps: []step{
				{name: "a", out: shared.Ask("check")},
				{name: "b", out: shared.AllowWithInput(shared.ToolInput{"command": "safe"})},
				{name: "c", out: shared.AddContext("ctx")},
				{name: "d", out: shared.Deny("never")},
			},
			wantCalls: []string{"a:orig", "b:orig", "c:safe", "d:safe"},
			want:      `{"decision":"block","reason":"never","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"never","updatedInput":{"command":"safe"},"additionalContext":"ctx"}}`,
		},
		{
			name:  "defer ends the chain",
			event: pre, tool: "Bash",
			steps:     []step{{name: "a", out: shared.Ask("check")}, {name: "b", out: &shared.SyncHookOutput{Decision: shared.DecisionDefer}}, {name: "c", out: shared.Deny("never")}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`,
		},
		{
			name:  "PermissionRequest deny wins over an earlier allow and stops",
			event: shared.HookEventPermissionRequest, tool: "Bash",
			steps: []step{
				{name: "a", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionAllow}}}},
				{name: "b", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no"}}}},
				{name: "c"},
			},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`,
		},
		{
			name:  "PostToolUse error is reported and the others still merge",
			event: post, tool: "Bash",
			steps:     []step{{name: "a", out: shared.AddContext("one")}, {name: "b", err: errBoom}, {name: "c", out: shared.AddContext("three")}},
			wantCalls: []string{"a:orig", "b:orig", "c:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"one\n\nthree"}}`,
			wantErr:   errBoom,
		},
		{
			name:  "PostToolUse panic is reported and the others still merge",
			event: post, tool: "Bash",
			steps:     []step{{name: "a", panic: "kaboom"}, {name: "b", out: shared.AddContext("two")}},
			wantCalls: []string{"a:orig", "b:orig"},
			want:      `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"two"}}`,
			wantErr:   shared.ErrHookPanic,
		},
		{
			name:      "Stop nonsense output is reported and the others still merge",
			event:     shared.HookEventStop,
			steps:     []step{{name: "a", out: &shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny"}}}, {name: "b", out: shared.AddContext("two")}},
			wantCalls: []string{"a", "b"},
			want:      `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"two"}}`,
			wantErr:   shared.ErrInvalidOutput,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			x := newExecutor(t, chain(rec, tt.event, tt.steps...), Options{})
			res := x.Run(context.Background(), input(tt.event, tt.tool), "req_1")
			if diff := cmp.Diff(tt.wantCalls, rec.got(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("handlers run (-want +got):\n%s", diff)
			}
			if res.Ran != len(tt.wantCalls) {
				t.Errorf("Ran = %d, want %d", res.Ran, len(tt.wantCalls))
			}
			if diff := cmp.Diff(parseJSON(t, tt.want), wireJSON(t, tt.event, res.Output)); diff != "" {
				t.Errorf("wire answer (-want +got):\n%s", diff)
			}
			if tt.wantErr == nil && res.Err != nil {
				t.Errorf("Err = %v, want nil", res.Err)
			}
			if tt.wantErr != nil && !errors.Is(res.Err, tt.wantErr) {
				t.Errorf("Err = %v, want %v", res.Err, tt.wantErr)
			}
			if res.Cancelled {
				t.Errorf("Cancelled = true")
			}
		})
	}
}

func TestRunChainOrderIsDeterministic(t *testing.T) {
	rec := &recorder{}
	var steps []step
	var want []string
	for _, n := range []string{"e", "b", "d", "a", "c", "f", "h", "g"} {
		steps = append(steps, step{name: n, out: shared.AddContext(n)})
		want = append(want, n+":orig")
	}
	x := newExecutor(t, chain(rec, shared.HookEventPreToolUse, steps...), Options{})
	for range 50 {
		rec.calls = nil
		res := x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
		if diff := cmp.Diff(want, rec.got()); diff != "" {
			t.Fatalf("order (-want +got):\n%s", diff)
		}
		wantOut := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"e\n\nb\n\nd\n\na\n\nc\n\nf\n\nh\n\ng"}}`
		if diff := cmp.Diff(parseJSON(t, wantOut), wireJSON(t, shared.HookEventPreToolUse, res.Output)); diff != "" {
			t.Fatalf("answer (-want +got):\n%s", diff)
		}
	}
}

// TestRunUpdatedInputDoesNotChangeWhatEarlierHandlersSaw: a rewrite is a copy.
func TestRunUpdatedInputIsACopy(t *testing.T) {
	var first shared.ToolInput
	rewrite := shared.ToolInput{"command": "new"}
	hooks := shared.Hooks{shared.HookEventPreToolUse: {
		{Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
			first = shared.ToolCall(in).ToolInput
			return shared.AllowWithInput(rewrite), nil
		})},
		{Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
			shared.ToolCall(in).ToolInput["command"] = "mutated by b"
			return nil, nil
		})},
	}}
	x := newExecutor(t, hooks, Options{})
	res := x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
	if got := first.String("command"); got != "orig" {
		t.Errorf("first handler's input changed to %q", got)
	}
	if got := rewrite.String("command"); got != "new" {
		t.Errorf("handler a's rewrite changed to %q", got)
	}
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"new"}}}`
	if diff := cmp.Diff(parseJSON(t, want), wireJSON(t, shared.HookEventPreToolUse, res.Output)); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
}

// denialOf returns what decides the guarded action in an answer: PreToolUse's permissionDecision
// (and the legacy decision), PermissionRequest's behavior, UserPromptSubmit's decision.
func denialOf(t testing.TB, e shared.HookEvent, out shared.HookOutput) (verdict, reason string) {
	t.Helper()
	w := wireJSON(t, e, out).(map[string]any)
	str := func(v any) string { s, _ := v.(string); return s }
	hs, _ := w["hookSpecificOutput"].(map[string]any)
	switch e {
	case shared.HookEventPreToolUse:
		if str(w["decision"]) != "block" {
			t.Errorf("legacy decision = %v, want block", w["decision"])
		}
		return str(hs["permissionDecision"]), str(hs["permissionDecisionReason"])
	case shared.HookEventPermissionRequest:
		d, _ := hs["decision"].(map[string]any)
		return str(d["behavior"]), str(d["message"])
	default:
		return str(w["decision"]), str(w["reason"])
	}
}

func TestRunFailsClosed(t *testing.T) {
	guarded := []struct {
		event shared.HookEvent
		want  string // the event's denial word
	}{
		{shared.HookEventPreToolUse, "deny"},
		{shared.HookEventPermissionRequest, "deny"},
		{shared.HookEventUserPromptSubmit, "block"},
	}
	failures := []struct {
		name       string
		fail       step
		wantErr    error
		wantReason string // a substring of the denial's reason
	}{
		{"error", step{err: errBoom}, errBoom, "boom"},
		{"panic", step{panic: "the handler exploded"}, shared.ErrHookPanic, "hook panicked: the handler exploded"},
		{"timeout", step{hang: true, timeout: 2 * time.Second}, shared.ErrHookTimeout, "hook timed out after 2s"},
		{"wrong hookSpecificOutput type", step{out: &shared.SyncHookOutput{HookSpecificOutput: &shared.SessionStartOutput{AdditionalContext: "x"}}}, shared.ErrInvalidOutput, "belongs to another event"},
		{"unknown decision word", step{out: &shared.SyncHookOutput{Decision: "perhaps"}}, shared.ErrInvalidOutput, `unknown decision "perhaps"`},
	}
	for _, g := range guarded {
		for _, f := range failures {
			t.Run(string(g.event)+"/"+f.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					rec := &recorder{}
					fail := f.fail
					fail.name = "bad"
					x := newExecutor(t, chain(rec, g.event,
						step{name: "before", out: &shared.SyncHookOutput{SystemMessage: "fine"}},
						fail,
						step{name: "after", out: &shared.SyncHookOutput{SystemMessage: "never"}},
					), Options{})
					res := x.Run(context.Background(), input(g.event, "Bash"), "r")
					calls := rec.got()
					if len(calls) != 2 || strings.HasPrefix(calls[len(calls)-1], "after") {
						t.Errorf("handlers run = %v, want before and bad only", calls)
					}
					if !errors.Is(res.Err, f.wantErr) {
						t.Errorf("Err = %v, want %v", res.Err, f.wantErr)
					}
					var he *shared.HookError
					if !errors.As(res.Err, &he) || he.Name != "bad" || he.Index != 1 || he.Event != g.event {
						t.Errorf("Err = %#v, want a *shared.HookError for bad (#1)", res.Err)
					}
					verdict, reason := denialOf(t, g.event, res.Output)
					if verdict != g.want {
						t.Errorf("verdict = %q, want %q (answer %+v)", verdict, g.want, wireJSON(t, g.event, res.Output))
					}
					if !strings.Contains(reason, f.wantReason) || !strings.Contains(reason, "fail-closed") {
						t.Errorf("reason = %q, want it to contain %q and fail-closed", reason, f.wantReason)
					}
					if strings.Contains(reason, "goroutine ") {
						t.Errorf("reason carries a stack: %q", reason)
					}
				})
			})
		}
	}
}

// TestRunTimeoutEndsNonGuardingChain: a timed-out handler may still run, so the chain stops; the
// outputs before it are kept.
func TestRunTimeoutEndsNonGuardingChain(t *testing.T) {
	for _, honours := range []bool{true, false} {
		name := "handler honours ctx"
		if !honours {
			name = "handler ignores ctx"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release) // lets the handler that ignores ctx end inside the bubble
				var slow shared.HookHandler = shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
					if honours {
						<-ctx.Done()
						return nil, ctx.Err()
					}
					<-release
					return shared.AddContext("late"), nil
				})
				ran := false
				hooks := shared.Hooks{shared.HookEventPostToolUse: {
					{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
						return shared.AddContext("first"), nil
					})},
					{Handler: slow, Timeout: time.Second},
					{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { ran = true; return nil, nil })},
				}}
				x := newExecutor(t, hooks, Options{})
				start := time.Now()
				res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
				if d := time.Since(start); d != time.Second {
					t.Errorf("chain took %v, want exactly the 1s timeout", d)
				}
				if !errors.Is(res.Err, shared.ErrHookTimeout) {
					t.Errorf("Err = %v, want shared.ErrHookTimeout", res.Err)
				}
				if ran {
					t.Error("the handler after the timed-out one ran")
				}
				want := `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"first"}}`
				if diff := cmp.Diff(parseJSON(t, want), wireJSON(t, shared.HookEventPostToolUse, res.Output)); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestRunTimeoutIsATimeoutEvenWhenTheHandlerReturnsCtxErr: a handler that honours ctx returns
// ctx.Err() at the very moment its deadline passes; that must always count as a timeout, never as
// an ordinary error (for which a non-guarding chain would go on). Repeated to catch a race.
func TestRunTimeoutIsATimeoutEvenWhenTheHandlerReturnsCtxErr(t *testing.T) {
	for i := range 200 {
		synctest.Test(t, func(t *testing.T) {
			var outcomes []shared.HookOutcome
			rec := &recorder{}
			x := newExecutor(t, chain(rec, shared.HookEventStop,
				step{name: "slow", hang: true, timeout: time.Second},
				step{name: "after"},
			), Options{Observe: func(r HandlerRun) {
				if r.Outcome != "" {
					outcomes = append(outcomes, r.Outcome)
				}
			}})
			res := x.Run(context.Background(), input(shared.HookEventStop, ""), "r")
			if !errors.Is(res.Err, shared.ErrHookTimeout) || len(rec.got()) != 1 || len(outcomes) != 1 || outcomes[0] != shared.HookOutcomeTimeout {
				t.Fatalf("run %d: Err = %v, handlers run %v, outcomes %v; want a timeout that ends the chain", i, res.Err, rec.got(), outcomes)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	for _, e := range []shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPostToolUse} {
		t.Run(string(e), func(t *testing.T) {
			// Repeated: a handler that honours ctx returns ctx.Err() just as the cancel lands.
			for i := range 200 {
				synctest.Test(t, func(t *testing.T) {
					rec := &recorder{}
					started := make(chan struct{})
					hooks := shared.Hooks{e: {
						{Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
							close(started)
							<-ctx.Done()
							return nil, ctx.Err()
						})},
						{Handler: step{name: "after"}.handler(rec)},
					}}
					var outcomes []shared.HookOutcome
					x := newExecutor(t, hooks, Options{Observe: func(r HandlerRun) {
						if r.Outcome != "" {
							outcomes = append(outcomes, r.Outcome)
						}
					}})
					ctx, cancel := context.WithCancel(context.Background())
					go func() { <-started; cancel() }()
					res := x.Run(ctx, input(e, "Bash"), "r")
					if !res.Cancelled || !errors.Is(res.Err, shared.ErrHookCancelled) || res.Output != nil {
						t.Fatalf("run %d: Run = %+v, want Cancelled with shared.ErrHookCancelled and no output", i, res)
					}
					if len(rec.got()) != 0 {
						t.Fatalf("run %d: handlers after the cancel ran: %v", i, rec.got())
					}
					if diff := cmp.Diff([]shared.HookOutcome{shared.HookOutcomeCancelled}, outcomes); diff != "" {
						t.Fatalf("run %d: outcomes (-want +got):\n%s", i, diff)
					}
				})
			}
		})
	}
}

func TestRunCancelledBeforeStart(t *testing.T) {
	rec := &recorder{}
	x := newExecutor(t, chain(rec, shared.HookEventPreToolUse, step{name: "a", out: shared.Allow()}), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := x.Run(ctx, input(shared.HookEventPreToolUse, "Bash"), "r")
	if !res.Cancelled || res.Output != nil {
		t.Errorf("Run = %+v, want Cancelled and no output", res)
	}
	if len(rec.got()) != 0 {
		t.Errorf("handlers ran on a cancelled ctx: %v", rec.got())
	}
}

// TestRunCancelledAfterSuccess: a handler that ignores ctx and returns after the request was
// cancelled must not produce an answer.
func TestRunCancelledAfterSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		hooks := shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			cancel()
			return shared.Allow(), nil
		})}}}
		x := newExecutor(t, hooks, Options{})
		res := x.Run(ctx, input(shared.HookEventPreToolUse, "Bash"), "r")
		if !res.Cancelled {
			t.Errorf("Run = %+v, want Cancelled", res)
		}
	})
}

func TestRunObserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var runs []HandlerRun
		hooks := shared.Hooks{shared.HookEventPostToolUse: {
			{Name: "slow", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				time.Sleep(1500 * time.Millisecond) // fake time inside the bubble
				return nil, nil
			})},
			{Name: "skipped", Matcher: "Write", Handler: trivialHandler},
			{Name: "fails", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, errBoom })},
			{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { panic("oops") })},
			{Name: "hangs", Timeout: 3 * time.Second, Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})},
		}}
		x := newExecutor(t, hooks, Options{Observe: func(r HandlerRun) { runs = append(runs, r) }})
		t0 := time.Now()
		x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "req_7")
		base := HandlerRun{Event: shared.HookEventPostToolUse, ToolName: "Bash", ToolUseID: "toolu_01", RequestID: "req_7"}
		var ids = map[int]uint64{0: 1, 2: 2, 3: 3, 4: 4} // runs are numbered as they start
		run := func(idx int, name string, started time.Duration, d time.Duration, o shared.HookOutcome) HandlerRun {
			r := base
			r.ID, r.Index, r.Name, r.Started, r.Duration, r.Outcome = ids[idx], idx, name, t0.Add(started), d, o
			return r
		}
		want := []HandlerRun{
			run(0, "slow", 0, 0, ""),
			run(0, "slow", 0, 1500*time.Millisecond, shared.HookOutcomeSuccess),
			run(2, "fails", 1500*time.Millisecond, 0, ""),
			run(2, "fails", 1500*time.Millisecond, 0, shared.HookOutcomeError),
			run(3, "", 1500*time.Millisecond, 0, ""),
			run(3, "", 1500*time.Millisecond, 0, shared.HookOutcomePanic),
			run(4, "hangs", 1500*time.Millisecond, 0, ""),
			run(4, "hangs", 1500*time.Millisecond, 3*time.Second, shared.HookOutcomeTimeout),
		}
		wantErrs := []error{nil, nil, nil, errBoom, nil, shared.ErrHookPanic, nil, shared.ErrHookTimeout}
		if diff := cmp.Diff(want, runs, cmpopts.IgnoreFields(HandlerRun{}, "Err")); diff != "" {
			t.Errorf("observed runs (-want +got):\n%s", diff)
		}
		for i := range min(len(runs), len(wantErrs)) {
			if (wantErrs[i] == nil) != (runs[i].Err == nil) || (wantErrs[i] != nil && !errors.Is(runs[i].Err, wantErrs[i])) {
				t.Errorf("run %d: Err = %v, want %v", i, runs[i].Err, wantErrs[i])
			}
		}
	})
}

func TestPanicIsLoggedWithStack(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	hooks := shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { panic("deep trouble") })}}}
	x := newExecutor(t, hooks, Options{Logger: logger})
	res := x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
	var he *shared.HookError
	if !errors.As(res.Err, &he) || len(he.Stack) == 0 {
		t.Fatalf("Err = %#v, want a *shared.HookError with a stack", res.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(buf.String(), "deep trouble") || !strings.Contains(buf.String(), "engine_test.go") {
		t.Errorf("log lacks the panic and its stack:\n%s", buf.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestCLIMatcher(t *testing.T) {
	pre := shared.HookEventPreToolUse
	tests := []struct {
		name     string
		event    shared.HookEvent
		matchers []string
		want     string
	}{
		{"one name", pre, []string{"Bash"}, "Bash"},
		{"union of exact lists, in order, without duplicates", pre, []string{"Write|Edit", "Read, Write", "Edit"}, "Write|Edit|Read"},
		{"a match-all handler", pre, []string{"Write", ""}, ""},
		{"a star", pre, []string{"*", "Write"}, ""},
		{"a glob", pre, []string{"Write", "mcp__*"}, ""},
		{"a regexp", pre, []string{"Edit.*", "Write"}, ""},
		{"a finite regexp registers its names", pre, []string{"^(Bash|Read)$", "(Web)?Fetch", "Write"}, "Bash|Read|Fetch|WebFetch|Write"},
		{"a finite regexp of names the CLI cannot list", pre, []string{`mcp__a\.b`, "Write"}, ""},
		{"a case-insensitive regexp", pre, []string{"(?i)bash"}, ""},
		{"a legacy name is passed on (the CLI knows its aliases)", pre, []string{"Task"}, "Task"},
		{"an empty list matches nothing", pre, []string{" | "}, "|"},
		{"non-tool event with a match value", shared.HookEventSessionStart, []string{"clear", "compact"}, "clear|compact"},
		{"UserPromptSubmit ignores matchers", shared.HookEventUserPromptSubmit, []string{"Bash"}, ""},
		{"Stop ignores matchers", shared.HookEventStop, []string{"Write|Edit"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfgs []shared.HookConfig
			for _, m := range tt.matchers {
				cfgs = append(cfgs, shared.HookConfig{Matcher: m, Handler: trivialHandler})
			}
			x := newExecutor(t, shared.Hooks{tt.event: cfgs}, Options{})
			if got := x.CLIMatcher(tt.event); got != tt.want {
				t.Errorf("CLIMatcher = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestChainTimeoutAndEvents(t *testing.T) {
	hooks := shared.Hooks{
		shared.HookEventPostToolUse: {{Handler: trivialHandler}},
		shared.HookEventPreToolUse: {
			{Handler: trivialHandler, Timeout: time.Second},
			{Handler: trivialHandler}, // the executor's default
			{Handler: trivialHandler, Timeout: 3 * time.Second},
		},
	}
	x := newExecutor(t, hooks, Options{DefaultTimeout: 2 * time.Second})
	if got := x.ChainTimeout(shared.HookEventPreToolUse); got != 6*time.Second {
		t.Errorf("ChainTimeout(PreToolUse) = %v, want 6s", got)
	}
	if got := x.ChainTimeout(shared.HookEventStop); got != 0 {
		t.Errorf("ChainTimeout(Stop) = %v, want 0", got)
	}
	if diff := cmp.Diff([]shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPostToolUse}, x.Events()); diff != "" {
		t.Errorf("Events (-want +got):\n%s", diff)
	}
	if !x.Has(shared.HookEventPostToolUse) || x.Has(shared.HookEventStop) {
		t.Error("Has is wrong")
	}
	var nilX *Engine
	if nilX.Has(shared.HookEventPreToolUse) {
		t.Error("a nil executor has hooks")
	}
	d := newExecutor(t, shared.Hooks{shared.HookEventStop: {{Handler: trivialHandler}}}, Options{})
	if got := d.ChainTimeout(shared.HookEventStop); got != DefaultTimeout {
		t.Errorf("ChainTimeout with no defaults = %v, want %v", got, DefaultTimeout)
	}
}

func TestNewHookExecutorRejectsBadRegistrations(t *testing.T) {
	tests := []struct {
		name  string
		hooks shared.Hooks
	}{
		{"nil handler", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash"}}}},
		{"bad regexp", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash(", Handler: trivialHandler}}}},
		{"unknown event", shared.Hooks{"Nope": {{Handler: trivialHandler}}}},
		{"negative timeout", shared.Hooks{shared.HookEventStop: {{Handler: trivialHandler, Timeout: -time.Second}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.hooks, Options{})
			var re *shared.RegistrationError
			if !errors.As(err, &re) {
				t.Errorf("err = %v, want a *shared.RegistrationError", err)
			}
		})
	}
}

// TestRunCancelledWhileAHandlerIgnoresCtx: a cancel ends the chain at once, even when the handler
// never looks at ctx.
func TestRunCancelledWhileAHandlerIgnoresCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started, release := make(chan struct{}), make(chan struct{})
		defer close(release)
		var outcomes []shared.HookOutcome
		hooks := shared.Hooks{shared.HookEventPreToolUse: {{Timeout: time.Hour, Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			close(started)
			<-release
			return shared.Allow(), nil
		})}}}
		x := newExecutor(t, hooks, Options{Observe: func(r HandlerRun) {
			if r.Outcome != "" {
				outcomes = append(outcomes, r.Outcome)
			}
		}})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; time.Sleep(time.Second); cancel() }()
		start := time.Now()
		res := x.Run(ctx, input(shared.HookEventPreToolUse, "Bash"), "r")
		if d := time.Since(start); d != time.Second {
			t.Errorf("Run returned after %v, want 1s (at the cancel)", d)
		}
		if !res.Cancelled || res.Output != nil || !errors.Is(res.Err, shared.ErrHookCancelled) {
			t.Errorf("Run = %+v, want Cancelled", res)
		}
		if diff := cmp.Diff([]shared.HookOutcome{shared.HookOutcomeCancelled}, outcomes); diff != "" {
			t.Errorf("outcomes (-want +got):\n%s", diff)
		}
	})
}

// TestRunReturnsOnTime: Run returns when the handler answers, at its deadline when it ignores
// ctx, or at a cancel whether the handler honours it or not; a result the handler gives after Run
// returned is dropped.
func TestRunReturnsOnTime(t *testing.T) {
	tests := []struct {
		name string
		// handler gets release, which the test closes after Run returned.
		handler   func(release chan struct{}) shared.HookHandler
		cancelAt  time.Duration // cancel ctx at this time, if not zero
		wantAt    time.Duration // when Run returns
		wantVerd  string        // PreToolUse permissionDecision of the answer, "" for none
		cancelled bool
	}{
		{"answers at once", func(chan struct{}) shared.HookHandler { return trivialHandler }, 0, 0, "allow", false},
		{"ignores ctx past its timeout", func(release chan struct{}) shared.HookHandler {
			return shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				<-release
				return shared.Allow(), nil
			})
		}, 0, 2 * time.Second, "deny", false},
		{"ignores a cancel", func(release chan struct{}) shared.HookHandler {
			return shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				<-release
				return shared.Allow(), nil
			})
		}, 500 * time.Millisecond, 500 * time.Millisecond, "", true},
		{"honours a cancel", func(chan struct{}) shared.HookHandler {
			return shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})
		}, 500 * time.Millisecond, 500 * time.Millisecond, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Timeout: 2 * time.Second, Handler: tt.handler(release)}}}, Options{})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tt.cancelAt > 0 {
					time.AfterFunc(tt.cancelAt, cancel)
				}
				start := time.Now()
				res := x.Run(ctx, input(shared.HookEventPreToolUse, "Bash"), "r")
				if d := time.Since(start); d != tt.wantAt {
					t.Errorf("Run returned after %v, want %v", d, tt.wantAt)
				}
				close(release)
				synctest.Wait() // the abandoned handler's goroutine ends, its result dropped
				if res.Cancelled != tt.cancelled {
					t.Errorf("Cancelled = %v, want %v", res.Cancelled, tt.cancelled)
				}
				verdict := ""
				if res.Output != nil {
					w := wireJSON(t, shared.HookEventPreToolUse, res.Output).(map[string]any)
					hs, _ := w["hookSpecificOutput"].(map[string]any)
					verdict, _ = hs["permissionDecision"].(string)
				}
				if verdict != tt.wantVerd {
					t.Errorf("verdict = %q, want %q", verdict, tt.wantVerd)
				}
			})
		})
	}
}

// TestRunMatchesLikeTheMatchers: the chain runs exactly the handlers whose matcher matches, in
// registration order.
func TestRunMatchesLikeTheMatchers(t *testing.T) {
	matchers := []string{"Write|Edit", "mcp__*", "", "Read, Write", "Edit.*", "Bash", "Write|Write", "NotebookEdit|Edit", "Read", "^(Task|Bash)$", "Agent"}
	values := []string{"Write", "Edit", "Read", "Bash", "EditX", "NotebookEdit", "mcp__x__y", "Unknown", "", "Agent", "Task"}
	rec := &recorder{}
	var steps []step
	for i, m := range matchers {
		steps = append(steps, step{name: fmt.Sprint(i), matcher: m})
	}
	x := newExecutor(t, chain(rec, shared.HookEventPreToolUse, steps...), Options{})
	for _, v := range values {
		var want []string
		for i, m := range matchers {
			if cm, _ := shared.CompileMatcher(m); cm.Match(v) {
				want = append(want, fmt.Sprint(i)+":orig")
			}
		}
		rec.calls = nil
		res := x.Run(context.Background(), input(shared.HookEventPreToolUse, v), "r")
		if diff := cmp.Diff(want, rec.got(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("tool %q: handlers run (-want +got):\n%s", v, diff)
		}
		if res.Ran != len(want) {
			t.Errorf("tool %q: Ran = %d, want %d", v, res.Ran, len(want))
		}
	}
}

// TestRunHandlerIgnoringCtxIsDeniedAtItsDeadline: a guarding event's handler that never looks at
// its ctx does not hold the chain up: Run returns at the handler's deadline with the fail-closed
// denial and ErrHookTimeout, and the observers hear of a timeout. The handler's late allow is
// dropped.
func TestRunHandlerIgnoringCtxIsDeniedAtItsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var outcomes []shared.HookOutcome
		x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Name: "deaf", Timeout: 3 * time.Second,
			Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				<-release // ignores ctx
				return shared.Allow(), nil
			})}}}, Options{Observe: func(r HandlerRun) {
			if r.Outcome != "" {
				outcomes = append(outcomes, r.Outcome)
			}
		}})
		start := time.Now()
		res := x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
		if d := time.Since(start); d != 3*time.Second {
			t.Errorf("Run returned after %v, want the 3s deadline", d)
		}
		close(release)
		synctest.Wait() // the handler returns its allow now, to nobody
		if !errors.Is(res.Err, shared.ErrHookTimeout) || res.Cancelled {
			t.Errorf("Run = %+v, want shared.ErrHookTimeout", res)
		}
		verdict, reason := denialOf(t, shared.HookEventPreToolUse, res.Output)
		if verdict != "deny" || !strings.Contains(reason, "deaf") || !strings.Contains(reason, "timed out after 3s") {
			t.Errorf("answer %q %q, want the fail-closed denial naming the hook and its timeout", verdict, reason)
		}
		if diff := cmp.Diff([]shared.HookOutcome{shared.HookOutcomeTimeout}, outcomes); diff != "" {
			t.Errorf("outcomes (-want +got):\n%s", diff)
		}
	})
}

func panickingHandler(context.Context, shared.HookInput) (shared.HookOutput, error) {
	panic("handler exploded")
}

// TestPanicStackReachesHookError: the stack of a handler's panic, taken on the handler's own
// goroutine, is in HookError.Stack, and names the function that panicked.
func TestPanicStackReachesHookError(t *testing.T) {
	for _, e := range []shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPostToolUse} {
		t.Run(string(e), func(t *testing.T) {
			x := newExecutor(t, shared.Hooks{e: {{Handler: shared.HookHandlerFunc(panickingHandler)}}}, Options{})
			res := x.Run(context.Background(), input(e, "Bash"), "r")
			var he *shared.HookError
			if !errors.As(res.Err, &he) || !errors.Is(res.Err, shared.ErrHookPanic) {
				t.Fatalf("Err = %v, want a *shared.HookError wrapping shared.ErrHookPanic", res.Err)
			}
			if !strings.Contains(string(he.Stack), "panickingHandler") {
				t.Errorf("HookError.Stack does not name the panicking function:\n%s", he.Stack)
			}
			if !strings.Contains(he.Error(), "handler exploded") || strings.Contains(he.Error(), "goroutine ") {
				t.Errorf("Error() = %q, want the panic value without the stack", he.Error())
			}
		})
	}
}

// TestMatcherAliasesInTheChain: CLI 2.1.330 sends tool_name "Agent" for its Agent tool, whose legacy
// name is Task: a hook registered for "Task" must guard it (issue 12 item 5), and one registered for
// "Agent" must fire for a "Task" call (an older CLI's name).
func TestMatcherAliasesInTheChain(t *testing.T) {
	tests := []struct {
		matcher string
		tool    string
		want    bool
	}{
		{"Task", "Agent", true},
		{"Agent", "Task", true},
		{"Task", "Task", true},
		{"Write|Task", "Agent", true},
		{"^Task$", "Agent", true},
		{"KillShell", "TaskStop", true},
		{"Task", "TaskCreate", false},
		{"Bash", "Agent", false},
	}
	for _, tt := range tests {
		t.Run(tt.matcher+"/"+tt.tool, func(t *testing.T) {
			x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Matcher: tt.matcher, Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return shared.Deny("no subagents"), nil
			})}}}, Options{})
			res := x.Run(context.Background(), input(shared.HookEventPreToolUse, tt.tool), "r")
			if got := res.Ran == 1; got != tt.want {
				t.Errorf("matcher %q fired for tool %q: %v, want %v", tt.matcher, tt.tool, got, tt.want)
			}
		})
	}
}

// TestChainTimeoutRule: ChainTimeout is the largest sum of the timeouts of the handlers that can
// match one request, not the sum over every handler.
func TestChainTimeoutRule(t *testing.T) {
	type hook struct {
		matcher string
		timeout time.Duration
	}
	pre, stop := shared.HookEventPreToolUse, shared.HookEventStop
	var disjoint []hook
	for i := range 1000 {
		disjoint = append(disjoint, hook{fmt.Sprintf("Tool%d|Other%d", i, i), 0})
	}
	disjoint = append(disjoint, hook{"Bash", 0})
	tests := []struct {
		name  string
		event shared.HookEvent
		hooks []hook
		want  time.Duration
	}{
		{"match-all handlers all run", pre, []hook{{"", time.Second}, {"*", 2 * time.Second}, {"", 0}}, 8 * time.Second},
		{"1,001 disjoint lists: one handler's timeout", pre, disjoint, DefaultTimeout},
		{"overlapping lists: the worst name", pre, []hook{{"Write|Edit", time.Second}, {"Edit", 2 * time.Second}, {"", 4 * time.Second}, {"Read", 9 * time.Second}}, 13 * time.Second},
		{"aliases are one tool", pre, []hook{{"Task", time.Second}, {"Agent", 2 * time.Second}, {"Bash", 2 * time.Second}}, 3 * time.Second},
		{"a finite regexp counts for its names", pre, []hook{{"^(Bash|Read)$", time.Second}, {"Bash", 2 * time.Second}, {"Write", 2 * time.Second}}, 3 * time.Second},
		{"an infinite regexp counts for every name", pre, []hook{{"mcp__.*", time.Second}, {"Bash", 2 * time.Second}, {"Write", 2 * time.Second}}, 3 * time.Second},
		{"an empty list matches nothing", pre, []hook{{"|", 7 * time.Second}, {"Bash", time.Second}}, time.Second},
		{"an event without a matcher runs every handler", stop, []hook{{"Bash", time.Second}, {"Read", 2 * time.Second}}, 3 * time.Second},
		{"no handler", stop, nil, 0},
		{"the sum saturates at the CLI's limit", pre, []hook{{"", 1 << 62}, {"", 1 << 62}, {"", 1 << 62}}, maxCLITimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfgs []shared.HookConfig
			for _, h := range tt.hooks {
				cfgs = append(cfgs, shared.HookConfig{Matcher: h.matcher, Timeout: h.timeout, Handler: trivialHandler})
			}
			x := newExecutor(t, shared.Hooks{tt.event: cfgs}, Options{DefaultTimeout: DefaultTimeout})
			if got := x.ChainTimeout(tt.event); got != tt.want {
				t.Errorf("ChainTimeout = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestStrictToolNames: a tool event's matcher naming a tool the CLI does not have is a warning, or
// with StrictToolNames a registration error (at construction and for scoped hooks).
func TestStrictToolNames(t *testing.T) {
	hooks := shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: trivialHandler}, {Matcher: "Bsh|Edit", Handler: trivialHandler}}}
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	x := newExecutor(t, hooks, Options{Logger: logger})
	mu.Lock()
	if !strings.Contains(buf.String(), "Bsh") {
		t.Errorf("no warning naming Bsh:\n%s", buf.String())
	}
	mu.Unlock()
	if err := x.RegisterScoped("s", shared.Hooks{shared.HookEventPostToolUse: {{Matcher: "Wirte", Handler: trivialHandler}}}, ScopeOptions{}); err != nil {
		t.Errorf("RegisterScoped without strict mode: %v", err)
	}

	_, err := New(hooks, Options{Logger: quiet, StrictToolNames: true})
	var re *shared.RegistrationError
	if !errors.Is(err, shared.ErrUnknownTool) || !errors.As(err, &re) || re.Event != shared.HookEventPreToolUse || re.Index != 1 {
		t.Errorf("strict New = %v, want a *RegistrationError for PreToolUse[1] wrapping ErrUnknownTool", err)
	}
	sx := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Task|mcp__github__*", Handler: trivialHandler}}}, Options{StrictToolNames: true})
	if err := sx.RegisterScoped("s", shared.Hooks{shared.HookEventPostToolUse: {{Matcher: "Wirte", Handler: trivialHandler}}}, ScopeOptions{}); !errors.Is(err, shared.ErrUnknownTool) {
		t.Errorf("strict RegisterScoped = %v, want ErrUnknownTool", err)
	}
	if len(sx.ScopeIDs()) != 0 {
		t.Errorf("a refused scope was added: %v", sx.ScopeIDs())
	}
}

// TestResultVerdict: a chain's Result carries the engine's reading of its merged answer
// (Decision, Reason), which the transport's PermissionRequest join reads instead of the answer.
func TestResultVerdict(t *testing.T) {
	pre, perm, post := shared.HookEventPreToolUse, shared.HookEventPermissionRequest, shared.HookEventPostToolUse
	tests := []struct {
		name       string
		event      shared.HookEvent
		steps      []step
		wantDec    shared.Decision
		wantReason string
	}{
		{"no opinion", pre, []step{{name: "a", out: nil}}, "", ""},
		{"pre deny", pre, []step{{name: "a", out: shared.Deny("no")}}, shared.DecisionDeny, "no"},
		{"pre allow then ask", pre, []step{{name: "a", out: shared.Allow()}, {name: "b", out: shared.Ask("why")}}, shared.DecisionAsk, "why"},
		{"permission allow", perm, []step{{name: "a", out: shared.Allow()}}, shared.DecisionAllow, ""},
		{"permission deny", perm, []step{{name: "a", out: shared.Deny("stop")}}, shared.DecisionDeny, "stop"},
		{"permission failed closed", perm, []step{{name: "a", err: errBoom}}, shared.DecisionDeny, failClosedReason + ": PermissionRequest hook a: boom"},
		{"post block", post, []step{{name: "a", out: shared.Block("b")}}, shared.DecisionDeny, "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newExecutor(t, chain(&recorder{}, tt.event, tt.steps...), Options{})
			res := x.Run(context.Background(), input(tt.event, "Bash"), "req")
			if diff := cmp.Diff([2]string{string(tt.wantDec), tt.wantReason}, [2]string{string(res.Decision), res.Reason}); diff != "" {
				t.Errorf("Result verdict (-want +got):\n%s", diff)
			}
		})
	}
}
