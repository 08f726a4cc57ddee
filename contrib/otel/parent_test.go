package otelagent_test

import (
	"context"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// WithParent puts the session's spans under the caller's span, in its trace; without it, the
// session span is a root.
func TestWithParent(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	ctx, outer := tp.Tracer("test").Start(context.Background(), "outer")
	for _, parent := range []bool{true, false} {
		exp.Reset()
		var opts []otelagent.Option
		if parent {
			opts = append(opts, otelagent.WithParent(ctx))
		}
		in := otelagent.New(tp, sdkmetric.NewMeterProvider(), opts...)
		for _, o := range session() {
			in.Observe(o)
		}
		var agent *tracetest.SpanStub
		spans := exp.GetSpans()
		for i := range spans {
			if spans[i].Name == "invoke_agent" {
				agent = &spans[i]
			}
		}
		if agent == nil {
			t.Fatalf("no invoke_agent span among %d", len(spans))
		}
		want := outer.SpanContext()
		switch {
		case parent && (agent.Parent.SpanID() != want.SpanID() || agent.SpanContext.TraceID() != want.TraceID()):
			t.Errorf("WithParent: invoke_agent's parent is %s in trace %s, want %s in %s",
				agent.Parent.SpanID(), agent.SpanContext.TraceID(), want.SpanID(), want.TraceID())
		case !parent && agent.Parent.IsValid():
			t.Errorf("without WithParent: invoke_agent has parent %s, want a root span", agent.Parent.SpanID())
		}
		for _, s := range spans {
			if s.SpanContext.TraceID() != agent.SpanContext.TraceID() {
				t.Errorf("span %s is in trace %s, the session's is %s", s.Name, s.SpanContext.TraceID(), agent.SpanContext.TraceID())
			}
		}
	}
	outer.End()
}
