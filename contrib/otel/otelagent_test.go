package otelagent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// session is the observations of one recorded session, as the SDK delivers them for CLI 2.1.330
// (order and fields as observed by claude/v2's real-CLI tests): an allowed Bash call, a Bash call
// a PreToolUse hook denies, a failing Bash call, and a Task call whose subagent runs a Read, then
// the result and the end.
func session() []v2.Observation {
	t0 := time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	hook := func(ms int, id, tool string, d shared.Decision, reason string) *v2.HookFinished {
		return &v2.HookFinished{At: at(ms + 1), Started: at(ms), Duration: time.Millisecond,
			HookRunInfo: shared.HookRunInfo{HookID: "sdk-" + id, HookName: "bash-policy", Event: shared.HookEventPreToolUse,
				Source: shared.HookSourceSDK, ToolName: tool, ToolUseID: id},
			Outcome: shared.HookOutcomeSuccess, Decision: d, Reason: reason}
	}
	fin := func(ms, dur int, id, tool, parent string, isErr bool, content string) *v2.ToolFinished {
		return &v2.ToolFinished{At: at(ms), SessionID: "sess-1", ToolUseID: id, ToolName: tool, ParentToolUseID: parent,
			IsError: isErr, Content: jsontext.Value(fmt.Sprintf("%q", content)), Duration: time.Duration(dur) * time.Millisecond}
	}
	return []v2.Observation{
		&v2.SessionStarted{At: at(0), SessionID: "sess-1", Info: v2.Info{CLIVersion: "2.1.330"}},
		&v2.ToolStarted{At: at(10), SessionID: "sess-1", ToolUseID: "toolu_ok", ToolName: "Bash"},
		hook(11, "toolu_ok", "Bash", shared.DecisionAllow, ""),
		fin(55, 45, "toolu_ok", "Bash", "", false, "hello"),
		&v2.ToolStarted{At: at(60), SessionID: "sess-1", ToolUseID: "toolu_rm", ToolName: "Bash"},
		hook(61, "toolu_rm", "Bash", shared.DecisionDeny, "rm is not allowed"),
		fin(63, 3, "toolu_rm", "Bash", "", true, "rm is not allowed"),
		&v2.ToolStarted{At: at(70), SessionID: "sess-1", ToolUseID: "toolu_fail", ToolName: "Bash"},
		hook(71, "toolu_fail", "Bash", shared.DecisionAllow, ""),
		fin(90, 20, "toolu_fail", "Bash", "", true, "Exit code 3"),
		&v2.ToolStarted{At: at(100), SessionID: "sess-1", ToolUseID: "toolu_task", ToolName: "Task"},
		// The CLI reports a subagent's tool_use after the call's PreToolUse hook ran.
		hook(105, "toolu_sub", "Read", shared.DecisionAllow, ""),
		&v2.ToolStarted{At: at(110), SessionID: "sess-1", ToolUseID: "toolu_sub", ToolName: "Read", ParentToolUseID: "toolu_task"},
		fin(120, 10, "toolu_sub", "Read", "toolu_task", false, "file"),
		fin(150, 50, "toolu_task", "Task", "", false, "subagent done"),
		&v2.TurnEnded{At: at(160), Result: &shared.ResultMessage{Subtype: "success", NumTurns: 5, DurationMS: 155,
			TotalCostUSD: 0.0125, SessionID: "sess-1", StopReason: "end_turn",
			Usage: jsontext.Value(`{"input_tokens":1200,"output_tokens":340,"cache_read_input_tokens":0}`),
			Raw:   jsontext.Value(`{"type":"result","modelUsage":{"claude-sonnet-4-5":{"outputTokens":340}}}`)}},
		&v2.SessionEnded{At: at(170), SessionID: "sess-1"},
	}
}

// node is a span normalised for comparison: name, status, chosen attributes, children in start
// order. Times are checked apart (start <= end, children within their parent).
type node struct {
	Name     string
	Status   string `json:",omitempty"`
	Attrs    map[string]string
	Children []*node
}

