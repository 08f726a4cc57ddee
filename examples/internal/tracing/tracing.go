// Package tracing sets up the OpenTelemetry tracer provider of the examples that show a session's
// trace (hooks-audit, hooks-lifecycle), with contrib/otel feeding it:
//
//   - by default, a text rendering of the span tree on stdout when the session ends;
//   - with -trace json, the OpenTelemetry stdout exporter (stdouttrace): each span as JSON;
//   - with OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set, OTLP over HTTP to
//     that collector (otlptracehttp reads the standard OTEL_EXPORTER_OTLP_* variables), and the
//     tree as well.
package tracing

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Setup returns a tracer provider for mode ("tree" or "json") writing to w, and the function that
// flushes and stops it (call it after the session closed: the tree is printed then).
func Setup(ctx context.Context, mode string, w io.Writer) (*sdktrace.TracerProvider, func(context.Context) error, error) {
	var opts []sdktrace.TracerProviderOption
	tree := &treeExporter{w: w}
	switch mode {
	case "tree", "":
		opts = append(opts, sdktrace.WithSyncer(tree))
	case "json":
		exp, err := stdouttrace.New(stdouttrace.WithWriter(w), stdouttrace.WithPrettyPrint())
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, sdktrace.WithSyncer(exp))
	case "off":
	default:
		return nil, nil, fmt.Errorf("tracing: unknown -trace %q (tree, json, off)", mode)
	}
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, sdktrace.WithBatcher(exp))
		fmt.Fprintln(w, "trace: exporting to the OTLP endpoint of OTEL_EXPORTER_OTLP_*")
	}
	tp := sdktrace.NewTracerProvider(opts...)
	return tp, tp.Shutdown, nil
}

// treeExporter keeps the spans and prints them as an indented tree when shut down.
type treeExporter struct {
	w     io.Writer
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (e *treeExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.spans = append(e.spans, spans...)
	return nil
}

func (e *treeExporter) Shutdown(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.spans) == 0 {
		return nil
	}
	fmt.Fprintln(e.w, "--- trace")
	err := WriteTree(e.w, e.spans)
	e.spans = nil
	return err
}

// shown are the attributes the tree prints, in this order.
var shown = []attribute.Key{"gen_ai.conversation.id", "gen_ai.tool.call.id", "agent.tool.parent_call.id",
	"agent.tool.outcome", "agent.tool.denied_by", "agent.hook.event", "agent.hook.outcome", "agent.hook.decision",
	"agent.hook.reason", "gen_ai.response.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "agent.cost.usd"}

// WriteTree writes spans as a tree: one line per span, children indented under their parent in
// start order, with its duration, status and the attributes of contrib/otel worth reading.
func WriteTree(w io.Writer, spans []sdktrace.ReadOnlySpan) error {
	spans = slices.Clone(spans)
	slices.SortStableFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanContext().SpanID().String()] = true
	}
	children := map[string][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent(); p.IsValid() && ids[p.SpanID().String()] {
			children[p.SpanID().String()] = append(children[p.SpanID().String()], s)
		} else {
			roots = append(roots, s)
		}
	}
	var b strings.Builder
	var walk func(s sdktrace.ReadOnlySpan, depth int)
	walk = func(s sdktrace.ReadOnlySpan, depth int) {
		fmt.Fprintf(&b, "%s%s [%s]", strings.Repeat("  ", depth), s.Name(), s.EndTime().Sub(s.StartTime()).Round(100*time.Microsecond))
		attrs := map[attribute.Key]string{}
		for _, a := range s.Attributes() {
			attrs[a.Key] = a.Value.String()
		}
		for _, k := range shown {
			if v, ok := attrs[k]; ok {
				fmt.Fprintf(&b, " %s=%s", k, v)
			}
		}
		if st := s.Status(); st.Code == codes.Error {
			fmt.Fprintf(&b, " ERROR: %s", oneLine(st.Description))
		}
		b.WriteByte('\n')
		for _, c := range children[s.SpanContext().SpanID().String()] {
			walk(c, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}
