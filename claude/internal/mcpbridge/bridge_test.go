package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text"`
}

type echoOut struct {
	Echo string `json:"echo"`
}

// testServer has: echo (returns its input), fail (returns an error), boom (panics), and block
// (signals started, then waits for its ctx to end and reports the end on ended).
func testServer(started chan<- string, ended chan<- error) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{Echo: in.Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{}, errors.New("the database is down")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "boom"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		panic("kaboom")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		started <- in.Text
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, echoOut{}, ctx.Err()
	})
	return srv
}

type sent struct {
	ch chan string
}

func (s *sent) send(_ context.Context, server string, m jsontext.Value) error {
	s.ch <- server + " " + string(m)
	return nil
}

func newBridge(t *testing.T, srv *mcp.Server) (*Bridge, *sent) {
	t.Helper()
	snd := &sent{ch: make(chan string, 16)}
	b, err := New(map[string]*mcp.Server{"calc": srv}, snd.send, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	handshake(t, b)
	return b, snd
}

// handshake does what the CLI does first (initialize, notifications/initialized).
func handshake(t *testing.T, b *Bridge) {
	t.Helper()
	call(t, b, "calc", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`)
	call(t, b, "calc", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func call(t *testing.T, b *Bridge, server, msg string) map[string]any {
	t.Helper()
	resp, err := b.HandleMCP(t.Context(), server, jsontext.Value(msg))
	if err != nil {
		t.Fatalf("Handle(%s): %v", msg, err)
	}
	var m map[string]any
	if err := json.Unmarshal(resp, &m); err != nil {
		t.Fatalf("reply %s: %v", resp, err)
	}
	return m
}

func toolCall(id int, name, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"text":%q}}}`, id, name, text)
}

func TestHandleToolResults(t *testing.T) {
	b, _ := newBridge(t, testServer(nil, nil))
	tests := []struct {
		tool      string
		wantError bool
		wantText  string
	}{
		{"echo", false, `{"echo":"hi"}`},
		{"fail", true, "the database is down"},
		{"boom", true, "the tool panicked: kaboom"},
	}
	for i, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			m := call(t, b, "calc", toolCall(i+1, tc.tool, "hi"))
			res, _ := m["result"].(map[string]any)
			if res == nil {
				t.Fatalf("no result: %v", m)
			}
			isErr, _ := res["isError"].(bool)
			content, _ := res["content"].([]any)
			text := ""
			if len(content) > 0 {
				text, _ = content[0].(map[string]any)["text"].(string)
			}
			if diff := cmp.Diff(struct {
				IsErr bool
				Text  string
			}{tc.wantError, tc.wantText}, struct {
				IsErr bool
				Text  string
			}{isErr, text}); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if m["id"] != float64(i+1) {
				t.Errorf("id = %v, want %d", m["id"], i+1)
			}
		})
	}
	// The session lives on after the panic.
	if m := call(t, b, "calc", toolCall(9, "echo", "again")); m["error"] != nil {
		t.Errorf("after a panic: %v", m)
	}
}

func TestHandleMalformed(t *testing.T) {
	b, _ := newBridge(t, testServer(nil, nil))
	tests := []struct {
		name, server, msg string
		wantCode          float64
		wantID            any
		wantIn            string
	}{
		{"unknown server", "nope", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, -32601, float64(7), `"nope"`},
		{"not JSON-RPC", "calc", `{"hello":1}`, -32600, nil, "not a JSON-RPC message"},
		{"not an object", "calc", `[1,2]`, -32600, nil, "not a JSON-RPC message"},
		{"string id kept", "nope", `{"jsonrpc":"2.0","id":"a","method":"x"}`, -32601, "a", "no in-process MCP server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := call(t, b, tc.server, tc.msg)
			e, _ := m["error"].(map[string]any)
			if e == nil {
				t.Fatalf("no error: %v", m)
			}
			if e["code"] != tc.wantCode || m["id"] != tc.wantID || !strings.Contains(e["message"].(string), tc.wantIn) {
				t.Errorf("got %v, want code %v id %v message containing %q", m, tc.wantCode, tc.wantID, tc.wantIn)
			}
		})
	}
}