// tree builds the span forest of spans, keeping the attributes whose keys are in keep.
func tree(t *testing.T, spans tracetest.SpanStubs) []*node {
	t.Helper()
	byID := map[string]*node{}
	var roots []*node
	slices.SortStableFunc(spans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	for _, s := range spans {
		n := &node{Name: s.Name, Attrs: map[string]string{}}
		if s.Status.Code == codes.Error {
			n.Status = "error: " + s.Status.Description
		}
		for _, a := range s.Attributes {
			n.Attrs[string(a.Key)] = a.Value.String()
		}
		if s.EndTime.Before(s.StartTime) {
			t.Errorf("span %s ends before it starts", s.Name)
		}
		byID[s.SpanContext.SpanID().String()] = n
	}
	for _, s := range spans {
		n := byID[s.SpanContext.SpanID().String()]
		if p, ok := byID[s.Parent.SpanID().String()]; ok && s.Parent.IsValid() {
			p.Children = append(p.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	return roots
}

func TestSpanTree(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	mp := sdkmetric.NewMeterProvider()
	in := otelagent.New(tp, mp)
	for _, o := range session() {
		in.Observe(o)
	}
	tool := func(id, name, outcome string, children ...*node) *node {
		return &node{Name: "execute_tool " + name, Attrs: map[string]string{"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": name, "gen_ai.tool.call.id": id, "agent.tool.outcome": outcome}, Children: children}
	}
	hook := func(id, decision, reason string) *node {
		a := map[string]string{"agent.hook.name": "bash-policy", "agent.hook.event": "PreToolUse",
			"agent.hook.outcome": "success", "agent.hook.decision": decision, "gen_ai.tool.call.id": id}
		if reason != "" {
			a["agent.hook.reason"] = reason
		}
		return &node{Name: "hook bash-policy", Attrs: a}
	}
	denied := tool("toolu_rm", "Bash", "denied", hook("toolu_rm", "deny", "rm is not allowed"))
	denied.Status = "error: rm is not allowed" // the tool_result the model got
	denied.Attrs["agent.tool.denied_by"] = "bash-policy"
	denied.Attrs["agent.tool.deny_reason"] = "rm is not allowed"
	failed := tool("toolu_fail", "Bash", "error", hook("toolu_fail", "allow", ""))
	failed.Status = "error: Exit code 3"
	sub := tool("toolu_sub", "Read", "ok", hook("toolu_sub", "allow", ""))
	sub.Attrs["agent.tool.parent_call.id"] = "toolu_task"
	want := []*node{{
		Name: "invoke_agent",
		Attrs: map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "anthropic",
			"gen_ai.conversation.id": "sess-1", "agent.cli.version": "2.1.330", "gen_ai.response.model": "claude-sonnet-4-5",
			"gen_ai.usage.input_tokens": "1200", "gen_ai.usage.output_tokens": "340", "agent.cost.usd": "0.0125"},
		Children: []*node{{
			Name: "turn",
			Attrs: map[string]string{"gen_ai.usage.input_tokens": "1200", "gen_ai.usage.output_tokens": "340",
				"agent.cost.usd": "0.0125", "agent.turn.num_turns": "5", "gen_ai.response.model": "claude-sonnet-4-5",
				"gen_ai.response.finish_reasons": `["end_turn"]`},
			Children: []*node{
				tool("toolu_ok", "Bash", "ok", hook("toolu_ok", "allow", "")),
				denied,
				failed,
				tool("toolu_task", "Task", "ok", sub),
			},
		}},
	}}
	if diff := cmp.Diff(want, tree(t, exp.GetSpans())); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}
	// The turn starts with its first call; a call whose hook ran before its tool_use was seen
	// starts with the hook.
	for _, s := range exp.GetSpans() {
		if s.Name == "turn" && !s.StartTime.Equal(time.Date(2026, 11, 25, 5, 0, 0, 10e6, time.UTC)) {
			t.Errorf("turn starts at %v", s.StartTime)
		}
		if s.Name == "execute_tool Read" && !s.StartTime.Equal(time.Date(2026, 11, 25, 5, 0, 0, 105e6, time.UTC)) {
			t.Errorf("the subagent's call starts at %v, want with its hook", s.StartTime)
		}
	}
}

// points returns a metric's data points as "attr=value,... => value" strings, sorted.
func points(t *testing.T, rm metricdata.ResourceMetrics, name string) []string {
	t.Helper()
	var out []string
	label := func(set attribute.Set) string {
		var kv []string
		for _, a := range set.ToSlice() {
			kv = append(kv, string(a.Key)+"="+a.Value.String())
		}
		return strings.Join(kv, ",")
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s => %d", label(p.Attributes), p.Value))
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s => n=%d sum=%.4g", label(p.Attributes), p.Count, p.Sum))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s => n=%d sum=%d", label(p.Attributes), p.Count, p.Sum))
				}
			default:
				t.Fatalf("%s: unexpected data %T", name, m.Data)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	in := otelagent.New(sdktrace.NewTracerProvider(), mp)
	for _, o := range session() {
		in.Observe(o)
	}
	t0 := time.Now()
	in.RoundTrip(shared.RoundTrip{Subtype: "hook_callback", Event: shared.HookEventPreToolUse, Read: t0, Written: t0.Add(2 * time.Millisecond)})
	in.RoundTrip(shared.RoundTrip{Subtype: "hook_callback", Event: shared.HookEventPreToolUse, Read: t0, Written: t0.Add(4 * time.Millisecond)})
	// A permission prompt (the can_use_tool callback) has no hook event.
	in.RoundTrip(shared.RoundTrip{Subtype: "can_use_tool", Read: t0, Written: t0.Add(3 * time.Millisecond)})
	in.RoundTrip(shared.RoundTrip{Subtype: "hook_callback", Read: t0}) // not answered: not recorded
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"agent.tool.calls", []string{
			"agent.tool.outcome=denied,gen_ai.tool.name=Bash => 1",
			"agent.tool.outcome=error,gen_ai.tool.name=Bash => 1",
			"agent.tool.outcome=ok,gen_ai.tool.name=Bash => 1",
			"agent.tool.outcome=ok,gen_ai.tool.name=Read => 1",
			"agent.tool.outcome=ok,gen_ai.tool.name=Task => 1",
		}},
		{"agent.tool.duration", []string{
			"agent.tool.outcome=denied,gen_ai.tool.name=Bash => n=1 sum=0.003",
			"agent.tool.outcome=error,gen_ai.tool.name=Bash => n=1 sum=0.02",
			"agent.tool.outcome=ok,gen_ai.tool.name=Bash => n=1 sum=0.045",
			"agent.tool.outcome=ok,gen_ai.tool.name=Read => n=1 sum=0.01",
			"agent.tool.outcome=ok,gen_ai.tool.name=Task => n=1 sum=0.05",
		}},
		{"agent.hook.denials", []string{
			"agent.hook.event=PreToolUse,agent.hook.name=bash-policy,agent.hook.reason=rm is not allowed => 1",
		}},
		{"agent.hook.duration", []string{
			"agent.hook.event=PreToolUse,agent.hook.name=bash-policy,agent.hook.outcome=success => n=4 sum=0.004",
		}},
		{"agent.hook.round_trip.duration", []string{
			"agent.hook.event=,agent.round_trip.subtype=can_use_tool => n=1 sum=0.003",
			"agent.hook.event=PreToolUse,agent.round_trip.subtype=hook_callback => n=2 sum=0.006",
		}},
		{"agent.session.tokens", []string{
			"gen_ai.response.model=claude-sonnet-4-5,gen_ai.token.type=input => n=1 sum=1200",
			"gen_ai.response.model=claude-sonnet-4-5,gen_ai.token.type=output => n=1 sum=340",
		}},
		{"agent.session.cost.usd", []string{
			"gen_ai.response.model=claude-sonnet-4-5 => n=1 sum=0.0125",
		}},
	} {
		if diff := cmp.Diff(tc.want, points(t, rm, tc.name)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// A failing hook is an error span and, for PreToolUse, a fail-closed denial; a session that ends
// mid-call closes the call as no_result and the CLI's failure marks the session span.
func TestHookFailureAndAbandonedCall(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	in := otelagent.New(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)), sdkmetric.NewMeterProvider())
	t0 := time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)
	boom := errors.New("policy store unreachable")
	for _, o := range []v2.Observation{
		&v2.SessionStarted{At: t0, SessionID: "s"},
		&v2.ToolStarted{At: t0.Add(time.Millisecond), ToolUseID: "toolu_1", ToolName: "Bash"},
		&v2.HookFinished{At: t0.Add(3 * time.Millisecond), Started: t0.Add(2 * time.Millisecond),
			HookRunInfo: shared.HookRunInfo{HookName: "policy", Event: shared.HookEventPreToolUse, ToolUseID: "toolu_1"},
			Outcome:     shared.HookOutcomeError, Err: boom, Decision: shared.DecisionDeny, Reason: "hook failed"},
		&v2.ToolStarted{At: t0.Add(4 * time.Millisecond), ToolUseID: "toolu_2", ToolName: "Bash"},
		&v2.ToolFinished{At: t0.Add(5 * time.Millisecond), ToolUseID: "toolu_1", ToolName: "Bash", IsError: true,
			Content: jsontext.Value(`"hook failed"`), Duration: 4 * time.Millisecond},
		&v2.ToolFinished{At: t0.Add(9 * time.Millisecond), ToolUseID: "toolu_2", ToolName: "Bash", IsError: true, NoResult: true,
			Duration: 5 * time.Millisecond},
		&v2.SessionEnded{At: t0.Add(9 * time.Millisecond), SessionID: "s", Err: errors.New("exit status 1")},
	} {
		in.Observe(o)
	}
	got := map[string]string{}
	for _, s := range exp.GetSpans() {
		st := s.Status.Description
		for _, a := range s.Attributes {
			if a.Key == "agent.tool.outcome" || a.Key == "agent.hook.decision" {
				st += " " + string(a.Key) + "=" + a.Value.String()
			}
		}
		got[s.Name+" "+s.Status.Code.String()] = strings.TrimSpace(st)
	}
	want := map[string]string{
		"invoke_agent Error": "the CLI failed",
		"turn Error":         "no result",
		"hook policy Error":  "error agent.hook.decision=deny",
	}
	var tools []string
	for _, s := range exp.GetSpans() {
		if s.Name == "execute_tool Bash" {
			for _, a := range s.Attributes {
				if a.Key == "agent.tool.outcome" {
					tools = append(tools, a.Value.String()+": "+s.Status.Description)
				}
			}
		}
	}
	sort.Strings(tools)
	if diff := cmp.Diff([]string{"denied: hook failed", "no_result: no_result"}, tools); diff != "" {
		t.Errorf("tool spans (-want +got):\n%s", diff)
	}
	for _, k := range []string{"invoke_agent Error", "turn Error", "hook policy Error"} {
		if got[k] != want[k] {
			t.Errorf("%s: %q, want %q", k, got[k], want[k])
		}
	}
}

