package v2_test

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// An in-process MCP server (WithMCPServer) cannot ask the user for input: the CLI (2.1.330 to
// 2.1.332) declares no elicitation capability on its client of an SDK server, whether it takes
// the SDK's manifest or does its own handshake, and answers a server's elicitation/create with
// "method not found" (tried with a manifest that declared the capability). The tool gets the
// MCP SDK's error and WithElicitation is not called. When this test fails, a newer CLI
// supports it: declare the capability in claude/internal/mcpbridge's manifest handshake and make this
// test expect the answer (docs/OPTIONS.md, onElicitation).
func TestRealCLI_InProcessServerCannotElicit(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_ask", "mcp__asker__ask", map[string]any{"question": "What is your name?"}),
			claudetest.TextReply("done"),
		}
	})
	called := false
	s := env.session(t, v2.WithMCPServer("asker", mcptools.Server(newAskServer())), v2.WithAllowedTools("mcp__asker__ask"),
		v2.WithElicitation(func(context.Context, *v2.ElicitationRequest) (v2.ElicitationResult, error) {
			called = true
			return v2.ElicitationResult{Action: v2.ElicitationAccept, Content: map[string]any{"name": "Ada"}}, nil
		}))
	run(t, s, "ask me")
	req, _ := env.api.LastRequest()
	b, ok := req.LastToolResult()
	if !ok || !b.IsError || !strings.Contains(b.ContentText(), "client does not support elicitation") || called {
		t.Errorf("tool result %q (error %v), callback called %v: want the MCP SDK's \"client does not support elicitation\" and no call", b.ContentText(), b.IsError, called)
	}
}
