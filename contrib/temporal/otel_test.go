package temporalagent_test

import (
	"context"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// A worker with Temporal's OpenTelemetry tracing interceptor: the context WithTurnOptions gets
// carries the activity's span, so that a span started under it (what otelagent.WithParent(ctx)
// does with the session's span, contrib/otel's TestWithParent) is a child of the activity's span,
// in its trace. contrib/otel itself cannot be in this module's build: its OpenTelemetry v1.47
// brings go.opentelemetry.io/otel/log v1.47, whose API go.temporal.io/server v1.32.2 (the test
// server) does not build against (it needs log v0.20).
func TestTurnContextCarriesTheActivitySpan(t *testing.T) {
	ts := server(t)
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + t.Name()
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.TextReply("done"))
	})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	tracing, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tp.Tracer("temporal")})
	if err != nil {
		t.Fatal(err)
	}
	cfg := workerConfig{cli: claudetest.RequireCLI(t), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	acts, err := cfg.activities(testLogger(t), temporalagent.WithTurnOptions(func(ctx context.Context, _ string) []v2.Option {
		// As otelagent.WithParent: only the span's identity, under a context of its own.
		parent := trace.ContextWithSpanContext(context.Background(), trace.SpanContextFromContext(ctx))
		_, span := tp.Tracer("agent").Start(parent, "invoke_agent")
		span.End()
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	opts := activityWorkerOptions
	opts.Interceptors = []interceptor.WorkerInterceptor{tracing}
	w := worker.New(ts.GetDefaultClient(), actQueue, opts)
	acts.Register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	run, err := ts.GetDefaultClient().ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
		temporalagent.TurnInput{Prompt: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	w.Stop() // the activity's span ends once the activity has returned; Stop waits for it

	spans := map[string]sdktrace.ReadOnlySpan{}
	var names []string
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
		names = append(names, s.Name())
	}
	act, ok := spans["RunActivity:"+temporalagent.ActivityName]
	if !ok {
		t.Fatalf("no activity span among %v", names)
	}
	agent, ok := spans["invoke_agent"]
	if !ok {
		t.Fatalf("no agent span among %v", names)
	}
	if agent.Parent().SpanID() != act.SpanContext().SpanID() || agent.SpanContext().TraceID() != act.SpanContext().TraceID() {
		t.Errorf("the agent's span has parent %s in trace %s, want the activity's span %s in trace %s",
			agent.Parent().SpanID(), agent.SpanContext().TraceID(), act.SpanContext().SpanID(), act.SpanContext().TraceID())
	}
}
