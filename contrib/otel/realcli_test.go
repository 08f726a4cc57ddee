package otelagent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

const subagentMarker = "SUBAGENT-TASK"

// The real CLI runs offline against the repository's fake Messages API (claude/claudetest; a
// module nested under the root may import its internal packages).

// A real CLI session with an allowed call, a call a hook denies, a failing call and a subagent
// (the Agent tool) whose own call the CLI attributes to it: the span tree has that shape and its
// attributes (the session's id and CLI version, each call's tool, id, outcome and denial, each hook
// run's decision and reason; the model, tokens and cost present), the metrics count it, with no
// other round trip than the PreToolUse hook's, and a scrape of /metrics after the session (the
// OpenTelemetry Prometheus exporter, a second reader) parses and has the same counts.
func TestRealCLI_SessionTrace(t *testing.T) {
	t.Parallel()
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "test"} }
	script := func(r claudetest.Request) claudetest.Reply {
		answered := map[string]bool{}
		for _, b := range r.ToolResults() {
			answered[b.ToolUseID] = true
		}
		subagent := false // the subagent's conversation starts with its prompt
		if len(r.Messages) > 0 {
			for _, b := range r.Messages[0].Content {
				subagent = subagent || strings.Contains(b.Text, subagentMarker)
			}
		}
		if subagent {
			if answered["toolu_sub"] {
				return claudetest.TextReply("sub done")
			}
			return claudetest.ToolReply("toolu_sub", "Bash", bash("echo from-subagent"))
		}
		switch {
		case answered["toolu_agent"]:
			return claudetest.TextReply("done")
		case answered["toolu_fail"]:
			return claudetest.ToolReply("toolu_agent", "Agent", map[string]any{"description": "probe",
				"prompt": subagentMarker + " run echo", "subagent_type": "general-purpose", "run_in_background": false})
		case answered["toolu_rm"]:
			return claudetest.ToolReply("toolu_fail", "Bash", bash("exit 3"))
		case answered["toolu_ok"]:
			return claudetest.ToolReply("toolu_rm", "Bash", bash("rm -rf /tmp/nothing-here"))
		}
		return claudetest.ToolReply("toolu_ok", "Bash", bash("echo ok"))
	}
	env := claudetest.NewEnv(t, func(string) *claudetest.Model { return claudetest.NewModelFunc(script) })

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reader := sdkmetric.NewManualReader()
	// The same metrics served to Prometheus too, scraped after the session.
	reg := prometheus.NewRegistry()
	promExp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		t.Fatal(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithReader(promExp))
	defer mp.Shutdown(context.Background())
	policy := func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
		pre := in.(*shared.PreToolUseHookInput)
		var cmd struct {
			Command string `json:"command"`
		}
		b, _ := json.Marshal(pre.ToolInput)
		_ = json.Unmarshal(b, &cmd)
		if strings.HasPrefix(cmd.Command, "rm ") {
			return shared.Deny("rm is not allowed"), nil
		}
		return shared.Allow(), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := env.Options(v2.WithAllowedTools("Bash"),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Name: "bash-policy", Handler: shared.HookHandlerFunc(policy)}}}),
		otelagent.Instrument(tp, mp))
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	res, err := s.Run(ctx, "go")
	if err != nil || res.Result != "done" {
		t.Fatalf("Run: %v, %+v", err, res)
	}
	sessionID, cliVersion := s.SessionID(), s.Info().CLIVersion
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// Normalise: the attributes whose values the session decides are compared; those the CLI
	// decides (tokens, cost, model, the number of turns: they vary with its version) must be there,
	// with any value ("*"); a span's status is "error" or "", not the CLI's text.
	anyValue := map[string]bool{"gen_ai.response.model": true, "gen_ai.usage.input_tokens": true,
		"gen_ai.usage.output_tokens": true, "agent.cost.usd": true, "agent.turn.num_turns": true,
		"gen_ai.response.finish_reasons": true}
	var normalise func(ns []*node)
	normalise = func(ns []*node) {
		for _, n := range ns {
			for k := range n.Attrs {
				switch {
				case k == "agent.usage.cache_read_input_tokens": // only when not zero
					delete(n.Attrs, k)
				case anyValue[k]:
					n.Attrs[k] = "*"
				}
			}
			if n.Status != "" {
				n.Status = "error"
			}
			normalise(n.Children)
		}
	}
	got := tree(t, exp.GetSpans())
	normalise(got)
	tool := func(id, name, outcome string, children ...*node) *node {
		n := &node{Name: "execute_tool " + name, Attrs: map[string]string{"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": name, "gen_ai.tool.call.id": id, "agent.tool.outcome": outcome}, Children: children}
		if outcome != "ok" {
			n.Status = "error"
		}
		return n
	}
	hook := func(id, decision string) *node {
		n := &node{Name: "hook bash-policy", Attrs: map[string]string{"gen_ai.tool.call.id": id, "agent.hook.name": "bash-policy",
			"agent.hook.event": "PreToolUse", "agent.hook.outcome": "success", "agent.hook.decision": decision}}
		if decision == "deny" {
			n.Attrs["agent.hook.reason"] = "rm is not allowed"
		}
		return n
	}
	denied := tool("toolu_rm", "Bash", "denied", hook("toolu_rm", "deny"))
	denied.Attrs["agent.tool.denied_by"] = "bash-policy"
	denied.Attrs["agent.tool.deny_reason"] = "rm is not allowed"
	sub := tool("toolu_sub", "Bash", "ok", hook("toolu_sub", "allow"))
	sub.Attrs["agent.tool.parent_call.id"] = "toolu_agent"
	want := []*node{{Name: "invoke_agent",
		Attrs: map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "anthropic",
			"gen_ai.conversation.id": sessionID, "agent.cli.version": cliVersion, "gen_ai.response.model": "*",
			"gen_ai.usage.input_tokens": "*", "gen_ai.usage.output_tokens": "*", "agent.cost.usd": "*"},
		Children: []*node{{
			Name: "turn", Attrs: map[string]string{"gen_ai.response.model": "*", "gen_ai.usage.input_tokens": "*",
				"gen_ai.usage.output_tokens": "*", "agent.cost.usd": "*", "agent.turn.num_turns": "*",
				"gen_ai.response.finish_reasons": "*"},
			Children: []*node{
				tool("toolu_ok", "Bash", "ok", hook("toolu_ok", "allow")),
				denied,
				tool("toolu_fail", "Bash", "error", hook("toolu_fail", "allow")),
				tool("toolu_agent", "Agent", "ok", sub),
			},
		}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	wantCalls := []string{
		"agent.tool.outcome=denied,gen_ai.tool.name=Bash => 1",
		"agent.tool.outcome=error,gen_ai.tool.name=Bash => 1",
		"agent.tool.outcome=ok,gen_ai.tool.name=Agent => 1",
		"agent.tool.outcome=ok,gen_ai.tool.name=Bash => 2",
	}
	if diff := cmp.Diff(wantCalls, points(t, rm, "agent.tool.calls")); diff != "" {
		t.Errorf("agent.tool.calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"agent.hook.event=PreToolUse,agent.hook.name=bash-policy,agent.hook.reason=rm is not allowed => 1"},
		points(t, rm, "agent.hook.denials")); diff != "" {
		t.Errorf("agent.hook.denials (-want +got):\n%s", diff)
	}
	// One hook round trip per Bash call (four), none for the Agent call: the instrumentation adds none.
	rt := points(t, rm, "agent.hook.round_trip.duration")
	if len(rt) != 1 || !strings.HasPrefix(rt[0], "agent.hook.event=PreToolUse,agent.round_trip.subtype=hook_callback => n=4 ") {
		t.Errorf("round trips %q, want 4 PreToolUse hook callbacks", rt)
	}
	if tok := points(t, rm, "agent.session.tokens"); len(tok) != 2 {
		t.Errorf("session tokens %q, want input and output", tok)
	}
	if cost := points(t, rm, "agent.session.cost.usd"); len(cost) != 1 || !strings.Contains(cost[0], "n=1 ") {
		t.Errorf("session cost %q, want one value", cost)
	}
	// Tool latencies: one value per call, by tool and outcome; hook run times: one per Bash call.
	var durations []string
	for _, p := range points(t, rm, "agent.tool.duration") {
		durations = append(durations, p[:strings.Index(p, " sum=")])
	}
	if diff := cmp.Diff([]string{
		"agent.tool.outcome=denied,gen_ai.tool.name=Bash => n=1",
		"agent.tool.outcome=error,gen_ai.tool.name=Bash => n=1",
		"agent.tool.outcome=ok,gen_ai.tool.name=Agent => n=1",
		"agent.tool.outcome=ok,gen_ai.tool.name=Bash => n=2",
	}, durations); diff != "" {
		t.Errorf("agent.tool.duration (-want +got):\n%s", diff)
	}
	if hd := points(t, rm, "agent.hook.duration"); len(hd) != 1 ||
		!strings.HasPrefix(hd[0], "agent.hook.event=PreToolUse,agent.hook.name=bash-policy,agent.hook.outcome=success => n=4 ") {
		t.Errorf("agent.hook.duration %q, want the 4 runs of bash-policy", hd)
	}

	// A scrape of /metrics after the session parses and has the same counts.
	fams := scrape(t, reg)
	if diff := cmp.Diff([]string{
		"agent_tool_outcome=denied,gen_ai_tool_name=Bash 1",
		"agent_tool_outcome=error,gen_ai_tool_name=Bash 1",
		"agent_tool_outcome=ok,gen_ai_tool_name=Agent 1",
		"agent_tool_outcome=ok,gen_ai_tool_name=Bash 2",
	}, series(fams, "agent_tool_calls_total")); diff != "" {
		t.Errorf("scraped agent_tool_calls_total (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"agent_hook_event=PreToolUse,agent_hook_name=bash-policy,agent_hook_reason=rm is not allowed 1"},
		series(fams, "agent_hook_denials_total")); diff != "" {
		t.Errorf("scraped agent_hook_denials_total (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"agent_hook_event=PreToolUse,agent_round_trip_subtype=hook_callback 4"},
		series(fams, "agent_hook_round_trip_duration_seconds")); diff != "" {
		t.Errorf("scraped agent_hook_round_trip_duration_seconds (-want +got):\n%s", diff)
	}
}
