// Package otelagent turns an agent-sdk-go session into OpenTelemetry traces and metrics.
//
// It is its own module (github.com/hookwire/agent-sdk-go/contrib/otel), so that the SDK's core
// module does not depend on OpenTelemetry. It is built on the session's observer
// (v2.WithObserver) and round-trip trace (v2.WithRoundTripTrace): it adds no request to the
// agent's path, and its spans and metrics are made on the session's observer goroutine.
//
//	s, err := v2.CreateSession(ctx, v2.WithCwd(project), otelagent.Instrument(tp, mp))
//
// Traces: one span per session ("invoke_agent"), one per turn ("turn"), one per tool call
// ("execute_tool <tool>", a child of the turn, or of the Task call whose subagent made it), and
// one per Go hook run ("hook <name>", a child of the tool call it guarded). Metrics: tool calls
// by tool and outcome, tool latency, hook round trips, hook runs, denials by hook and reason,
// tokens and cost per session. docs/OBSERVABILITY.md lists every name and attribute.
package otelagent

import (
	"context"
	"sort"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/hookwire/agent-sdk-go/contrib/otel"

// The attribute keys. The gen_ai.* ones are the OpenTelemetry semantic conventions for generative
// AI; the agent.* ones are this package's own.
const (
	AttrOperation      = attribute.Key("gen_ai.operation.name")  // invoke_agent, execute_tool
	AttrProvider       = attribute.Key("gen_ai.provider.name")   // "anthropic"
	AttrConversationID = attribute.Key("gen_ai.conversation.id") // the CLI's session id
	AttrResponseModel  = attribute.Key("gen_ai.response.model")
	AttrFinishReasons  = attribute.Key("gen_ai.response.finish_reasons")
	AttrInputTokens    = attribute.Key("gen_ai.usage.input_tokens")
	AttrOutputTokens   = attribute.Key("gen_ai.usage.output_tokens")
	AttrTokenType      = attribute.Key("gen_ai.token.type") // input, output (metrics)
	AttrToolName       = attribute.Key("gen_ai.tool.name")
	AttrToolCallID     = attribute.Key("gen_ai.tool.call.id")

	AttrCostUSD         = attribute.Key("agent.cost.usd") // the CLI's total_cost_usd
	AttrCacheReadTokens = attribute.Key("agent.usage.cache_read_input_tokens")
	AttrCLIVersion      = attribute.Key("agent.cli.version")
	AttrNumTurns        = attribute.Key("agent.turn.num_turns") // the CLI's num_turns
	AttrParentToolID    = attribute.Key("agent.tool.parent_call.id")
	AttrToolOutcome     = attribute.Key("agent.tool.outcome") // ok, error, denied, no_result
	AttrDeniedBy        = attribute.Key("agent.tool.denied_by")
	AttrDenyReason      = attribute.Key("agent.tool.deny_reason")
	AttrHookName        = attribute.Key("agent.hook.name")
	AttrHookEvent       = attribute.Key("agent.hook.event")
	AttrHookOutcome     = attribute.Key("agent.hook.outcome") // success, error, timeout, panic, cancelled
	AttrHookDecision    = attribute.Key("agent.hook.decision")
	AttrHookReason      = attribute.Key("agent.hook.reason")
	AttrHookScope       = attribute.Key("agent.hook.scope")
	AttrRoundTripType   = attribute.Key("agent.round_trip.subtype") // hook_callback, can_use_tool, ...
)

// The tool outcomes (AttrToolOutcome).
const (
	OutcomeOK       = "ok"
	OutcomeError    = "error"     // the tool failed (is_error)
	OutcomeDenied   = "denied"    // a Go hook denied or blocked the call
	OutcomeNoResult = "no_result" // the session ended before the call's result
)

// Instrument returns the option that instruments one session: add it to CreateSession's. Call it
// once per session (it keeps the session's open spans). A nil tp or mp means the global provider
// (otel.GetTracerProvider, otel.GetMeterProvider). It replaces any earlier WithRoundTripTrace
// (a session has one); use New and Instrumentation.RoundTrip to chain your own.
func Instrument(tp trace.TracerProvider, mp metric.MeterProvider, opts ...Option) v2.Option {
	in := New(tp, mp, opts...)
	return v2.WithOptions(v2.WithObserver(in), v2.WithRoundTripTrace(in.RoundTrip))
}

// Instrumentation is one session's instrumentation: an Observer (for v2.WithObserver) and a
// round-trip trace function (for v2.WithRoundTripTrace). Instrument is the usual way to get one.
type Instrumentation struct {
	tracer trace.Tracer
	m      instruments
	parent context.Context // the session span's parent (WithParent)

	// Owned by the observer goroutine.
	started    bool // SessionStarted was seen
	sessionAt  time.Time
	cliVersion string
	session    trace.Span // started at the first need (sessionContext)
	sessionCtx context.Context
	sessionID  string
	turn       trace.Span
	turnCtx    context.Context
	tools      map[string]*toolSpan
	// pending holds the hook runs of calls not seen yet, by tool_use id: the CLI reports a
	// subagent's tool_use after the call's PreToolUse hooks ran.
	pending map[string][]*v2.HookFinished
	model   string
	tokens  [2]int64 // input, output, summed over the turns
	cost    float64
}

type toolSpan struct {
	span     trace.Span
	ctx      context.Context
	name     string
	deniedBy string
	reason   string
}

type instruments struct {
	toolCalls    metric.Int64Counter
	toolDuration metric.Float64Histogram
	roundTrip    metric.Float64Histogram
	hookDuration metric.Float64Histogram
	denials      metric.Int64Counter
	tokens       metric.Int64Histogram
	cost         metric.Float64Histogram
}

// The histograms' bucket boundaries, in seconds: the SDK's default ones (0, 5, 10, 25, ... 10000)
// are meant for milliseconds.
var (
	secondsBuckets = metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
	fastBuckets    = metric.WithExplicitBucketBoundaries(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 60)
)

// New returns the instrumentation of one session (see Instrument).
func New(tp trace.TracerProvider, mp metric.MeterProvider, opts ...Option) *Instrumentation {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	in := &Instrumentation{tracer: tp.Tracer(ScopeName), parent: context.Background(), tools: map[string]*toolSpan{}, pending: map[string][]*v2.HookFinished{}}
	for _, o := range opts {
		o.apply(in)
	}
	mt := mp.Meter(ScopeName)
	// The instruments' errors are invalid names or units (none here); a failed one is a no-op
	// instrument, as the API returns it.
	in.m.toolCalls, _ = mt.Int64Counter("agent.tool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls, by tool and outcome."))
	in.m.toolDuration, _ = mt.Float64Histogram("agent.tool.duration", metric.WithUnit("s"), secondsBuckets,
		metric.WithDescription("Wall time of a tool call, from the model's tool_use to its result: hooks, permission check and the tool."))
	in.m.roundTrip, _ = mt.Float64Histogram("agent.hook.round_trip.duration", metric.WithUnit("s"), fastBuckets,
		metric.WithDescription("The SDK's share of a CLI request (hook callback, permission prompt): from reading the request to writing the answer."))
	in.m.hookDuration, _ = mt.Float64Histogram("agent.hook.duration", metric.WithUnit("s"), fastBuckets,
		metric.WithDescription("Run time of one Go hook handler, by hook and outcome."))
	in.m.denials, _ = mt.Int64Counter("agent.hook.denials", metric.WithUnit("{denial}"),
		metric.WithDescription("Hook answers that denied or blocked, by hook and reason."))
	in.m.tokens, _ = mt.Int64Histogram("agent.session.tokens", metric.WithUnit("{token}"),
		metric.WithExplicitBucketBoundaries(1e3, 1e4, 5e4, 1e5, 2.5e5, 5e5, 1e6, 2.5e6, 5e6, 1e7),
		metric.WithDescription("Tokens of one session, by type (input, output)."))
	in.m.cost, _ = mt.Float64Histogram("agent.session.cost.usd", metric.WithUnit("{USD}"),
		metric.WithExplicitBucketBoundaries(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100),
		metric.WithDescription("Cost of one session as the CLI reports it (total_cost_usd)."))
	return in
}

