package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
	"github.com/hookwire/agent-sdk-go/internal/bench/benchkit"
)

// extras are the configurations this command adds to the benchmark.
var extras = []benchkit.Extra{
	{Name: "otel", Setup: setupOTel},
	{Name: "otelpass", Base: "pass", Setup: setupOTel},
}

// exportEvery is the batch span processor's schedule delay and the scrape interval.
const exportEvery = time.Second

// setupOTel makes the providers of one driver's session and the instrumentation's options.
func setupOTel() (benchkit.Setup, error) {
	exp, err := stdouttrace.New(stdouttrace.WithWriter(io.Discard))
	if err != nil {
		return benchkit.Setup{}, err
	}
	counted := &countingExporter{SpanExporter: exp}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(counted, sdktrace.WithBatchTimeout(exportEvery)))
	reg := prometheus.NewRegistry()
	mp, err := otelagent.PrometheusMeterProvider(reg)
	if err != nil {
		return benchkit.Setup{}, err
	}
	in := otelagent.New(tp, mp)

	// The scraper: a goroutine that serves /metrics to an in-memory response every exportEvery,
	// until Check stops it and waits for it.
	handler := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	stop, done := make(chan struct{}), make(chan struct{})
	var scrapes atomic.Int64
	go func() {
		defer close(done)
		t := time.NewTicker(exportEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/metrics", nil))
				scrapes.Add(1)
			}
		}
	}()
	var once sync.Once
	check := func(calls int) error {
		once.Do(func() { close(stop) })
		<-done
		ctx := context.Background()
		err := errors.Join(tp.Shutdown(ctx)) // flushes the batch processor
		if got := counted.tools.Load(); got != int64(calls) {
			err = errors.Join(err, fmt.Errorf("the exporter got %d execute_tool spans, want %d", got, calls))
		}
		if got, gerr := toolCalls(reg); gerr != nil || got != calls {
			err = errors.Join(err, gerr, fmt.Errorf("the registry counted %d tool calls, want %d", got, calls))
		}
		return errors.Join(err, mp.Shutdown(ctx))
	}
	return benchkit.Setup{
		Options:   []v2.Option{v2.WithObserver(in)},
		RoundTrip: in.RoundTrip,
		Check:     check,
	}, nil
}

// countingExporter counts the execute_tool spans it exports.
type countingExporter struct {
	sdktrace.SpanExporter
	tools atomic.Int64
}

func (e *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	for _, s := range spans {
		if strings.HasPrefix(s.Name(), "execute_tool ") {
			e.tools.Add(1)
		}
	}
	return e.SpanExporter.ExportSpans(ctx, spans)
}

// toolCalls returns the sum of agent_tool_calls_total in reg.
func toolCalls(reg *prometheus.Registry) (int, error) {
	mfs, err := reg.Gather()
	if err != nil {
		return 0, err
	}
	n := 0.0
	for _, mf := range mfs {
		if mf.GetName() == "agent_tool_calls_total" {
			for _, m := range mf.GetMetric() {
				n += m.GetCounter().GetValue()
			}
		}
	}
	return int(n), nil
}
