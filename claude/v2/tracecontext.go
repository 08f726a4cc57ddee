package v2

import (
	"context"
	"slices"
	"strings"
)

// WithTraceContext passes the trace context of CreateSession's ctx to the CLI, as the TypeScript
// SDK does, so that a CLI exporting OpenTelemetry traces (its CLAUDE_CODE_ENABLE_TELEMETRY and
// OTEL_* settings, WithEnv) records its spans in the caller's trace: inject writes ctx's
// propagation fields (W3C "traceparent", "tracestate", ...) into the map it returns, and each
// becomes a variable of the CLI's environment under its name in upper case (TRACEPARENT,
// TRACESTATE). contrib/otel's otelagent.TraceContext is one, with the global propagator; the core
// does not depend on OpenTelemetry. When the map has a traceparent, an inherited TRACEPARENT and
// TRACESTATE are replaced (TRACESTATE by an empty value if the map has none); a variable WithEnv
// sets wins over the map's. inject runs once, in CreateSession. Default: none, and the CLI
// inherits the SDK process's TRACEPARENT, if any.
func WithTraceContext(inject func(ctx context.Context) map[string]string) Option {
	return setOption("WithTraceContext", func(o *config) { o.traceContext = inject })
}

// traceContextEnv returns WithTraceContext's variables for the CLI's environment.
func (o *config) traceContextEnv() []string {
	if o.traceContext == nil {
		return nil
	}
	ctx := o.traceCtx
	if ctx == nil {
		ctx = context.Background()
	}
	fields := o.traceContext(ctx)
	vars := map[string]string{}
	for k, v := range fields {
		name := strings.ToUpper(k)
		if name == "" || strings.ContainsAny(name, "=\x00") || strings.ContainsRune(v, 0) {
			continue // not a variable name, or not a value the environment can hold
		}
		vars[name] = v
	}
	if _, ok := vars["TRACEPARENT"]; ok {
		if _, ok := vars["TRACESTATE"]; !ok {
			vars["TRACESTATE"] = "" // the inherited one belongs to another trace
		}
	}
	var env []string
	for name, v := range vars {
		if !o.setsEnv(name) {
			env = append(env, name+"="+v)
		}
	}
	slices.Sort(env)
	return env
}

// setsEnv reports whether WithEnv sets the variable name.
func (o *config) setsEnv(name string) bool {
	for _, kv := range o.env {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}