var _ v2.Observer = (*Instrumentation)(nil)

// RoundTrip records a CLI request the SDK answered (for v2.WithRoundTripTrace). It runs on the
// agent's path: it only records one histogram value.
func (in *Instrumentation) RoundTrip(rt shared.RoundTrip) {
	if rt.Read.IsZero() || rt.Written.IsZero() {
		return
	}
	in.m.roundTrip.Record(context.Background(), rt.Written.Sub(rt.Read).Seconds(), metric.WithAttributes(
		AttrRoundTripType.String(rt.Subtype), AttrHookEvent.String(string(rt.Event))))
}

// Observe turns one observation into spans and metrics (for v2.WithObserver).
func (in *Instrumentation) Observe(o v2.Observation) {
	switch v := o.(type) {
	case *v2.SessionStarted:
		in.sessionStarted(v)
	case *v2.ToolStarted:
		in.toolStarted(v)
	case *v2.HookFinished:
		in.hookFinished(v)
	case *v2.ToolFinished:
		in.toolFinished(v)
	case *v2.TurnEnded:
		in.turnEnded(v)
	case *v2.SessionEnded:
		in.sessionEnded(v)
	}
}

func (in *Instrumentation) sessionStarted(o *v2.SessionStarted) {
	if in.started {
		return
	}
	in.started, in.sessionID, in.sessionAt, in.cliVersion = true, o.SessionID, o.At, o.Info.CLIVersion
}

