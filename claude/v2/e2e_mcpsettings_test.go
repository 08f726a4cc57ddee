package v2_test

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// AlwaysLoad puts an MCP server's tools in the model's first request, where the CLI otherwise
// defers them behind ToolSearch: an external stdio server's with Settings.AlwaysLoad, an
// in-process tool's with MCPToolMeta{AlwaysLoad: true}; the same servers' and tools' without it
// are not in the list. A deferred tool's SearchHint is what ToolSearch finds it by.
func TestRealCLI_MCPAlwaysLoad(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_search", "ToolSearch", map[string]any{"query": "zebrafish", "max_results": 5}),
			claudetest.TextReply("done"),
		}
	})
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	noop := func(context.Context, *mcp.CallToolRequest, lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		return nil, lookupOut{}, nil
	}
	mcp.AddTool(srv, mcptools.WithMeta(&mcp.Tool{Name: "loaded", Description: "always there"}, v2.MCPToolMeta{AlwaysLoad: true}), noop)
	mcp.AddTool(srv, mcptools.WithMeta(&mcp.Tool{Name: "deferred", Description: "found by search"}, v2.MCPToolMeta{SearchHint: "zebrafish"}), noop)
	stdio := func(alwaysLoad bool) v2.MCPStdioServer {
		return v2.MCPStdioServer{Command: os.Args[0], Env: map[string]string{elicitServerEnv: "1"}, Settings: v2.MCPServerSettings{AlwaysLoad: alwaysLoad}}
	}
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPStdioServer("ext", stdio(true)), v2.WithMCPStdioServer("plain", stdio(false)))
	run(t, s, "go")
	reqs := env.api.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for tool, want := range map[string]bool{"mcp__db__loaded": true, "mcp__ext__ask": true, "mcp__db__deferred": false, "mcp__plain__ask": false} {
		if got := slices.Contains(reqs[0].Tools, tool); got != want {
			t.Errorf("%s in the first request's tools: %v, want %v (tools %v)", tool, got, want, reqs[0].Tools)
		}
	}
	b, ok := reqs[1].LastToolResult()
	if !ok || !strings.Contains(string(b.Content), "mcp__db__deferred") {
		t.Errorf("ToolSearch for the hint found %s, want mcp__db__deferred", b.Content)
	}
}

// WithMCPServerSettings: Timeout ends a call of an in-process tool that outlives it (its
// handler's ctx ends, the model gets an error result), and an always_deny policy denies a tool
// that WithAllowedTools allows, without its handler running.
func TestRealCLI_MCPServerSettings(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_hang", Name: "mcp__db__hang", Input: map[string]any{"key": "k"}},
				claudetest.ToolUse{ID: "toolu_secret", Name: "mcp__db__secret", Input: map[string]any{"key": "k"}},
			),
			claudetest.TextReply("done"),
		}
	})
	var ran records[string]
	ended := make(chan error, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		<-ctx.Done() // never answers by itself
		ended <- ctx.Err()
		return nil, lookupOut{}, ctx.Err()
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "secret"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add("secret")
		return nil, lookupOut{Value: "the secret"}, nil
	})
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(srv)),
		v2.WithMCPServerSettings("db", v2.MCPServerSettings{Timeout: time.Second, Tools: []v2.MCPToolPolicy{{Name: "secret", Policy: v2.MCPToolAlwaysDeny}}}),
		v2.WithAllowedTools("mcp__db__hang", "mcp__db__secret"))
	msgs, _ := query(t, s, "go")
	results := toolResults(msgs)
	if r := results["toolu_hang"]; !r.IsError || !strings.Contains(strings.ToLower(r.ContentText()), "timed out") {
		t.Errorf("the hanging call's result = %+v, want an error that says it timed out", r)
	}
	select {
	case <-ended:
	case <-time.After(time.Minute): // only catches a hang: the CLI cancels the call on its timeout
		t.Error("the hanging handler's ctx did not end after its call timed out")
	}
	if r := results["toolu_secret"]; !r.IsError || ran.len() != 0 {
		t.Errorf("the always_deny tool: result %+v, ran %v; want an error result and no run", r, ran.all())
	}
}