// TestParallelCallsOverlap: 10 calls in flight at once all run at the same time (each waits for
// all to have started), so a slow tool never holds up another.
func TestParallelCallsOverlap(t *testing.T) {
	const n = 10
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	var wg sync.WaitGroup
	wg.Add(n)
	mcp.AddTool(srv, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		wg.Done()
		wg.Wait() // returns only when all n handlers run at once
		return nil, echoOut{Echo: in.Text}, nil
	})
	b, _ := newBridge(t, srv)
	var calls sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		calls.Go(func() {
			resp, err := b.HandleMCP(t.Context(), "calc", jsontext.Value(toolCall(100+i, "slow", fmt.Sprint(i))))
			if err == nil && !strings.Contains(string(resp), fmt.Sprintf(`\"echo\":\"%d\"`, i)) {
				err = fmt.Errorf("call %d: reply %s", i, resp)
			}
			errs <- err
		})
	}
	calls.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestCancelReachesHandler: when the CLI cancels the request (Handle's ctx), the handler's ctx
// ends; Close ends the ctx of handlers still running.
func TestCancelReachesHandler(t *testing.T) {
	started, ended := make(chan string, 2), make(chan error, 2)
	b, _ := newBridge(t, testServer(started, ended))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := b.HandleMCP(ctx, "calc", jsontext.Value(toolCall(1, "block", "a")))
		done <- err
	}()
	<-started
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("handler ctx ended with %v, want context.Canceled", err)
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Handle = %v, want context.Canceled", err)
	}

	go func() {
		_, err := b.HandleMCP(t.Context(), "calc", jsontext.Value(toolCall(2, "block", "b")))
		done <- err
	}()
	<-started
	b.Close()
	if err := <-ended; err == nil {
		t.Error("Close did not end the handler's ctx")
	}
	if err := <-done; err == nil {
		t.Error("Handle returned no error after Close")
	}
}