// sessionContext returns the session span's context, starting the span if need be: at the
// SessionStarted, or at t if that is earlier (hooks the CLI ran while the session started, such
// as SessionStart, are observed after the SessionStarted but began before it).
func (in *Instrumentation) sessionContext(t time.Time) context.Context {
	if in.session == nil {
		start := in.sessionAt
		if start.IsZero() || (!t.IsZero() && t.Before(start)) {
			start = t
		}
		in.sessionCtx, in.session = in.tracer.Start(in.parent, "invoke_agent", trace.WithTimestamp(start),
			trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
				AttrOperation.String("invoke_agent"), AttrProvider.String("anthropic"),
				AttrConversationID.String(in.sessionID), AttrCLIVersion.String(in.cliVersion)))
	}
	return in.sessionCtx
}

// turnContext returns the open turn's context, starting the turn at t if none is open.
func (in *Instrumentation) turnContext(t time.Time) context.Context {
	if in.turn == nil {
		in.turnCtx, in.turn = in.tracer.Start(in.sessionContext(t), "turn", trace.WithTimestamp(t))
	}
	return in.turnCtx
}

func (in *Instrumentation) toolStarted(o *v2.ToolStarted) {
	ctx := in.turnContext(o.At)
	if p := in.tools[o.ParentToolUseID]; o.ParentToolUseID != "" && p != nil {
		ctx = p.ctx // a subagent's call: under the Task call that started the subagent
	}
	attrs := []attribute.KeyValue{AttrOperation.String("execute_tool"), AttrToolName.String(o.ToolName), AttrToolCallID.String(o.ToolUseID)}
	if o.ParentToolUseID != "" {
		attrs = append(attrs, AttrParentToolID.String(o.ParentToolUseID))
	}
	start, hooks := o.At, in.pending[o.ToolUseID]
	delete(in.pending, o.ToolUseID)
	for _, h := range hooks {
		if h.Started.Before(start) {
			start = h.Started // the span holds its hooks
		}
	}
	tctx, span := in.tracer.Start(ctx, "execute_tool "+o.ToolName, trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	in.tools[o.ToolUseID] = &toolSpan{span: span, ctx: tctx, name: o.ToolName}
	for _, h := range hooks {
		in.hookFinished(h)
	}
}

func (in *Instrumentation) hookFinished(o *v2.HookFinished) {
	ts := in.tools[o.ToolUseID]
	if o.ToolUseID != "" && ts == nil {
		in.pending[o.ToolUseID] = append(in.pending[o.ToolUseID], o) // its ToolStarted comes later
		return
	}
	var ctx context.Context
	switch {
	case ts != nil:
		ctx = ts.ctx
	case in.turn != nil:
		ctx = in.turnCtx
	case o.Event == shared.HookEventUserPromptSubmit: // a prompt starts a turn
		ctx = in.turnContext(o.Started)
	default: // a session's hook outside a turn: SessionStart, SessionEnd, ...
		ctx = in.sessionContext(o.Started)
	}
	in.recordHook(ctx, ts, o)
}

// recordHook makes the span and metrics of hook run o, a child of ctx; ts is its call's span.
func (in *Instrumentation) recordHook(ctx context.Context, ts *toolSpan, o *v2.HookFinished) {
	attrs := []attribute.KeyValue{AttrHookName.String(o.HookName), AttrHookEvent.String(string(o.Event)),
		AttrHookOutcome.String(string(o.Outcome))}
	if o.Decision != "" {
		attrs = append(attrs, AttrHookDecision.String(string(o.Decision)))
	}
	if o.Reason != "" {
		attrs = append(attrs, AttrHookReason.String(o.Reason))
	}
	if o.Scope != "" {
		attrs = append(attrs, AttrHookScope.String(o.Scope))
	}
	if o.ToolUseID != "" {
		attrs = append(attrs, AttrToolCallID.String(o.ToolUseID))
	}
	_, span := in.tracer.Start(ctx, "hook "+o.HookName, trace.WithTimestamp(o.Started), trace.WithAttributes(attrs...))
	if o.Err != nil {
		span.RecordError(o.Err, trace.WithTimestamp(o.At))
		span.SetStatus(codes.Error, string(o.Outcome))
	}
	span.End(trace.WithTimestamp(o.At))

	bg := context.Background()
	in.m.hookDuration.Record(bg, o.Duration.Seconds(), metric.WithAttributes(
		AttrHookName.String(o.HookName), AttrHookEvent.String(string(o.Event)), AttrHookOutcome.String(string(o.Outcome))))
	if o.Decision == shared.DecisionDeny || o.Decision == shared.DecisionBlock {
		in.m.denials.Add(bg, 1, metric.WithAttributes(AttrHookName.String(o.HookName),
			AttrHookEvent.String(string(o.Event)), AttrHookReason.String(o.Reason)))
		if ts != nil && ts.deniedBy == "" && o.Event != shared.HookEventPostToolUse {
			ts.deniedBy, ts.reason = o.HookName, o.Reason
		}
	}
}

func (in *Instrumentation) toolFinished(o *v2.ToolFinished) {
	ts := in.tools[o.ToolUseID]
	if ts == nil {
		// The start was not seen (a resumed session): a span from the known duration.
		in.toolStarted(&v2.ToolStarted{At: o.At.Add(-o.Duration), ToolUseID: o.ToolUseID, ToolName: o.ToolName, ParentToolUseID: o.ParentToolUseID})
		ts = in.tools[o.ToolUseID]
	}
	delete(in.tools, o.ToolUseID)
	outcome := OutcomeOK
	switch {
	case o.NoResult:
		outcome = OutcomeNoResult
	case ts.deniedBy != "":
		outcome = OutcomeDenied
		ts.span.SetAttributes(AttrDeniedBy.String(ts.deniedBy), AttrDenyReason.String(ts.reason))
	case o.IsError:
		outcome = OutcomeError
	}
	ts.span.SetAttributes(AttrToolOutcome.String(outcome))
	if outcome != OutcomeOK {
		msg := outcome
		if o.IsError && !o.NoResult {
			msg = truncate(o.ContentText(), 256)
		}
		ts.span.SetStatus(codes.Error, msg)
	}
	ts.span.End(trace.WithTimestamp(o.At))
	attrs := metric.WithAttributes(AttrToolName.String(ts.name), AttrToolOutcome.String(outcome))
	in.m.toolCalls.Add(context.Background(), 1, attrs)
	in.m.toolDuration.Record(context.Background(), o.Duration.Seconds(), attrs)
}

// usage is the part of a result's usage read here.
type usage struct {
	InputTokens     int64 `json:"input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
	CacheReadTokens int64 `json:"cache_read_input_tokens"`
}

func (in *Instrumentation) turnEnded(o *v2.TurnEnded) {
	r := o.Result
	start := o.At.Add(-time.Duration(r.DurationMS) * time.Millisecond)
	in.turnContext(start)
	in.flushPending()
	var u usage
	if len(r.Usage) > 0 {
		_ = json.Unmarshal(r.Usage, &u) // a usage the CLI spells otherwise counts as zero
	}
	if m := modelOf(r.Raw); m != "" {
		in.model = m
	}
	attrs := []attribute.KeyValue{AttrInputTokens.Int64(u.InputTokens), AttrOutputTokens.Int64(u.OutputTokens),
		AttrCostUSD.Float64(r.TotalCostUSD), AttrNumTurns.Int(r.NumTurns)}
	if u.CacheReadTokens > 0 {
		attrs = append(attrs, AttrCacheReadTokens.Int64(u.CacheReadTokens))
	}
	if in.model != "" {
		attrs = append(attrs, AttrResponseModel.String(in.model))
	}
	if r.StopReason != "" {
		attrs = append(attrs, AttrFinishReasons.StringSlice([]string{r.StopReason}))
	}
	in.turn.SetAttributes(attrs...)
	if r.IsError {
		in.turn.SetStatus(codes.Error, r.Subtype)
	}
	in.turn.End(trace.WithTimestamp(o.At))
	in.turn, in.turnCtx = nil, nil
	in.tokens[0] += u.InputTokens
	in.tokens[1] += u.OutputTokens
	if r.TotalCostUSD > in.cost { // the CLI's total_cost_usd is the session's so far
		in.cost = r.TotalCostUSD
	}
}

// modelOf returns the model a result names in modelUsage (the one with the most output tokens).
func modelOf(raw jsontext.Value) string {
	var r struct {
		ModelUsage map[string]struct {
			OutputTokens int64 `json:"outputTokens"`
		} `json:"modelUsage"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &r) != nil {
		return ""
	}
	names := make([]string, 0, len(r.ModelUsage))
	for n := range r.ModelUsage {
		names = append(names, n)
	}
	sort.Strings(names)
	best := ""
	for _, n := range names {
		if best == "" || r.ModelUsage[n].OutputTokens > r.ModelUsage[best].OutputTokens {
			best = n
		}
	}
	return best
}

