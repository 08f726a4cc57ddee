package v2_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// stuckMCPServer has echo, and stuck: stuck reports its server on started, then ignores its ctx
// until release is closed (a misbehaving handler that ends once the test is over).
func stuckMCPServer(name string, started chan<- string, release <-chan struct{}) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		return nil, lookupOut{Value: name + "-echo-" + in.Key}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "stuck"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		started <- name
		<-release
		return nil, lookupOut{Value: "too late"}, nil
	})
	return srv
}

// within runs f and fails the test if it has not returned after a bound so generous that it
// only catches a hang.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s did not return: it hangs", what)
		panic("unreachable")
	}
}

// TestE2EStuckMCPToolHoldsNothing: an in-process MCP tool whose handler ignores its ctx, on the
// real CLI. After an interrupted stuck call, SetMCPServers (the CLI reconnects the servers)
// returns and a tool of another server still answers in the next turn; SetMCPServers(nil)
// returns while a tool of the server it removes is stuck; Close returns within its grace
// period while a tool is stuck, with ErrMCPHandlerRunning. Before the fix the reconnect waited
// for the stuck handler under the bridge's lock, and Remove and Close waited for it forever.
func TestE2EStuckMCPToolHoldsNothing(t *testing.T) {
	t.Parallel()
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
		var last []claudetest.Block
		for _, m := range r.Messages {
			if m.Role == "user" {
				last = m.Content
			}
		}
		if len(last) == 0 || last[len(last)-1].Type == "tool_result" {
			return claudetest.TextReply("done")
		}
		for _, b := range slices.Backward(last) {
			if server, tool, ok := strings.Cut(b.Text, " "); b.Type == "text" && ok && (tool == "stuck" || tool == "echo") {
				return claudetest.ToolReply(fmt.Sprintf("toolu_%d", r.Index), "mcp__"+server+"__"+tool, map[string]any{"key": "k"})
			}
		}
		return claudetest.TextReply("done")
	})
	started := make(chan string, 4)
	release := make(chan struct{})
	defer close(release) // after Close: the handlers end, and no goroutine is left
	late := stuckMCPServer("late", started, release)
	s, err := env.create(t, v2.WithMCPServer("db", mcptools.Server(stuckMCPServer("db", started, release))),
		v2.WithAllowedTools("mcp__db__stuck", "mcp__db__echo", "mcp__late__stuck", "mcp__late__echo"),
		v2.WithCloseGrace(time.Second), v2.WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	wait := func(what string) string {
		t.Helper()
		return within(t, what, func() string { return <-started })
	}
	turn := make(chan error, 1)

	// 1. An interrupted stuck call.
	go func() { _, err := s.Run(testCtx(t), "db stuck"); turn <- err }()
	if got := wait("the first stuck call"); got != "db" {
		t.Fatalf("started %q, want db", got)
	}
	if err := s.Interrupt(testCtx(t)); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	within(t, "the interrupted turn", func() error { return <-turn })

	// 2. A server-set change (the CLI reconnects every in-process server), then a tool call.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := within(t, "SetMCPServers(late)", func() error {
		_, err := s.SetMCPServers(ctx, map[string]v2.MCPServerConfig{"late": &v2.MCPInProcessServer{Server: mcptools.Server(late)}})
		return err
	}), error(nil); err != nil {
		t.Fatalf("SetMCPServers(late): %v", err)
	}
	for _, server := range []string{"late", "db"} {
		results := within(t, server+"'s echo turn", func() string {
			ms, _ := query(t, s, server+" echo")
			var text strings.Builder
			for _, b := range toolResults(ms) {
				fmt.Fprintf(&text, "%s %v; ", b.ContentText(), b.IsError)
			}
			return text.String()
		})
		if !strings.Contains(results, server+"-echo-k") {
			t.Errorf("%s's echo tool did not answer after the reconnect: %s", server, results)
		}
	}

	// 3. SetMCPServers(nil) while a tool of late is stuck.
	go func() { _, err := s.Run(testCtx(t), "late stuck"); turn <- err }()
	if got := wait("late's stuck call"); got != "late" {
		t.Fatalf("started %q, want late", got)
	}
	if err := within(t, "SetMCPServers(nil)", func() error { _, err := s.SetMCPServers(ctx, nil); return err }); err != nil {
		t.Errorf("SetMCPServers(nil): %v", err)
	}
	if err := s.Interrupt(testCtx(t)); err != nil {
		t.Logf("Interrupt: %v (the turn may have ended)", err)
	}
	within(t, "late's stuck turn", func() error { return <-turn })

	// 4. Close while a tool of db is stuck.
	go func() { _, err := s.Run(testCtx(t), "db stuck"); turn <- err }()
	if got := wait("db's second stuck call"); got != "db" {
		t.Fatalf("started %q, want db", got)
	}
	err = within(t, "Close", s.Close)
	if !errors.Is(err, v2.ErrMCPHandlerRunning) || !strings.Contains(err.Error(), "db") {
		t.Errorf("Close = %v, want ErrMCPHandlerRunning naming db", err)
	}
	within(t, "the turn at Close", func() error { return <-turn })
}
