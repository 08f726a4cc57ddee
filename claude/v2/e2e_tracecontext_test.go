package v2_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// otlpSpans is a fake OTLP/HTTP (JSON) trace receiver: it keeps the spans posted to /v1/traces.
type otlpSpans struct {
	mu    sync.Mutex
	spans []otlpSpan
}

type otlpSpan struct {
	TraceID      string `json:"traceId"`
	SpanID       string `json:"spanId"`
	ParentSpanID string `json:"parentSpanId"`
	Name         string `json:"name"`
}

func (o *otlpSpans) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path == "/v1/traces" {
		var req struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []otlpSpan `json:"spans"`
				} `json:"scopeSpans"`
			} `json:"resourceSpans"`
		}
		if json.Unmarshal(body, &req, json.RejectUnknownMembers(false)) == nil {
			o.mu.Lock()
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					o.spans = append(o.spans, ss.Spans...)
				}
			}
			o.mu.Unlock()
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{}`))
}

func (o *otlpSpans) all() []otlpSpan {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]otlpSpan(nil), o.spans...)
}

// WithTraceContext: a CLI exporting traces (CLAUDE_CODE_ENABLE_TELEMETRY, the beta tracing,
// OTLP over HTTP to a fake receiver) puts its interaction span in the trace of CreateSession's
// ctx, under the caller's span; without the option it starts a trace of its own.
func TestRealCLI_TraceContext(t *testing.T) {
	t.Parallel()
	const traceID, spanID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	type ctxKey struct{}
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want bool
	}{
		{"with", []v2.Option{v2.WithTraceContext(func(ctx context.Context) map[string]string {
			return map[string]string{"traceparent": ctx.Value(ctxKey{}).(string)}
		})}, true},
		{"without", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &otlpSpans{}
			srv := httptest.NewServer(rec)
			t.Cleanup(srv.Close)
			env := textEnv(t, "A1")
			ctx := context.WithValue(context.Background(), ctxKey{}, "00-"+traceID+"-"+spanID+"-01")
			opts := append(append([]v2.Option{}, env.opts...), v2.WithEnv(
				"CLAUDE_CODE_ENABLE_TELEMETRY=1", "CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1",
				"OTEL_TRACES_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORTER=none",
				"OTEL_EXPORTER_OTLP_PROTOCOL=http/json", "OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL,
				"OTEL_BSP_SCHEDULE_DELAY=50"))
			s, err := v2.CreateSession(ctx, append(opts, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			run(t, s, "P1")
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			spans := rec.all()
			if len(spans) == 0 {
				t.Fatal("the CLI exported no span")
			}
			joined := false
			for _, sp := range spans {
				t.Logf("span %s trace %s parent %s", sp.Name, sp.TraceID, sp.ParentSpanID)
				if sp.TraceID == traceID && sp.ParentSpanID == spanID {
					joined = true
				}
			}
			if joined != tc.want {
				t.Errorf("a span of the CLI under the caller's span %s of trace %s: %v, want %v", spanID, traceID, joined, tc.want)
			}
		})
	}
}
