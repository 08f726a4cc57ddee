package otelagent

import (
	"github.com/prometheus/client_golang/prometheus"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// PrometheusMeterProvider returns a MeterProvider whose metrics reg serves to Prometheus, through
// the OpenTelemetry Prometheus exporter: pass it to Instrument and serve reg with
// promhttp.HandlerFor(reg, promhttp.HandlerOpts{}). The names follow the exporter's translation:
// agent.tool.calls becomes agent_tool_calls_total, agent.tool.duration agent_tool_duration_seconds,
// and so on (docs/OBSERVABILITY.md). Shut the provider down when done.
func PrometheusMeterProvider(reg prometheus.Registerer) (*sdkmetric.MeterProvider, error) {
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, err
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp)), nil
}