// The metrics scraped from a real /metrics endpoint (the OpenTelemetry Prometheus exporter on a
// client_golang registry) parse with the Prometheus text parser and have the expected series.
func TestPrometheusScrape(t *testing.T) {
	reg := prometheus.NewRegistry()
	mp, err := otelagent.PrometheusMeterProvider(reg)
	if err != nil {
		t.Fatal(err)
	}
	defer mp.Shutdown(context.Background())
	in := otelagent.New(sdktrace.NewTracerProvider(), mp)
	for _, o := range session() {
		in.Observe(o)
	}
	fams := scrape(t, reg)
	// Latency buckets in seconds (the SDK's default ones are for milliseconds): the 45 ms Bash
	// call falls in le=0.05, not in le=5.
	if f := fams["agent_tool_duration_seconds"]; f != nil {
		var les []float64
		for _, b := range f.Metric[0].GetHistogram().GetBucket() {
			les = append(les, b.GetUpperBound())
		}
		if !slices.Contains(les, 0.05) || !slices.Contains(les, 0.005) {
			t.Errorf("agent_tool_duration_seconds buckets %v: want seconds (0.005, 0.05, ...)", les)
		}
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"agent_tool_calls_total", []string{
			"agent_tool_outcome=denied,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=error,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Read 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Task 1",
		}},
		{"agent_tool_duration_seconds", []string{
			"agent_tool_outcome=denied,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=error,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Bash 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Read 1",
			"agent_tool_outcome=ok,gen_ai_tool_name=Task 1",
		}},
		{"agent_hook_denials_total", []string{
			"agent_hook_event=PreToolUse,agent_hook_name=bash-policy,agent_hook_reason=rm is not allowed 1",
		}},
		{"agent_session_cost_usd", []string{"gen_ai_response_model=claude-sonnet-4-5 1"}},
		{"agent_session_tokens", []string{
			"gen_ai_response_model=claude-sonnet-4-5,gen_ai_token_type=input 1",
			"gen_ai_response_model=claude-sonnet-4-5,gen_ai_token_type=output 1",
		}},
	} {
		if diff := cmp.Diff(tc.want, series(fams, tc.name)); diff != "" {
			var names []string
			for n := range fams {
				names = append(names, n)
			}
			sort.Strings(names)
			t.Errorf("%s (-want +got):\n%s\nfamilies: %v", tc.name, diff, names)
		}
	}
}

