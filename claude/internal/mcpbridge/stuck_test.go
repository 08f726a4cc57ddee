package mcpbridge

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stuckServer has echo and stuck: stuck signals started, then ignores its ctx and returns only
// when release is closed (a handler that misbehaves, but ends when the test is over).
func stuckServer(started chan<- string, release <-chan struct{}) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{Echo: in.Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "stuck"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		started <- in.Text
		<-release
		return nil, echoOut{Echo: "too late"}, nil
	})
	return srv
}

const initializeMsg = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`

func initialize(t *testing.T, b *Bridge, server string) {
	t.Helper()
	call(t, b, server, initializeMsg)
	call(t, b, server, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStuckHandlerHoldsNothing: a tool handler that ignores its ctx never holds up the bridge.
// An interrupted call returns at once; a reconnect of its server (Bridge.fresh, under the
// bridge's lock) returns and every server still answers; Remove and Close return while such
// handlers run, and the calls waiting for them return ErrClosed. Before the fix, the reconnect
// waited for the handler under the bridge's lock (and so did Remove and Close): synctest
// reported the deadlock.
func TestStuckHandlerHoldsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan string, 4)
		release := make(chan struct{})
		defer close(release)
		b, err := New(map[string]*mcp.Server{"a": stuckServer(started, release), "b": stuckServer(started, release)}, func(context.Context, string, jsontext.Value) error { return nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		initialize(t, b, "a")
		initialize(t, b, "b")

		// An interrupted call of a: Handle returns with the ctx's error.
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := b.HandleMCP(ctx, "a", jsontext.Value(toolCall(1, "stuck", "interrupted")))
			done <- err
		}()
		<-started
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("interrupted call: Handle = %v, want context.Canceled", err)
		}

		// The CLI reconnects a (mcp_set_servers): the new session answers, and so does b.
		initialize(t, b, "a")
		for _, s := range []string{"a", "b"} {
			if m := call(t, b, s, toolCall(2, "echo", s)); m["error"] != nil {
				t.Errorf("server %s after a's reconnect: %v", s, m)
			}
		}

		// Remove b while a call of b is stuck: Remove returns, the call gets ErrClosed.
		go func() {
			_, err := b.HandleMCP(t.Context(), "b", jsontext.Value(toolCall(3, "stuck", "removed")))
			done <- err
		}()
		<-started
		if !b.Remove("b") {
			t.Fatal("Remove(b) = false")
		}
		if err := <-done; !errors.Is(err, ErrClosed) {
			t.Errorf("call of a removed server: Handle = %v, want ErrClosed", err)
		}

		// Close while a call of a is stuck: Close returns, the call gets ErrClosed.
		go func() {
			_, err := b.HandleMCP(t.Context(), "a", jsontext.Value(toolCall(4, "stuck", "closed")))
			done <- err
		}()
		<-started
		b.Close()
		if err := <-done; !errors.Is(err, ErrClosed) {
			t.Errorf("call at Close: Handle = %v, want ErrClosed", err)
		}
	})
}

// TestWaitNamesStuckServers: Wait returns when its ctx ends, naming the servers whose handlers
// still run; once they return, Wait returns nil and no goroutine of the bridge is left.
func TestWaitNamesStuckServers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan string, 2)
		release := make(chan struct{})
		b, err := New(map[string]*mcp.Server{"a": stuckServer(started, release), "b": stuckServer(started, release)}, func(context.Context, string, jsontext.Value) error { return nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		initialize(t, b, "a")
		initialize(t, b, "b")
		go b.HandleMCP(t.Context(), "a", jsontext.Value(toolCall(1, "stuck", "x")))
		<-started
		b.Close()

		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		err = b.Wait(ctx)
		var stuck *HandlersRunningError
		if !errors.As(err, &stuck) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Wait = %v, want a *HandlersRunningError for DeadlineExceeded", err)
		}
		if diff := cmp.Diff([]string{"a"}, stuck.Servers); diff != "" {
			t.Errorf("stuck servers (-want +got):\n%s", diff)
		}

		close(release)
		if err := b.Wait(t.Context()); err != nil {
			t.Errorf("Wait after the handler returned = %v", err)
		}
		synctest.Wait() // every goroutine of the bubble (the bridge's, the MCP SDK's) has ended or is durably blocked
	})
}
