package hooks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// named returns a handler that records name.
func named(rec *recorder, name string) shared.HookHandler {
	return shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		rec.add(name)
		return nil, nil
	})
}

func agentInput(e shared.HookEvent, tool, agent string) shared.HookInput {
	in := input(e, tool)
	in.Base().AgentID = agent
	return in
}

func TestScopedHooksRunAfterTheBaseInRegistrationOrder(t *testing.T) {
	rec := &recorder{}
	x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: named(rec, "base")}}}, Options{})
	pre := func(name string) shared.Hooks {
		return shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: named(rec, name+"1")}, {Handler: named(rec, name+"2")}}}
	}
	run := func(tool string) []string {
		rec.calls = nil
		x.Run(context.Background(), input(shared.HookEventPreToolUse, tool), "r")
		return rec.got()
	}
	if err := x.RegisterScoped("b", pre("b"), ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := x.RegisterScoped("a", pre("a"), ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func()
		tool string
		want []string
	}{
		{"two scopes, in registration order, after the base", nil, "Bash", []string{"base", "b1", "b2", "a1", "a2"}},
		{"scoped matchers apply", nil, "Read", []string{"base", "b2", "a2"}},
		{"after unregistering b", func() {
			if !x.UnregisterScoped("b") {
				t.Error("UnregisterScoped(b) = false")
			}
		}, "Bash", []string{"base", "a1", "a2"}},
		{"after unregistering a", func() { x.UnregisterScoped("a") }, "Bash", []string{"base"}},
		{"a scope registered again comes last", func() {
			if err := x.RegisterScoped("b", pre("b"), ScopeOptions{}); err != nil {
				t.Fatal(err)
			}
		}, "Bash", []string{"base", "b1", "b2"}},
	}
	for _, st := range steps {
		if st.do != nil {
			st.do()
		}
		if diff := cmp.Diff(st.want, run(st.tool)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", st.name, diff)
		}
	}
	if x.UnregisterScoped("nope") {
		t.Error("UnregisterScoped of an unknown scope = true")
	}
	if diff := cmp.Diff([]string{"b"}, x.ScopeIDs()); diff != "" {
		t.Errorf("ScopeIDs (-want +got):\n%s", diff)
	}
}

func TestScopedOutputsMergeWithTheBase(t *testing.T) {
	x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Allow(), nil
	})}}}, Options{})
	if err := x.RegisterScoped("guard", shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("scoped says no"), nil
	})}}}, ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	res := x.Run(context.Background(), input(shared.HookEventPreToolUse, "Bash"), "r")
	if v, reason := denialOf(t, shared.HookEventPreToolUse, res.Output); v != "deny" || reason != "scoped says no" {
		t.Errorf("merged answer %q %q, want the scoped deny (deny outranks the base allow)", v, reason)
	}
}

