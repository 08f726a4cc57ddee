package otelagent_test

import (
	"context"
	"fmt"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
)

// This module cannot import the root module's internal/cli and internal/fakeapi, so the real-CLI
// test finds the pinned CLI itself ($CLAUDE_CLI_PATH, else the repository's .cache/claude-cli) and
// answers the CLI with the smallest fake Messages API that does: each reply is chosen from the
// tool results the conversation already holds, and streamed as the Messages API's events.

// findCLI returns the pinned CLI, or skips (fails with CI=true) when it is not installed.
func findCLI(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CLAUDE_CLI_PATH")
	if p == "" {
		p, _ = filepath.Abs(filepath.Join("..", "..", ".cache", "claude-cli", "node_modules", ".bin", "claude"))
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the pinned CLI is not installed (%v): run `go run ./internal/cli/cmd/installcli` in the repository root", err)
		}
		t.Skipf("the pinned CLI is not installed (%v)", err)
	}
	return p
}

// reply is one model answer: text, or one tool call.
type reply struct {
	text      string
	toolID    string
	toolName  string
	toolInput map[string]any
}

// fakeAPI serves POST /v1/messages with next(conversation text) and /v1/messages/count_tokens.
// The conversation text holds every text block and "tool_result:<id>" per tool result.
func fakeAPI(t *testing.T, next func(first, all string) reply) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/messages/count_tokens" {
			fmt.Fprint(w, `{"input_tokens":10}`)
			return
		}
		if r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Tools    []any  `json:"tools"`
			Messages []struct {
				Content jsontext.Value `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var first, all string
		for i, m := range req.Messages {
			var s string
			var blocks []struct {
				Type      string `json:"type"`
				Text      string `json:"text"`
				ToolUseID string `json:"tool_use_id"`
			}
			text := ""
			if json.Unmarshal(m.Content, &s) == nil {
				text = s
			} else {
				_ = json.Unmarshal(m.Content, &blocks)
				for _, b := range blocks {
					text += b.Text
					if b.Type == "tool_result" {
						text += " tool_result:" + b.ToolUseID + " "
					}
				}
			}
			if i == 0 {
				first = text
			}
			all += text
		}
		rp := reply{text: "side answer"}
		if len(req.Tools) > 0 { // the agent's requests offer tools; side requests (titles) do not
			rp = next(first, all)
		}
		stream(w, req.Model, rp)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// stream writes rp as the Messages API's server-sent events.
func stream(w http.ResponseWriter, model string, rp reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	stop := "end_turn"
	if rp.toolID != "" {
		stop = "tool_use"
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message",
		"role": "assistant", "model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 100, "output_tokens": 1}}})
	if rp.toolID != "" {
		in, _ := json.Marshal(rp.toolInput)
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": rp.toolID, "name": rp.toolName, "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]string{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]string{"type": "text_delta", "text": rp.text}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 20}})
	ev("message_stop", map[string]string{"type": "message_stop"})
}

// cliEnv is the environment of a CLI run against the fake API: the host's Anthropic and Claude
// variables and HOME left out.
func cliEnv(home, api string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "CLAUDECODE" || k == "CLAUDE_CONFIG_DIR" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "ANTHROPIC_BASE_URL="+api, "ANTHROPIC_API_KEY=sk-ant-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
}

const subagentMarker = "SUBAGENT-TASK"

// A real CLI session with an allowed call, a call a hook denies, a failing call and a subagent
// (the Agent tool) whose own call the CLI attributes to it: the span tree has that shape and the
// metrics count it, with no other round trip than the PreToolUse hook's.
func TestRealCLI_SessionTrace(t *testing.T) {
	bin := findCLI(t)
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "test"} }
	api := fakeAPI(t, func(first, all string) reply {
		if strings.Contains(first, subagentMarker) {
			if strings.Contains(all, "tool_result:toolu_sub") {
				return reply{text: "sub done"}
			}
			return reply{toolID: "toolu_sub", toolName: "Bash", toolInput: bash("echo from-subagent")}
		}
		switch {
		case strings.Contains(all, "tool_result:toolu_agent"):
			return reply{text: "done"}
		case strings.Contains(all, "tool_result:toolu_fail"):
			return reply{toolID: "toolu_agent", toolName: "Agent", toolInput: map[string]any{"description": "probe",
				"prompt": subagentMarker + " run echo", "subagent_type": "general-purpose", "run_in_background": false}}
		case strings.Contains(all, "tool_result:toolu_rm"):
			return reply{toolID: "toolu_fail", toolName: "Bash", toolInput: bash("exit 3")}
		case strings.Contains(all, "tool_result:toolu_ok"):
			return reply{toolID: "toolu_rm", toolName: "Bash", toolInput: bash("rm -rf /tmp/nothing-here")}
		}
		return reply{toolID: "toolu_ok", toolName: "Bash", toolInput: bash("echo ok")}
	})
	project := t.TempDir()
	if p, err := filepath.EvalSymlinks(project); err == nil {
		project = p
	}

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
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
	opts := append([]v2.Option{v2.WithCLIPath(bin), v2.WithCwd(project), v2.WithBaseEnv(cliEnv(t.TempDir(), api)),
		v2.WithAllowedTools("Bash"),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Name: "bash-policy", Handler: policy}}}),
	}, otelagent.Options(tp, mp)...)
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	res, err := s.Run(ctx, "go")
	if err != nil || res.Result != "done" {
		t.Fatalf("Run: %v, %+v", err, res)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// Normalise: names, tool outcome and hook decision only (the CLI's own attributes, such as
	// token counts, vary with its version).
	keep := map[string]bool{"gen_ai.tool.call.id": true, "agent.tool.outcome": true, "agent.hook.decision": true}
	var prune func(ns []*node)
	prune = func(ns []*node) {
		for _, n := range ns {
			for k := range n.Attrs {
				if !keep[k] {
					delete(n.Attrs, k)
				}
			}
			n.Status = ""
			prune(n.Children)
		}
	}
	got := tree(t, exp.GetSpans())
	prune(got)
	tool := func(id, name, outcome string, children ...*node) *node {
		return &node{Name: "execute_tool " + name, Attrs: map[string]string{"gen_ai.tool.call.id": id, "agent.tool.outcome": outcome},
			Children: children}
	}
	hook := func(id, decision string) *node {
		return &node{Name: "hook bash-policy", Attrs: map[string]string{"gen_ai.tool.call.id": id, "agent.hook.decision": decision}}
	}
	want := []*node{{Name: "invoke_agent", Attrs: map[string]string{}, Children: []*node{{
		Name: "turn", Attrs: map[string]string{}, Children: []*node{
			tool("toolu_ok", "Bash", "ok", hook("toolu_ok", "allow")),
			tool("toolu_rm", "Bash", "denied", hook("toolu_rm", "deny")),
			tool("toolu_fail", "Bash", "error", hook("toolu_fail", "allow")),
			tool("toolu_agent", "Agent", "ok", tool("toolu_sub", "Bash", "ok", hook("toolu_sub", "allow"))),
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
}
