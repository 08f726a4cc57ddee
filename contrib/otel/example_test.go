package otelagent_test

import (
	"context"
	"log"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// A session traced with your tracer provider, its metrics served to Prometheus.
func ExampleInstrument() {
	ctx := context.Background()
	tp := sdktrace.NewTracerProvider( /* sdktrace.WithBatcher(an OTLP exporter) */ )
	defer tp.Shutdown(ctx)
	reg := prometheus.NewRegistry()
	mp, err := otelagent.PrometheusMeterProvider(reg)
	if err != nil {
		log.Fatal(err)
	}
	defer mp.Shutdown(ctx)
	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	s, err := v2.CreateSession(ctx, v2.WithAllowedTools("Bash"), otelagent.Instrument(tp, mp))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(ctx, "List the files."); err != nil {
		log.Fatal(err)
	}
}
