package subprocess

import (
	"context"
	"errors"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/internal/mcpbridge"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpFunc adapts a function to MCPHandler.
type mcpFunc func(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error)

func (f mcpFunc) HandleMCP(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error) {
	return f(ctx, server, message)
}

func mcpLine(id, server string, message any) string {
	req := map[string]any{"subtype": "mcp_message", "message": message}
	if server != "" {
		req["server_name"] = server
	}
	return jsonLine(map[string]any{"type": "control_request", "request_id": id, "request": req})
}

// An mcp_message is handed to Config.MCP and answered with its reply under mcp_response; a
// handler error, a request the SDK cannot read, and a transport without MCP get error answers.
func TestMCPMessageAnswers(t *testing.T) {
	t.Parallel()
	h := mcpFunc(func(_ context.Context, server string, msg jsontext.Value) (jsontext.Value, error) {
		if server == "bad" {
			return nil, errors.New("broken")
		}
		return jsontext.Value(`{"jsonrpc":"2.0","id":1,"result":{"server":"` + server + `"}}`), nil
	})
	ping := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "ping"}
	tests := []struct {
		name string
		cfg  Config
		line string
		want string
	}{
		{"reply", Config{MCP: h}, mcpLine("m1", "calc", ping),
			`{"type":"control_response","response":{"subtype":"success","request_id":"m1","response":{"mcp_response":{"jsonrpc":"2.0","id":1,"result":{"server":"calc"}}}}}`},
		{"handler error", Config{MCP: h}, mcpLine("m2", "bad", ping),
			`{"type":"control_response","response":{"subtype":"error","request_id":"m2","error":"in-process MCP server bad: broken"}}`},
		{"no server_name", Config{MCP: h}, mcpLine("m3", "", ping),
			`{"type":"control_response","response":{"subtype":"error","request_id":"m3","error":"mcp_message without server_name and message"}}`},
		{"no MCP", Config{}, mcpLine("m4", "calc", ping),
			`{"type":"control_response","response":{"subtype":"error","request_id":"m4","error":"no in-process MCP server is registered with the SDK (mcp_message)"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := startFake(t, tc.cfg, script("out "+tc.line, "read"))
			if diff := cmp.Diff(decodeJSON(t, tc.want), nextEcho(t, tr)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// A slow mcp_message holds up neither the reader nor a hook: the hook request that comes after it
// is answered while the tool still runs. The CLI's cancel ends the tool's ctx, and its answer is
// never written.
func TestMCPMessageSlowAndCancelled(t *testing.T) {
	t.Parallel()
	started, ended := make(chan struct{}), make(chan error, 1)
	h := mcpFunc(func(ctx context.Context, _ string, _ jsontext.Value) (jsontext.Value, error) {
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
		return jsontext.Value(`{"jsonrpc":"2.0","id":1,"result":{}}`), nil
	})
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("ok", func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }),
	}})
	tr := startFake(t, Config{MCP: h, Hooks: x}, script(
		"out "+mcpLine("m1", "calc", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
		"out "+hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "ok")),
		"read",
		"out "+cancelLine("m1"),
		"echo-until-eof",
	))
	if got := nextEcho(t, tr); gjsonString(got, "request_id") != "h1" {
		t.Fatalf("first answer %v, want the hook's (h1)", got)
	}
	<-started
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("tool ctx ended with %v, want context.Canceled", err)
	}
	tr.Close()
	msgs, _ := drain(t, tr)
	for _, m := range msgs {
		if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "echo" {
			t.Errorf("the cancelled mcp_message was answered: %s", r.Raw)
		}
	}
}

func gjsonString(m map[string]any, key string) string {
	r, _ := m["response"].(map[string]any)
	s, _ := r[key].(string)
	return s
}

// With a real bridge: malformed traffic (an unknown server, a message that is not JSON-RPC) gets
// a JSON-RPC error under mcp_response that names the problem, and the transport lives on.
func TestMCPBridgeMalformedTraffic(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1"}, nil)
	b, err := mcpbridge.New(map[string]*mcp.Server{"calc": srv}, func(context.Context, string, jsontext.Value) error { return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tr := startFake(t, Config{MCP: mcpFunc(b.HandleMCP)}, script(
		"out "+mcpLine("m1", "nope", map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
		"read",
		"out "+mcpLine("m2", "calc", map[string]any{"foo": "bar"}),
		"read",
		"out "+mcpLine("m3", "calc", "not an object"),
		"read",
		"out "+mcpLine("m4", "calc", map[string]any{"jsonrpc": "2.0", "id": 4, "method": "ping"}),
		"read",
	))
	type answer struct {
		ID      string
		Code    float64
		Message string
		Result  any
	}
	var got []answer
	for range 4 {
		e := nextEcho(t, tr)
		r := e["response"].(map[string]any)
		mr, _ := r["response"].(map[string]any)["mcp_response"].(map[string]any)
		a := answer{ID: r["request_id"].(string), Result: mr["result"]}
		if er, ok := mr["error"].(map[string]any); ok {
			a.Code = er["code"].(float64)
			a.Message = er["message"].(string)
		}
		got = append(got, a)
	}
	want := []answer{
		{"m1", -32601, `mcpbridge: no in-process MCP server of that name: "nope" (this session has: [calc])`, nil},
		{"m2", -32600, "", nil},
		{"m3", -32600, "", nil},
		{"m4", 0, "", map[string]any{}},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b string) bool { return a == "" || b == "" || a == b })); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// SendMCP writes an mcp_message control request of the SDK and returns once the CLI acknowledged it.
func TestSendMCP(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("read", "respond success"))
	msg := jsontext.Value(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	ctx, cancel := context.WithCancel(t.Context())
	first := make(chan error, 1)
	go func() { first <- tr.SendMCP(ctx, "calc", msg) }() // echoed, never acknowledged
	got := nextEcho(t, tr)
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Errorf("unacknowledged SendMCP = %v, want context.Canceled", err)
	}
	req, _ := got["request"].(map[string]any)
	want := map[string]any{"subtype": "mcp_message", "server_name": "calc", "message": map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}
	if diff := cmp.Diff(want, req); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if err := tr.SendMCP(t.Context(), "calc", msg); err != nil {
		t.Errorf("acknowledged SendMCP: %v", err)
	}
}
