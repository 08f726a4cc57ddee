// Command otelbench is the SDK's end-to-end benchmark (internal/bench, whose package doc says what it
// measures and how) with two more configurations of the Go SDK driver: the OpenTelemetry
// instrumentation of contrib/otel (otelagent.Instrument) with real OpenTelemetry SDK providers.
//
//	go run ./internal/bench/otelbench -runs 5 -shapes seq,par -configs sdk/nohooks,sdk/observe,sdk/otel
//
// It takes the flags of internal/bench. The configurations it adds:
//
//   - "otel": no hook; the session instrumented with otelagent.Instrument(tp, mp), where tp is a
//     TracerProvider whose batch span processor (exporting every second) feeds the stdout
//     exporter writing JSON to io.Discard (the encoding an exporter does, without the network),
//     and mp is otelagent.PrometheusMeterProvider on a registry that a scraper goroutine scrapes
//     through promhttp every second (more often than a Prometheus server would).
//   - "otelpass": the same, with the "pass" hooks (PreToolUse and PostToolUse answering "no
//     opinion"), so that hook spans, hook metrics and round-trip values are made too; compare it
//     with "pass".
//
// After each run, outside the measured time, the driver flushes and shuts the providers down and
// checks that the exporter got an execute_tool span and the registry counted a call for every tool
// call of the workload (the run fails otherwise). The core module cannot depend on OpenTelemetry,
// which is why the benchmark is a module of its own (internal/bench: it requires the core and
// contrib/otel; neither requires it), where this command runs the benchmark's library, benchkit.
package main

import (
	"os"

	"github.com/hookwire/agent-sdk-go/internal/bench/benchkit"
)

func main() {
	os.Exit(benchkit.Main(os.Args[1:], os.Stdout, os.Stderr, extras...))
}
