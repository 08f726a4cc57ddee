package hooks

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

var trivialHandler = shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
	return shared.Allow(), nil
})

// benchHooks registers extra non-matching PreToolUse hooks and one that matches Bash.
func benchHooks(extra int) shared.Hooks {
	var cfgs []shared.HookConfig
	for i := range extra {
		cfgs = append(cfgs, shared.HookConfig{Matcher: fmt.Sprintf("Tool%d|Other%d", i, i), Handler: trivialHandler})
	}
	cfgs = append(cfgs, shared.HookConfig{Matcher: "Bash", Handler: trivialHandler})
	return shared.Hooks{shared.HookEventPreToolUse: cfgs}
}

func benchInput() *shared.PreToolUseHookInput {
	in := &shared.PreToolUseHookInput{}
	in.HookEventName = shared.HookEventPreToolUse
	in.SessionID = "s"
	in.ToolName = "Bash"
	in.ToolInput = shared.ToolInput{"command": "echo hi"}
	in.ToolUseID = "toolu_01"
	return in
}

// BenchmarkExecutorDispatch runs one PreToolUse with a trivial handler, with one hook registered
// and with 100 non-matching ones before it: through Serve, as the transport does (the chain on the
// calling goroutine), and through Run (the chain on a goroutine of its own).
func BenchmarkExecutorDispatch(b *testing.B) {
	for _, extra := range []int{0, 100} {
		x, err := New(benchHooks(extra), Options{})
		if err != nil {
			b.Fatal(err)
		}
		in := benchInput()
		ctx := context.Background()
		b.Run(fmt.Sprintf("serve/hooks=%d", extra+1), func(b *testing.B) {
			b.ReportAllocs()
			var res Result
			answer := func(r Result) { res = r }
			for b.Loop() {
				x.Serve(ctx, in, "req", answer)
				if res.Err != nil || res.Ran != 1 {
					b.Fatalf("Serve = %+v", res)
				}
			}
		})
		b.Run(fmt.Sprintf("run/hooks=%d", extra+1), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := x.Run(ctx, in, "req")
				if res.Err != nil || res.Ran != 1 {
					b.Fatalf("Run = %+v", res)
				}
			}
		})
	}
}

// BenchmarkMemoryPerHook reports the heap an executor keeps per registered hook.
func BenchmarkMemoryPerHook(b *testing.B) {
	const n = 1000
	kinds := []struct {
		name    string
		matcher func(i int) string
	}{
		{"names", func(i int) string { return fmt.Sprintf("Tool%d|Edit", i) }},
		{"all", func(int) string { return "" }},
		{"regexp", func(i int) string { return fmt.Sprintf("mcp__srv%d__.*", i) }},
	}
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			hooks := shared.Hooks{}
			for i := range n {
				hooks[shared.HookEventPreToolUse] = append(hooks[shared.HookEventPreToolUse], shared.HookConfig{Matcher: k.matcher(i), Handler: trivialHandler})
			}
			var total int64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				x, err := New(hooks, Options{})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(x)
				total += int64(after.HeapAlloc) - int64(before.HeapAlloc)
			}
			b.ReportMetric(float64(total)/float64(b.N)/n, "bytes/hook")
		})
	}
}