// TestServerMessagesReachSender: a notification of the server (tools/list_changed, after a tool
// is added at run time) is handed to the Sender.
func TestServerMessagesReachSender(t *testing.T) {
	srv := testServer(nil, nil)
	b, snd := newBridge(t, srv)
	_ = b
	mcp.AddTool(srv, &mcp.Tool{Name: "late"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{}, nil
	})
	got := <-snd.ch
	if !strings.HasPrefix(got, "calc ") || !strings.Contains(got, `"notifications/tools/list_changed"`) {
		t.Errorf("sent %s, want calc's tools/list_changed", got)
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	started, ended := make(chan string, 2), make(chan error, 2)
	b, _ := newBridge(t, testServer(started, ended))
	go b.HandleMCP(t.Context(), "calc", jsontext.Value(toolCall(5, "block", "a")))
	<-started
	m := call(t, b, "calc", toolCall(5, "echo", "b"))
	if e, _ := m["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "already in flight") {
		t.Errorf("duplicate id: %v", m)
	}
}

// A server added at run time answers; a removed one is unknown, and its running handler's ctx ends.
func TestAddRemove(t *testing.T) {
	started, ended := make(chan string, 1), make(chan error, 1)
	b, _ := newBridge(t, testServer(nil, nil))
	if err := b.Add("late", testServer(started, ended)); err != nil {
		t.Fatal(err)
	}
	if err := b.Add("late", testServer(nil, nil)); err == nil {
		t.Error("adding a name twice did not fail")
	}
	call(t, b, "late", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	call(t, b, "late", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if m := call(t, b, "late", toolCall(1, "echo", "x")); m["error"] != nil {
		t.Fatalf("late server: %v", m)
	}
	if diff := cmp.Diff([]string{"calc", "late"}, b.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.HandleMCP(t.Context(), "late", jsontext.Value(toolCall(2, "block", "x")))
		done <- err
	}()
	<-started
	if !b.Remove("late") {
		t.Fatal("Remove reported no such server")
	}
	if err := <-ended; err == nil {
		t.Error("Remove did not end the handler's ctx")
	}
	if err := <-done; err == nil {
		t.Error("Handle returned no error after Remove")
	}
	m := call(t, b, "late", toolCall(3, "echo", "x"))
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Errorf("removed server answered %v, want an unknown-server error", m)
	}
}

// A second MCP initialize (the CLI reconnects the server) gets a fresh server session: it is
// answered with a result, not "duplicate initialize", tools work after it, and a handler of the
// old session has its ctx ended.
func TestReinitializeReconnects(t *testing.T) {
	started, ended := make(chan string, 1), make(chan error, 1)
	b, _ := newBridge(t, testServer(started, ended))
	done := make(chan error, 1)
	go func() {
		_, err := b.HandleMCP(t.Context(), "calc", jsontext.Value(toolCall(2, "block", "x")))
		done <- err
	}()
	<-started
	m := call(t, b, "calc", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`)
	if m["result"] == nil {
		t.Fatalf("second initialize: %v", m)
	}
	if err := <-ended; err == nil {
		t.Error("the old session's handler ctx did not end")
	}
	<-done
	call(t, b, "calc", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if m := call(t, b, "calc", toolCall(3, "echo", "after")); m["error"] != nil {
		t.Errorf("after reconnect: %v", m)
	}
}

// The CLI's message is read with the SDK's codec: what JSON v2 refuses (a duplicate key, invalid
// UTF-8) and what is not JSON-RPC 2.0 is answered with -32600, and the server never sees it.
func TestHandleRefusesAmbiguousJSON(t *testing.T) {
	var ran []string
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		ran = append(ran, in.Text)
		return nil, echoOut{Echo: in.Text}, nil
	})
	b, _ := newBridge(t, srv)
	tests := []struct{ name, msg string }{
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}`},
		{"duplicate argument", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"}}}`},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"\xff\"}}}"},
		{"version 1.0", `{"jsonrpc":"1.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}`},
		{"no method, no id", `{"jsonrpc":"2.0","result":{}}`},
		{"id of the wrong type", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := call(t, b, "calc", tc.msg)
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"] != float64(-32600) {
				t.Errorf("answer %v, want a -32600 error", m)
			}
		})
	}
	if len(ran) != 0 {
		t.Errorf("the tool ran with %q", ran)
	}
}

