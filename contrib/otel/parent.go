package otelagent

import (
	"context"

	"go.opentelemetry.io/otel/trace"
)

// Option configures New and Instrument.
type Option interface{ apply(*Instrumentation) }

type optionFunc func(*Instrumentation)

func (f optionFunc) apply(in *Instrumentation) { f(in) }

// WithParent makes the session's span ("invoke_agent") a child of ctx's span, in its trace: for
// a session run inside a traced operation, such as a Temporal activity under Temporal's
// OpenTelemetry interceptor (contrib/temporal). Only the span's identity is kept, not ctx itself
// (its deadline and values do not outlive the call). Default: each session starts a trace of
// its own.
func WithParent(ctx context.Context) Option {
	sc := trace.SpanContextFromContext(ctx)
	return optionFunc(func(in *Instrumentation) {
		in.parent = trace.ContextWithSpanContext(context.Background(), sc)
	})
}