func (in *Instrumentation) sessionEnded(o *v2.SessionEnded) {
	in.flushPending()
	if in.turn != nil { // a turn without a result: the session closed mid-turn
		in.turn.SetStatus(codes.Error, "no result")
		in.turn.End(trace.WithTimestamp(o.At))
		in.turn, in.turnCtx = nil, nil
	}
	in.sessionContext(o.At) // a session without any other observation has its span too
	attrs := []attribute.KeyValue{AttrInputTokens.Int64(in.tokens[0]), AttrOutputTokens.Int64(in.tokens[1]), AttrCostUSD.Float64(in.cost)}
	if in.model != "" {
		attrs = append(attrs, AttrResponseModel.String(in.model))
	}
	in.session.SetAttributes(attrs...)
	if o.Err != nil {
		in.session.RecordError(o.Err, trace.WithTimestamp(o.At))
		in.session.SetStatus(codes.Error, "the CLI failed")
	}
	in.session.End(trace.WithTimestamp(o.At))

	bg := context.Background()
	model := AttrResponseModel.String(in.model)
	in.m.tokens.Record(bg, in.tokens[0], metric.WithAttributes(AttrTokenType.String("input"), model))
	in.m.tokens.Record(bg, in.tokens[1], metric.WithAttributes(AttrTokenType.String("output"), model))
	in.m.cost.Record(bg, in.cost, metric.WithAttributes(model))
}

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// flushPending records the hook runs whose tool call never showed (the CLI did not report it) as
// children of the turn.
func (in *Instrumentation) flushPending() {
	ids := make([]string, 0, len(in.pending))
	for id := range in.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		hooks := in.pending[id]
		delete(in.pending, id)
		for _, h := range hooks {
			ctx := in.sessionContext(h.Started)
			if in.turn != nil {
				ctx = in.turnCtx
			}
			in.recordHook(ctx, nil, h)
		}
	}
}
