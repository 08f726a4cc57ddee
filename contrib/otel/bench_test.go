package otelagent_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// BenchmarkToolCall measures what the instrumentation costs per tool call: a ToolStarted, the
// PreToolUse hook's HookFinished and its round trip, and the ToolFinished, with the SDK's tracer
// (a span processor that exports each span at once) and meter (a manual reader): the
// instrumentation's own work, without export, scrapes or the rest of a session. The end-to-end
// measure is the benchmark's sdk/otel configuration (go run ./internal/bench/otelbench);
// docs/OBSERVABILITY.md has both.
func BenchmarkToolCall(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	in := otelagent.New(tp, mp)
	t0 := time.Now()
	in.Observe(&v2.SessionStarted{At: t0, SessionID: "s"})
	input := jsontext.Value(`{"command":"echo hi","description":"test"}`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprint("toolu_", i)
		in.Observe(&v2.ToolStarted{At: t0, SessionID: "s", ToolUseID: id, ToolName: "Bash", Input: input})
		in.Observe(&v2.HookFinished{At: t0, Started: t0, Duration: time.Millisecond, Outcome: shared.HookOutcomeSuccess,
			HookRunInfo: shared.HookRunInfo{HookName: "policy", Event: shared.HookEventPreToolUse, ToolUseID: id},
			Decision:    shared.DecisionAllow})
		in.RoundTrip(shared.RoundTrip{Subtype: "hook_callback", Event: shared.HookEventPreToolUse, Read: t0, Written: t0.Add(time.Millisecond)})
		in.Observe(&v2.ToolFinished{At: t0, SessionID: "s", ToolUseID: id, ToolName: "Bash", Content: jsontext.Value(`"hi"`),
			Duration: 45 * time.Millisecond})
	}
}
