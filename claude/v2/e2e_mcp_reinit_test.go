package v2_test

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A second initialize (RegisterScoped with an event the CLI was not told about) carries the hooks
// and agents but not the MCP servers. CLI 2.1.330 keeps the servers of the first one: after it,
// the in-process server's Go handler still runs and its result reaches the model, the external
// (streamable HTTP) server still answers, the new scoped hook fires for the in-process tool (so
// the second initialize did take effect), and MCPStatus reports both servers connected.
func TestE2EMCPServersSurviveReinitialize(t *testing.T) {
	t.Parallel()
	var ran records[string]
	var servers remoteServers
	newRemote := func(*http.Request) *mcp.Server {
		srv := servers.add(mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, nil))
		mcp.AddTool(srv, &mcp.Tool{Name: "lookup"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
			ran.add("web:" + in.Key)
			return nil, lookupOut{Value: "remote-" + in.Key}, nil
		})
		return srv
	}
	httpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(newRemote, nil))
	t.Cleanup(httpSrv.Close) // after the session's Close: the CLI holds streams open
	t.Cleanup(servers.close) // before the HTTP servers close: their sessions' goroutines end (goleak)

	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_db1", Name: "mcp__db__lookup", Input: map[string]any{"key": "k1"}},
				claudetest.ToolUse{ID: "toolu_web1", Name: "mcp__web__lookup", Input: map[string]any{"key": "h1"}},
			),
			claudetest.TextReply("one"),
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_db2", Name: "mcp__db__lookup", Input: map[string]any{"key": "k2"}},
				claudetest.ToolUse{ID: "toolu_web2", Name: "mcp__web__lookup", Input: map[string]any{"key": "h2"}},
			),
			claudetest.TextReply("two"),
		}
	})
	s := env.session(t,
		v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))),
		v2.WithMCPHTTPServer("web", v2.MCPHTTPServer{URL: httpSrv.URL}),
		v2.WithAllowedTools("mcp__db__lookup", "mcp__web__lookup"),
	)
	results := func() map[string]string {
		req, ok := env.api.LastRequest()
		if !ok {
			t.Fatal("no model request")
		}
		got := map[string]string{}
		for _, b := range req.ToolResults() {
			v := b.ContentText()
			if b.IsError {
				v = "error: " + v
			}
			got[b.ToolUseID] = v
		}
		return got
	}
	if r := run(t, s, "first"); r == nil || r.IsError {
		t.Fatalf("first result %+v", r)
	}
	if diff := cmp.Diff(map[string]string{"toolu_db1": `{"value":"value-of-k1"}`, "toolu_web1": `{"value":"remote-h1"}`}, results()); diff != "" {
		t.Fatalf("tool results before the second initialize (-want +got):\n%s", diff)
	}

	// PreToolUse is an event the session had no hook for: the CLI must be told with a new initialize.
	var scoped recorder[*shared.PreToolUseHookInput]
	if err := s.RegisterScoped(testCtx(t), "watch-db", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "mcp__db__lookup", Handler: scoped.handler(nil)}}}); err != nil {
		t.Fatalf("RegisterScoped: %v", err)
	}

	if r := run(t, s, "second"); r == nil || r.IsError {
		t.Fatalf("second result %+v", r)
	}
	want := map[string]string{ // the request holds the whole conversation's tool results
		"toolu_db1": `{"value":"value-of-k1"}`, "toolu_web1": `{"value":"remote-h1"}`,
		"toolu_db2": `{"value":"value-of-k2"}`, "toolu_web2": `{"value":"remote-h2"}`,
	}
	if diff := cmp.Diff(want, results()); diff != "" {
		t.Errorf("tool results after the second initialize (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"lookup:k1", "lookup:k2", "web:h1", "web:h2"}, sortedCopy(ran.all())); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
	if got := scoped.all(); len(got) != 1 || got[0].ToolUseID != "toolu_db2" {
		t.Errorf("the scoped PreToolUse hook saw %d calls (%v), want toolu_db2 only: the second initialize was not applied", len(got), got)
	}

	st, err := s.MCPStatus(testCtx(t))
	if err != nil {
		t.Fatalf("MCPStatus: %v", err)
	}
	status := map[string]string{}
	for _, x := range st {
		status[x.Name] = x.Status
	}
	if diff := cmp.Diff(map[string]string{"db": "connected", "web": "connected"}, status); diff != "" {
		t.Errorf("MCPStatus after the second initialize (-want +got):\n%s", diff)
	}
}

// The same through WithSubagentHooks: the subagent's SubagentStart registers a PreToolUse scope,
// which makes the session send a second initialize mid-turn; the subagent and, after it, the main
// agent still call the in-process tool, whose Go handler runs each time and whose results reach
// the model.
func TestE2EMCPServersSurviveSubagentReinitialize(t *testing.T) {
	t.Parallel()
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
		all := ""
		for _, m := range r.Messages {
			all += textOf(m)
		}
		if strings.Contains(textOf(r.Messages[0]), "SUBAGENT-PROMPT") {
			if strings.Contains(all, "tool_result:toolu_s1") {
				return claudetest.TextReply("sub done")
			}
			return claudetest.ToolReply("toolu_s1", "mcp__db__lookup", map[string]any{"key": "ks"})
		}
		switch {
		case strings.Contains(all, "tool_result:toolu_03"):
			return claudetest.TextReply("done")
		case strings.Contains(all, "tool_result:toolu_02"):
			return claudetest.ToolReply("toolu_03", "mcp__db__lookup", map[string]any{"key": "k2"})
		case strings.Contains(all, "tool_result:toolu_01"):
			return claudetest.ToolReply("toolu_02", "Agent", map[string]any{"description": "probe", "prompt": "SUBAGENT-PROMPT look a key up",
				"subagent_type": "general-purpose", "run_in_background": false})
		}
		return claudetest.ToolReply("toolu_01", "mcp__db__lookup", map[string]any{"key": "k1"})
	})
	var ran records[string]
	var scopedSaw records[string]
	s := env.session(t,
		v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))),
		v2.WithAllowedTools("mcp__db__lookup"),
		v2.WithSubagentHooks(func(*shared.SubagentStartHookInput) shared.Hooks {
			return shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "mcp__db__lookup", Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
				scopedSaw.add(in.ToolUseID)
				return nil, nil
			})}}}
		}),
	)
	msgs, res := query(t, s, "go")
	if res.Result != "done" {
		t.Fatalf("result %q", res.Result)
	}
	if diff := cmp.Diff([]string{"lookup:k1", "lookup:k2", "lookup:ks"}, sortedCopy(ran.all())); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
	trs := toolResults(msgs)
	for id, want := range map[string]string{"toolu_01": "value-of-k1", "toolu_s1": "value-of-ks", "toolu_03": "value-of-k2"} {
		if tr := trs[id]; !strings.Contains(tr.ContentText(), want) {
			t.Errorf("tool result of %s %q, want %q", id, tr.ContentText(), want)
		}
	}
	if diff := cmp.Diff([]string{"toolu_s1"}, scopedSaw.all()); diff != "" {
		t.Errorf("the subagent's scoped hook saw (-want +got):\n%s", diff)
	}
}