func TestAgentScope(t *testing.T) {
	rec := &recorder{}
	x := newExecutor(t, nil, Options{})
	if x.Has(shared.HookEventSubagentStop) {
		t.Fatal("Has(SubagentStop) before any scope")
	}
	hooks := shared.Hooks{shared.HookEventPreToolUse: {{Handler: named(rec, "agent-hook")}}}
	if err := x.RegisterScoped("for-a1", hooks, ScopeOptions{AgentID: "a1"}); err != nil {
		t.Fatal(err)
	}
	if !x.Has(shared.HookEventSubagentStop) || x.CLIMatcher(shared.HookEventSubagentStop) != "" {
		t.Errorf("an agent scope needs every SubagentStop: Has %v, CLI matcher %q", x.Has(shared.HookEventSubagentStop), x.CLIMatcher(shared.HookEventSubagentStop))
	}
	if diff := cmp.Diff([]shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventSubagentStop}, x.Events()); diff != "" {
		t.Errorf("Events (-want +got):\n%s", diff)
	}
	for _, agent := range []string{"a1", "a2", ""} {
		x.Run(context.Background(), agentInput(shared.HookEventPreToolUse, "Bash", agent), "r")
	}
	if diff := cmp.Diff([]string{"agent-hook"}, rec.got()); diff != "" {
		t.Errorf("the agent scope fired for (-want +got):\n%s", diff)
	}

	stop := func(agent string) Result {
		return x.Run(context.Background(), agentInput(shared.HookEventSubagentStop, "", agent), "stop")
	}
	stop("a2")
	if diff := cmp.Diff([]string{"for-a1"}, x.ScopeIDs()); diff != "" {
		t.Errorf("another agent's stop ended the scope (-want +got):\n%s", diff)
	}

	// A SubagentStop hook that blocks keeps the subagent, and its scope, going.
	if err := x.RegisterScoped("keep-going", shared.Hooks{shared.HookEventSubagentStop: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Block("not yet"), nil
	})}}}, ScopeOptions{AgentID: "a1"}); err != nil {
		t.Fatal(err)
	}
	if res := stop("a1"); res.Ran != 1 {
		t.Errorf("the blocking SubagentStop hook ran %d times", res.Ran)
	}
	if diff := cmp.Diff([]string{"for-a1", "keep-going"}, x.ScopeIDs()); diff != "" {
		t.Errorf("a blocked SubagentStop ended the scopes (-want +got):\n%s", diff)
	}
	x.UnregisterScoped("keep-going")
	stop("a1")
	if ids := x.ScopeIDs(); len(ids) != 0 {
		t.Errorf("scopes after the agent stopped: %q", ids)
	}
	rec.calls = nil
	x.Run(context.Background(), agentInput(shared.HookEventPreToolUse, "Bash", "a1"), "r")
	if got := rec.got(); len(got) != 0 {
		t.Errorf("the ended scope still fired: %q", got)
	}
	// The CLI may still send the events it was told about: they are answered by a chain ({}),
	// not refused as unregistered.
	if !x.Has(shared.HookEventPreToolUse) || !x.Has(shared.HookEventSubagentStop) || len(x.Events()) != 0 {
		t.Errorf("after the scopes ended: Has(PreToolUse) %v, Has(SubagentStop) %v, Events %v",
			x.Has(shared.HookEventPreToolUse), x.Has(shared.HookEventSubagentStop), x.Events())
	}
	if res := x.Run(context.Background(), agentInput(shared.HookEventPreToolUse, "Bash", "a1"), "r"); res.Output != nil || res.Err != nil {
		t.Errorf("a request after the scope ended: %+v, want no opinion", res)
	}
}

func TestRegisterScopedValidatesEagerly(t *testing.T) {
	x := newExecutor(t, nil, Options{})
	ok := shared.Hooks{shared.HookEventPreToolUse: {{Handler: trivialHandler}}}
	if err := x.RegisterScoped("taken", ok, ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	var re *shared.RegistrationError
	tests := []struct {
		name  string
		id    string
		hooks shared.Hooks
		check func(error) bool
	}{
		{"empty id", "", ok, func(err error) bool { return errors.Is(err, shared.ErrEmptyScopeID) }},
		{"duplicate id", "taken", ok, func(err error) bool { return errors.Is(err, shared.ErrScopeExists) }},
		{"nil handler", "x", shared.Hooks{shared.HookEventPreToolUse: {{}}}, func(err error) bool { return errors.As(err, &re) }},
		{"bad matcher", "x", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "(", Handler: trivialHandler}}}, func(err error) bool { return errors.As(err, &re) }},
		{"unknown event", "x", shared.Hooks{"NoSuchEvent": {{Handler: trivialHandler}}}, func(err error) bool { return errors.As(err, &re) }},
		{"negative timeout", "x", shared.Hooks{shared.HookEventStop: {{Handler: trivialHandler, Timeout: -time.Second}}}, func(err error) bool { return errors.As(err, &re) }},
	}
	for _, tt := range tests {
		if err := x.RegisterScoped(tt.id, tt.hooks, ScopeOptions{}); err == nil || !tt.check(err) {
			t.Errorf("%s: RegisterScoped = %v", tt.name, err)
		}
	}
	if diff := cmp.Diff([]string{"taken"}, x.ScopeIDs()); diff != "" {
		t.Errorf("a refused registration changed the scopes (-want +got):\n%s", diff)
	}
}

