package v2_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// An in-process tool learns which tool_use block its call answers (mcptools.ToolUseID): the CLI
// names it in the tools/call request's _meta. It is the id the PreToolUse hook saw for that
// call, and the id of the tool_result the model gets: what an idempotency key or an audit record
// ties a tool's work to.
func TestE2EInProcessToolUseID(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_first", Name: "mcp__ids__who", Input: map[string]any{"key": "a"}},
				claudetest.ToolUse{ID: "toolu_second", Name: "mcp__ids__who", Input: map[string]any{"key": "b"}},
			),
			claudetest.TextReply("done"),
		}
	})
	var seen records[string]
	srv := mcp.NewServer(&mcp.Implementation{Name: "ids", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "who"}, func(_ context.Context, req *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		id := mcptools.ToolUseID(req)
		seen.add(in.Key + "=" + id)
		return nil, lookupOut{Value: "called as " + id}, nil
	})
	var pre recorder[*shared.PreToolUseHookInput]
	s := env.session(t, v2.WithMCPServer("ids", mcptools.Server(srv)), v2.WithAllowedTools("mcp__ids__who"),
		v2.WithHook(shared.HookEventPreToolUse, "mcp__ids__who", pre.handler(nil)))
	if r := run(t, s, "who are you"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	if diff := cmp.Diff([]string{"a=toolu_first", "b=toolu_second"}, seen.all()); diff != "" {
		t.Errorf("the ids the tool saw, by input (-want +got):\n%s", diff)
	}
	var hooked []string
	for _, in := range pre.all() {
		hooked = append(hooked, in.ToolUseID)
	}
	if diff := cmp.Diff([]string{"toolu_first", "toolu_second"}, hooked); diff != "" {
		t.Errorf("the ids the PreToolUse hook saw (-want +got):\n%s", diff)
	}
	req, _ := env.api.LastRequest()
	got := map[string]string{}
	for _, b := range req.ToolResults() {
		got[b.ToolUseID] = b.ContentText()
	}
	want := map[string]string{"toolu_first": `{"value":"called as toolu_first"}`, "toolu_second": `{"value":"called as toolu_second"}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the tool results the model saw (-want +got):\n%s", diff)
	}
}

// ToolUseID of a request without the CLI's _meta (another client) is "".
func TestToolUseIDWithoutMeta(t *testing.T) {
	for _, req := range []*mcp.CallToolRequest{nil, {}, {Params: &mcp.CallToolParamsRaw{}}, {Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{"claudecode/toolUseId": 7}}}} {
		if id := mcptools.ToolUseID(req); id != "" {
			t.Errorf("ToolUseID(%+v) = %q, want \"\"", req, id)
		}
	}
}