// A request of the server (roots/list, asked by a tool) reaches the Sender; the CLI's reply to
// it (a result, or an error) is delivered back to the server, and the tool sees it.
func TestServerRequestAnswered(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "roots"}, func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		//lint:ignore SA1019 any server-to-client request will do; roots/list still works in MCP's deprecation window
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, echoOut{}, err
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return nil, echoOut{Echo: strings.Join(uris, ",")}, nil
	})
	snd := &sent{ch: make(chan string, 16)}
	b, err := New(map[string]*mcp.Server{"calc": srv}, snd.send, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	call(t, b, "calc", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`)
	call(t, b, "calc", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	tests := []struct {
		name, reply string // reply's %s is the id of the server's request
		wantError   bool
		wantText    string
	}{
		{"result", `{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}}`, false, `{"echo":"file:///a,file:///b"}`},
		{"error", `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"no roots here"}}`, true, "no roots here"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan map[string]any, 1)
			go func() {
				resp, err := b.HandleMCP(t.Context(), "calc", jsontext.Value(toolCall(10+i, "roots", "")))
				var m map[string]any
				if err == nil {
					err = json.Unmarshal(resp, &m)
				}
				if err != nil {
					t.Error(err)
				}
				done <- m
			}()
			got := strings.TrimPrefix(<-snd.ch, "calc ")
			var req struct {
				ID     jsontext.Value `json:"id"`
				Method string         `json:"method"`
			}
			if err := json.Unmarshal([]byte(got), &req, json.RejectUnknownMembers(false)); err != nil || req.Method != "roots/list" {
				t.Fatalf("the server sent %s (%v), want roots/list", got, err)
			}
			if m := call(t, b, "calc", fmt.Sprintf(tc.reply, req.ID)); m["error"] != nil {
				t.Fatalf("the reply was answered %v", m)
			}
			m := <-done
			res, _ := m["result"].(map[string]any)
			isErr, _ := res["isError"].(bool)
			text := ""
			if content, _ := res["content"].([]any); len(content) > 0 {
				text, _ = content[0].(map[string]any)["text"].(string)
			}
			if isErr != tc.wantError || !strings.Contains(text, tc.wantText) {
				t.Errorf("tool result %v, want isError %v and text containing %q", m, tc.wantError, tc.wantText)
			}
		})
	}
}

// One server shared by several sessions (bridges, one after another): the recovery
// middleware is installed on it once (a panicking tool's stack holds one recoverPanics frame),
// and a panic is logged through the logger of the session whose call panicked.
func TestRecoverOncePerServerLoggedPerSession(t *testing.T) {
	frames := make(chan int, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "boom"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		pcs := make([]uintptr, 256)
		fs := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
		n := 0
		for f, more := fs.Next(); ; f, more = fs.Next() {
			if strings.Contains(f.Function, "mcpbridge.recoverPanics") {
				n++
			}
			if !more {
				break
			}
		}
		frames <- n
		panic("kaboom " + in.Text)
	})
	for i := range 3 {
		var logs strings.Builder
		logger := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
		b, err := New(map[string]*mcp.Server{"calc": srv}, func(context.Context, string, jsontext.Value) error { return nil }, logger)
		if err != nil {
			t.Fatal(err)
		}
		handshake(t, b)
		m := call(t, b, "calc", toolCall(1, "boom", fmt.Sprint(i)))
		if res, _ := m["result"].(map[string]any); res == nil || res["isError"] != true {
			t.Errorf("session %d: %v, want an is_error result", i, m)
		}
		if n := <-frames; n != 1 {
			t.Errorf("session %d: %d recoverPanics frames on the tool's stack, want 1", i, n)
		}
		b.Close()
		if want := fmt.Sprintf("kaboom %d", i); !strings.Contains(logs.String(), want) {
			t.Errorf("session %d's logger has %q, want the panic %q", i, logs.String(), want)
		}
	}
}

// syncWriter serializes writes to w (slog handlers may write from several goroutines).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// decode reads every valid JSON-RPC message as the MCP SDK's jsonrpc.DecodeMessage does (the
// two re-encode alike).
func TestDecodeAsTheSDK(t *testing.T) {
	for _, msg := range []string{
		toolCall(1, "echo", "hi"),
		`{"jsonrpc":"2.0","id":"s-1","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}`,
		`{"jsonrpc":"2.0","id":0,"method":""}`,
		`{"jsonrpc":"2.0","id":4,"result":{"roots":[]}}`,
		`{"jsonrpc":"2.0","id":"r","error":{"code":-32000,"message":"no","data":{"why":1}}}`,
		`{"jsonrpc":"2.0","id":5,"result":{},"extra":true}`,
	} {
		t.Run(msg, func(t *testing.T) {
			want, err := jsonrpc.DecodeMessage([]byte(msg))
			if err != nil {
				t.Fatal(err)
			}
			got, err := decode(jsontext.Value(msg))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			w, _ := jsonrpc.EncodeMessage(want)
			g, err := jsonrpc.EncodeMessage(got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(w), string(g)); diff != "" {
				t.Errorf("re-encoded (-jsonrpc.DecodeMessage +decode):\n%s", diff)
			}
		})
	}
}