func TestScopedRegistrationForTheCLI(t *testing.T) {
	x := newExecutor(t, shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: trivialHandler, Timeout: time.Second}}}, Options{DefaultTimeout: 2 * time.Second})
	if err := x.RegisterScoped("s", shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Write|Edit", Handler: trivialHandler}},
		shared.HookEventStop:       {{Handler: trivialHandler, Timeout: 3 * time.Second}},
	}, ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := x.CLIMatcher(shared.HookEventPreToolUse); got != "Bash|Write|Edit" {
		t.Errorf("CLIMatcher = %q, want the union of the exact lists", got)
	}
	if got := x.ChainTimeout(shared.HookEventPreToolUse); got != 2*time.Second {
		t.Errorf("ChainTimeout = %v, want the scoped default 2 s (Bash and Write|Edit never match one request)", got)
	}
	if diff := cmp.Diff([]shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventStop}, x.Events()); diff != "" {
		t.Errorf("Events (-want +got):\n%s", diff)
	}
	if err := x.RegisterScoped("regexp", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "mcp__.*", Handler: trivialHandler}}}, ScopeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := x.CLIMatcher(shared.HookEventPreToolUse); got != "" {
		t.Errorf("CLIMatcher with a scoped regexp = %q, want everything", got)
	}
	if got := x.ChainTimeout(shared.HookEventPreToolUse); got != 4*time.Second {
		t.Errorf("ChainTimeout with a scoped regexp = %v, want 2 s (Write|Edit) + 2 s (mcp__.*, which may match anything)", got)
	}
}

// Chains run while scopes come and go: each chain sees one consistent set, the base first.
func TestScopedHooksUnderConcurrentFires(t *testing.T) {
	var mu sync.Mutex
	bad := 0
	x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		return nil, nil
	})}}}, Options{})
	var wg sync.WaitGroup
	stopReg := make(chan struct{})
	wg.Add(1)
	go func() { // registers and unregisters scopes while chains run
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stopReg:
				return
			default:
			}
			id := fmt.Sprintf("s%d", i%4)
			if !x.UnregisterScoped(id) {
				noOpinion := func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil }
				if err := x.RegisterScoped(id, shared.Hooks{shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(noOpinion)}, {Handler: shared.HookHandlerFunc(noOpinion)}}}, ScopeOptions{}); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	var runners sync.WaitGroup
	for g := 0; g < 4; g++ {
		runners.Add(1)
		go func() {
			defer runners.Done()
			for range 300 {
				res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
				// Every scope adds two hooks: a chain sees whole scopes only.
				if res.Ran < 1 || (res.Ran-1)%2 != 0 || res.Err != nil {
					mu.Lock()
					bad++
					mu.Unlock()
				}
			}
		}()
	}
	runners.Wait()
	close(stopReg)
	wg.Wait()
	if bad > 0 {
		t.Errorf("%d chains saw a partial set of hooks", bad)
	}
}

// A handler may register a scope: the running chain keeps its hooks, the next one sees the scope.
func TestRegisterScopedFromAHandler(t *testing.T) {
	rec := &recorder{}
	var x *Engine
	x = newExecutor(t, shared.Hooks{shared.HookEventSubagentStart: {{Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		rec.add("start")
		if !x.InChain(ctx) {
			t.Error("InChain(handler ctx) = false")
		}
		return nil, x.RegisterScoped("agent:"+in.Base().AgentID, shared.Hooks{
			shared.HookEventSubagentStart: {{Handler: named(rec, "scoped-start")}},
			shared.HookEventPreToolUse:    {{Handler: named(rec, "scoped-pre")}},
		}, ScopeOptions{AgentID: in.Base().AgentID})
	})}}}, Options{})
	if res := x.Run(context.Background(), agentInput(shared.HookEventSubagentStart, "", "a1"), "r1"); res.Err != nil {
		t.Fatal(res.Err)
	}
	x.Run(context.Background(), agentInput(shared.HookEventPreToolUse, "Bash", "a1"), "r2")
	if diff := cmp.Diff([]string{"start", "scoped-pre"}, rec.got()); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if x.InChain(context.Background()) {
		t.Error("InChain(Background) = true")
	}
	other := newExecutor(t, nil, Options{})
	if other.InChain(context.WithValue(context.Background(), chainKey{}, x)) {
		t.Error("InChain is true for another executor's chain")
	}
}

// BenchmarkDispatchScoped is BenchmarkExecutorDispatch with one scope registered: the cost of
// scoped hooks when they are in use (without a scope the chain pays one atomic load).
func BenchmarkDispatchScoped(b *testing.B) {
	for _, matching := range []bool{false, true} {
		x, err := New(benchHooks(0), Options{})
		if err != nil {
			b.Fatal(err)
		}
		matcher := "Write"
		if matching {
			matcher = "Bash"
		}
		if err := x.RegisterScoped("s", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: matcher, Handler: trivialHandler}}}, ScopeOptions{}); err != nil {
			b.Fatal(err)
		}
		in := benchInput()
		b.Run(fmt.Sprintf("scoped-matches=%v", matching), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := x.Run(context.Background(), in, "req"); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
	}
}
