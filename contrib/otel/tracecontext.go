package otelagent

import (
	"context"

	"go.opentelemetry.io/otel/propagation"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TraceContext returns the option that passes the span of CreateSession's ctx to the CLI as
// TRACEPARENT and TRACESTATE (v2.WithTraceContext, W3C Trace Context), as the TypeScript SDK
// does: a CLI that exports traces (CLAUDE_CODE_ENABLE_TELEMETRY=1,
// CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1, OTEL_TRACES_EXPORTER and the OTLP endpoint, through
// v2.WithEnv) then records its spans (claude_code.interaction, claude_code.llm_request, ...) in
// the caller's trace, under the span of ctx. The W3C propagator is used whatever the global one
// is, since W3C is what the CLI reads. A ctx without a span passes nothing. Add it next to
// Instrument, whose session span is a sibling of the CLI's under the same parent when WithParent
// is given the same ctx.
func TraceContext() v2.Option {
	return v2.WithTraceContext(func(ctx context.Context) map[string]string {
		c := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, c)
		return c
	})
}
