package otelagent_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// TraceContext: the real CLI, exporting its traces over OTLP/HTTP to a fake receiver, records its
// interaction span under the caller's span, in the caller's trace; the SDK's own session span
// (Instrument with WithParent of the same ctx) is in that trace too.
func TestRealCLI_TraceContext(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	type span struct {
		TraceID      string `json:"traceId"`
		ParentSpanID string `json:"parentSpanId"`
		Name         string `json:"name"`
	}
	var cliSpans []span
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []span `json:"spans"`
				} `json:"scopeSpans"`
			} `json:"resourceSpans"`
		}
		if r.URL.Path == "/v1/traces" && json.Unmarshal(body, &req, json.RejectUnknownMembers(false)) == nil {
			mu.Lock()
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					cliSpans = append(cliSpans, ss.Spans...)
				}
			}
			mu.Unlock()
		}
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	ctx, caller := tp.Tracer("test").Start(context.Background(), "caller")
	env := claudetest.NewEnv(t, func(string) *claudetest.Model { return claudetest.NewModel(claudetest.TextReply("done")) })
	s, err := v2.CreateSession(ctx, env.Options(
		otelagent.Instrument(tp, nil, otelagent.WithParent(ctx)), otelagent.TraceContext(),
		v2.WithEnv("CLAUDE_CODE_ENABLE_TELEMETRY=1", "CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1",
			"OTEL_TRACES_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORTER=none",
			"OTEL_EXPORTER_OTLP_PROTOCOL=http/json", "OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL))...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, "go"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	caller.End()
	want := caller.SpanContext()
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, sp := range cliSpans {
		if sp.Name == "claude_code.interaction" && sp.TraceID == want.TraceID().String() && sp.ParentSpanID == want.SpanID().String() {
			found = true
		}
	}
	if !found {
		t.Errorf("no claude_code.interaction span of the CLI under the caller's span %s (trace %s); the CLI's spans: %+v", want.SpanID(), want.TraceID(), cliSpans)
	}
	for _, sp := range exp.GetSpans() {
		if sp.Name == "invoke_agent" && sp.SpanContext.TraceID() != want.TraceID() {
			t.Errorf("the SDK's session span is in trace %s, not the caller's %s", sp.SpanContext.TraceID(), want.TraceID())
		}
	}
}
