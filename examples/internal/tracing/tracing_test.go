package tracing

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// The tree of a real CLI session with an allowed call, a call a hook denies, a failing call and a
// subagent: the rendering docs/OBSERVABILITY.md shows (run with -v to print it).
func TestTreeOfARealSession(t *testing.T) {
	const marker = "SUBAGENT-TASK"
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": cmd} }
	convo := func(r claudetest.Request) (first, all string) {
		for i, m := range r.Messages {
			var b strings.Builder
			for _, c := range m.Content {
				b.WriteString(c.Text)
				if c.Type == "tool_result" {
					b.WriteString(" tool_result:" + c.ToolUseID + " ")
				}
			}
			if i == 0 {
				first = b.String()
			}
			all += b.String()
		}
		return first, all
	}
	script := func(r claudetest.Request) claudetest.Reply {
		first, all := convo(r)
		if strings.Contains(first, marker) {
			if strings.Contains(all, "tool_result:toolu_sub") {
				return claudetest.TextReply("sub done")
			}
			return claudetest.ToolReply("toolu_sub", "Bash", bash("echo from-subagent"))
		}
		switch {
		case strings.Contains(all, "tool_result:toolu_agent"):
			return claudetest.TextReply("done")
		case strings.Contains(all, "tool_result:toolu_fail"):
			return claudetest.ToolReply("toolu_agent", "Agent", map[string]any{"description": "probe",
				"prompt": marker + " run echo", "subagent_type": "general-purpose", "run_in_background": false})
		case strings.Contains(all, "tool_result:toolu_rm"):
			return claudetest.ToolReply("toolu_fail", "Bash", bash("exit 3"))
		case strings.Contains(all, "tool_result:toolu_ok"):
			return claudetest.ToolReply("toolu_rm", "Bash", bash("rm -rf /"))
		}
		return claudetest.ToolReply("toolu_ok", "Bash", bash("echo ok"))
	}
	env := claudetest.NewEnv(t, func(string) *claudetest.Model { return claudetest.NewModelFunc(script) })
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tp, stop, err := Setup(ctx, "tree", &out)
	if err != nil {
		t.Fatal(err)
	}
	policy := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if cmd, _ := in.ToolInput["command"].(string); strings.HasPrefix(cmd, "rm ") {
			return shared.Deny("rm is not allowed"), nil
		}
		return nil, nil
	})
	opts := env.Options(v2.WithAllowedTools("Bash"),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Name: "bash-policy", Handler: policy}}}),
		otelagent.Instrument(tp, sdkmetric.NewMeterProvider()))
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Run(ctx, "go"); err != nil || res.Result != "done" {
		t.Fatalf("Run: %v %+v", err, res)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := stop(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		lines = append(lines, regexp.MustCompile(` \[[^\]]*\]`).ReplaceAllString(regexp.MustCompile(` (gen_ai\.conversation\.id|gen_ai\.response\.model|gen_ai\.usage\.[a-z_]+|agent\.cost\.usd)=\S+`).ReplaceAllString(l, ""), ""))
	}
	want := []string{
		"--- trace",
		"invoke_agent",
		"  turn",
		"    execute_tool Bash gen_ai.tool.call.id=toolu_ok agent.tool.outcome=ok",
		"      hook bash-policy gen_ai.tool.call.id=toolu_ok agent.hook.event=PreToolUse agent.hook.outcome=success",
		"    execute_tool Bash gen_ai.tool.call.id=toolu_rm agent.tool.outcome=denied agent.tool.denied_by=bash-policy ERROR: PreToolUse:Bash hook error: rm is not allowed", // the tool_result the model got
		"      hook bash-policy gen_ai.tool.call.id=toolu_rm agent.hook.event=PreToolUse agent.hook.outcome=success agent.hook.decision=deny agent.hook.reason=rm is not allowed",
		"    execute_tool Bash gen_ai.tool.call.id=toolu_fail agent.tool.outcome=error ERROR: Exit code 3",
		"      hook bash-policy gen_ai.tool.call.id=toolu_fail agent.hook.event=PreToolUse agent.hook.outcome=success",
		"    execute_tool Agent gen_ai.tool.call.id=toolu_agent agent.tool.outcome=ok",
		"      execute_tool Bash gen_ai.tool.call.id=toolu_sub agent.tool.parent_call.id=toolu_agent agent.tool.outcome=ok",
		"        hook bash-policy gen_ai.tool.call.id=toolu_sub agent.hook.event=PreToolUse agent.hook.outcome=success",
	}
	if strings.Join(want, "\n") != strings.Join(lines, "\n") {
		t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// With OTEL_EXPORTER_OTLP_ENDPOINT set, the spans also go to that collector over OTLP/HTTP: a
// local receiver gets a POST /v1/traces at shutdown.
func TestOTLPWhenAnEndpointIsSet(t *testing.T) {
	got := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Content-Type") + " " + strconv.FormatBool(bytes.Contains(b, []byte("execute_tool Bash")))
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	var out strings.Builder
	tp, stop, err := Setup(context.Background(), "off", &out)
	if err != nil {
		t.Fatal(err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "execute_tool Bash")
	span.End()
	if err := stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-got:
		if g != "POST /v1/traces application/x-protobuf true" {
			t.Errorf("the collector got %q", g)
		}
	default:
		t.Fatal("the collector got nothing")
	}
	if !strings.Contains(out.String(), "trace: exporting to the OTLP endpoint") {
		t.Errorf("output %q", out.String())
	}
}