// Hooks outside a turn (SessionStart runs inside CreateSession, before the SessionStarted
// observation's time; SessionEnd runs in Close) are children of the session span, which starts
// with the earliest of them; UserPromptSubmit opens a turn.
func TestSessionHooks(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	in := otelagent.New(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)), sdkmetric.NewMeterProvider())
	t0 := time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)
	hook := func(e shared.HookEvent, start time.Duration) *v2.HookFinished {
		return &v2.HookFinished{At: t0.Add(start + time.Millisecond), Started: t0.Add(start), Duration: time.Millisecond,
			HookRunInfo: shared.HookRunInfo{HookName: string(e), Event: e}, Outcome: shared.HookOutcomeSuccess}
	}
	for _, o := range []v2.Observation{
		&v2.SessionStarted{At: t0.Add(10 * time.Millisecond), SessionID: "s"},
		hook(shared.HookEventSessionStart, 2*time.Millisecond),
		hook(shared.HookEventUserPromptSubmit, 20*time.Millisecond), // opens the turn
		hook(shared.HookEventStop, 30*time.Millisecond),
		&v2.TurnEnded{At: t0.Add(40 * time.Millisecond), Result: &shared.ResultMessage{Subtype: "success", DurationMS: 15}},
		hook(shared.HookEventSessionEnd, 50*time.Millisecond),
		&v2.SessionEnded{At: t0.Add(60 * time.Millisecond), SessionID: "s"},
	} {
		in.Observe(o)
	}
	got := tree(t, exp.GetSpans())
	for _, n := range got {
		n.Attrs = nil
		for _, c := range n.Children {
			c.Attrs = nil
			for _, g := range c.Children {
				g.Attrs = nil
			}
		}
	}
	want := []*node{{Name: "invoke_agent", Children: []*node{
		{Name: "hook SessionStart"},
		{Name: "turn", Children: []*node{{Name: "hook UserPromptSubmit"}, {Name: "hook Stop"}}},
		{Name: "hook SessionEnd"},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}
	for _, s := range exp.GetSpans() {
		if s.Name == "invoke_agent" && !s.StartTime.Equal(t0.Add(2*time.Millisecond)) {
			t.Errorf("the session span starts at %v, want with the SessionStart hook", s.StartTime)
		}
	}
}

// scrape serves reg's /metrics on 127.0.0.1, scrapes it once in the text format and parses the
// answer with the Prometheus text parser.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("server at %s, want 127.0.0.1", srv.URL)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/metrics", nil)
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// series returns the series of family name as "label=value,... value" strings (the otel_scope_*
// labels left out; a histogram's value is its count), sorted.
func series(fams map[string]*dto.MetricFamily, name string) []string {
	f := fams[name]
	if f == nil {
		return nil
	}
	var out []string
	for _, m := range f.Metric {
		var kv []string
		for _, l := range m.Label {
			if !strings.HasPrefix(l.GetName(), "otel_scope_") {
				kv = append(kv, l.GetName()+"="+l.GetValue())
			}
		}
		sort.Strings(kv)
		v := 0.0
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			v = m.GetCounter().GetValue()
		case dto.MetricType_HISTOGRAM:
			v = float64(m.GetHistogram().GetSampleCount())
		}
		out = append(out, fmt.Sprintf("%s %g", strings.Join(kv, ","), v))
	}
	sort.Strings(out)
	return out
}

// A hook run of a scoped registration (Session.RegisterScoped) carries its scope; one of the
// session's own hooks has none.
func TestHookScope(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	in := otelagent.New(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)), sdkmetric.NewMeterProvider())
	t0 := time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)
	run := func(name, scope string) *v2.HookFinished {
		return &v2.HookFinished{At: t0.Add(2 * time.Millisecond), Started: t0.Add(time.Millisecond), Duration: time.Millisecond,
			HookRunInfo: shared.HookRunInfo{HookName: name, Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_1",
				Scope: scope}, Outcome: shared.HookOutcomeSuccess}
	}
	for _, o := range []v2.Observation{
		&v2.SessionStarted{At: t0, SessionID: "s"},
		&v2.ToolStarted{At: t0, ToolUseID: "toolu_1", ToolName: "Bash"},
		run("review-policy", "review"),
		run("policy", ""),
		&v2.ToolFinished{At: t0.Add(3 * time.Millisecond), ToolUseID: "toolu_1", ToolName: "Bash", Duration: 3 * time.Millisecond},
		&v2.SessionEnded{At: t0.Add(4 * time.Millisecond), SessionID: "s"},
	} {
		in.Observe(o)
	}
	got := map[string]string{}
	for _, s := range exp.GetSpans() {
		if !strings.HasPrefix(s.Name, "hook ") {
			continue
		}
		got[s.Name] = "none"
		for _, a := range s.Attributes {
			if a.Key == otelagent.AttrHookScope {
				got[s.Name] = a.Value.AsString()
			}
		}
	}
	if diff := cmp.Diff(map[string]string{"hook review-policy": "review", "hook policy": "none"}, got); diff != "" {
		t.Errorf("hook scopes (-want +got):\n%s", diff)
	}
}
