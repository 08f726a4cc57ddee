package v2_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

type lookupIn struct {
	Key string `json:"key" jsonschema:"the key to look up"`
}

type lookupOut struct {
	Value string `json:"value"`
}

// dbServer is an in-process server "db" with typed tools: lookup answers, fail returns an error,
// boom panics, secret must never run (a hook denies it); ran records the calls that ran.
func dbServer(ran *records[string]) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "lookup", Description: "look a key up"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add("lookup:" + in.Key)
		return nil, lookupOut{Value: "value-of-" + in.Key}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add("fail")
		return nil, lookupOut{}, errors.New("the database is down")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "boom"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add("boom")
		panic("kaboom")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "secret"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add("secret")
		return nil, lookupOut{Value: "the secret"}, nil
	})
	return srv
}

// The model calls the tools of an in-process server: the Go handler runs with the typed input and
// its result reaches the model; an error and a panic become is_error results the model sees (and
// the session lives on); a PreToolUse hook matching mcp__db__secret denies that one tool, whose
// handler never runs.
func TestE2EInProcessMCPTools(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_lookup", Name: "mcp__db__lookup", Input: map[string]any{"key": "k1"}},
				claudetest.ToolUse{ID: "toolu_fail", Name: "mcp__db__fail", Input: map[string]any{"key": "x"}},
				claudetest.ToolUse{ID: "toolu_boom", Name: "mcp__db__boom", Input: map[string]any{"key": "x"}},
				claudetest.ToolUse{ID: "toolu_secret", Name: "mcp__db__secret", Input: map[string]any{"key": "x"}},
			),
			claudetest.TextReply("done"),
			claudetest.ToolReply("toolu_again", "mcp__db__lookup", map[string]any{"key": "k2"}),
			claudetest.TextReply("done again"),
		}
	})
	var ran records[string]
	var pre recorder[*shared.PreToolUseHookInput]
	s := env.session(t,
		v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))),
		v2.WithAllowedTools("mcp__db__lookup", "mcp__db__fail", "mcp__db__boom", "mcp__db__secret"),
		v2.WithHook(shared.HookEventPreToolUse, "mcp__db__secret", pre.handler(func(*shared.PreToolUseHookInput) shared.HookOutput {
			return shared.Deny("secrets stay secret")
		})),
	)
	if r := run(t, s, "use the db"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	req, ok := env.api.LastRequest()
	if !ok {
		t.Fatal("no model request")
	}
	type result struct {
		IsError bool
		Has     string
	}
	want := map[string]result{
		"toolu_lookup": {false, `value-of-k1`},
		"toolu_fail":   {true, "the database is down"},
		"toolu_boom":   {true, "the tool panicked: kaboom"},
		"toolu_secret": {true, "secrets stay secret"},
	}
	got := map[string]result{}
	for _, b := range req.ToolResults() {
		w := want[b.ToolUseID]
		has := ""
		if strings.Contains(b.ContentText(), w.Has) {
			has = w.Has
		} else {
			has = b.ContentText()
		}
		got[b.ToolUseID] = result{b.IsError, has}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool results the model saw (-want +got):\n%s", diff)
	}
	if n := pre.len(); n != 1 || pre.all()[0].ToolName != "mcp__db__secret" {
		t.Errorf("PreToolUse hook ran for %d calls (%v), want once for mcp__db__secret", n, pre.all())
	}
	if got := pre.all(); len(got) > 0 {
		if diff := cmp.Diff(&shared.MCPServer{Name: "db", Source: "sdk"}, got[0].MCPServer); diff != "" {
			t.Errorf("PreToolUse input's mcp_server (-want +got):\n%s", diff)
		}
	}
	// After the panic the session lives on: the next turn calls the server again.
	if r := run(t, s, "again"); r == nil || r.IsError {
		t.Fatalf("second result %+v", r)
	}
	if diff := cmp.Diff([]string{"boom", "fail", "lookup:k1", "lookup:k2"}, sortedCopy(ran.all())); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
}

// Ten parallel calls of a slow read-only in-process tool run at the same time: each handler waits until all
// ten have started (a barrier), which only completes if the SDK runs them concurrently. A
// handler that waited in vain would time out and report it.
func TestE2EInProcessMCPParallelCalls(t *testing.T) {
	t.Parallel()
	const n = 10
	var uses []claudetest.ToolUse
	for i := range n {
		uses = append(uses, claudetest.ToolUse{ID: fmt.Sprintf("toolu_%02d", i), Name: "mcp__db__slow", Input: map[string]any{"key": fmt.Sprint(i)}})
	}
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolsReply(uses...), claudetest.TextReply("done")}
	})
	var mu sync.Mutex
	running, maxRunning := 0, 0
	all := make(chan struct{})
	started := 0
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	// The CLI runs parallel calls of an MCP tool at once only when the tool is annotated read-only
	// (its isConcurrencySafe); others it runs one after the other.
	mcp.AddTool(srv, &mcp.Tool{Name: "slow", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		mu.Lock()
		running++
		maxRunning = max(maxRunning, running)
		if started++; started == n {
			close(all)
		}
		mu.Unlock()
		defer func() {
			mu.Lock()
			running--
			mu.Unlock()
		}()
		select {
		case <-all: // every call has started while this one runs
		case <-time.After(30 * time.Second): // a bound for a broken SDK, not a timing assertion
			return nil, lookupOut{}, errors.New("the other calls never started while this one ran")
		case <-ctx.Done():
			return nil, lookupOut{}, ctx.Err()
		}
		return nil, lookupOut{Value: "v" + in.Key}, nil
	})
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithAllowedTools("mcp__db__slow"))
	if r := run(t, s, "go"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	req, _ := env.api.LastRequest()
	results := req.ToolResults()
	if len(results) != n {
		t.Fatalf("%d tool results, want %d", len(results), n)
	}
	for _, b := range results {
		if b.IsError {
			t.Errorf("%s: %s", b.ToolUseID, b.ContentText())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if maxRunning != n {
		t.Errorf("at most %d handlers ran at once, want %d", maxRunning, n)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// An external stdio MCP server (a Go program the test builds) works, and its env, delivered in
// the initialize request, never appears on the CLI's command line (/proc/PID/cmdline, what ps
// shows every user).
func TestE2EExternalStdioMCPServer(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/cmdline")
	}
	bin := filepath.Join(t.TempDir(), "mcpstdio")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/hookwire/agent-sdk-go/internal/testkit/mcpstdio").CombinedOutput(); err != nil {
		t.Fatalf("building the stdio server: %v\n%s", err, out)
	}
	secret := "s3cret-" + fmt.Sprint(time.Now().UnixNano())
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_env", "mcp__ext__env", map[string]any{"name": "EXT_TOKEN"}),
			claudetest.TextReply("done"),
		}
	})
	s := env.session(t,
		v2.WithMCPStdioServer("ext", v2.MCPStdioServer{Command: bin, Env: map[string]string{"EXT_TOKEN": secret}}),
		v2.WithAllowedTools("mcp__ext__env"),
	)
	pid := s.Info().PID
	if pid == 0 {
		t.Fatal("the CLI reported no pid")
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cmdline), secret) || strings.Contains(string(cmdline), "EXT_TOKEN") {
		t.Errorf("the CLI's command line holds the server's env: %q", cmdline)
	}
	if r := run(t, s, "read the token"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	req, _ := env.api.LastRequest()
	b, ok := req.LastToolResult()
	if !ok || b.IsError || !strings.Contains(b.ContentText(), secret) {
		t.Errorf("tool result %+v (%q), want the server's env value", b, b.ContentText())
	}
}

// External remote MCP servers (streamable HTTP and SSE) get their headers, delivered in the
// initialize request: each test server refuses a request without the right Authorization header,
// and the header's value never appears on the CLI's command line.
func TestE2EExternalRemoteMCPServers(t *testing.T) {
	t.Parallel()
	token := "Bearer tok-" + fmt.Sprint(time.Now().UnixNano())
	var ran records[string]
	var servers remoteServers
	newSrv := func(*http.Request) *mcp.Server {
		srv := servers.add(mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, nil))
		mcp.AddTool(srv, &mcp.Tool{Name: "lookup"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
			ran.add(in.Key)
			return nil, lookupOut{Value: "remote-" + in.Key}, nil
		})
		return srv
	}
	guard := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != token {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	httpSrv := httptest.NewServer(guard(mcp.NewStreamableHTTPHandler(newSrv, nil)))
	t.Cleanup(httpSrv.Close) // after the session's Close (cleanups run last first): the CLI holds streams open
	sseSrv := httptest.NewServer(guard(mcp.NewSSEHandler(newSrv, nil)))
	t.Cleanup(sseSrv.Close)
	t.Cleanup(servers.close) // before the HTTP servers close: their sessions' goroutines end (goleak)

	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_http", Name: "mcp__web__lookup", Input: map[string]any{"key": "h"}},
				claudetest.ToolUse{ID: "toolu_sse", Name: "mcp__events__lookup", Input: map[string]any{"key": "s"}},
			),
			claudetest.TextReply("done"),
		}
	})
	headers := map[string]string{"Authorization": token}
	s := env.session(t,
		v2.WithMCPHTTPServer("web", v2.MCPHTTPServer{URL: httpSrv.URL, Headers: headers}),
		v2.WithMCPSSEServer("events", v2.MCPSSEServer{URL: sseSrv.URL, Headers: headers}),
		v2.WithAllowedTools("mcp__web__lookup", "mcp__events__lookup"),
	)
	if runtime.GOOS == "linux" {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", s.Info().PID))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(cmdline), token) {
			t.Errorf("the CLI's command line holds the server's headers: %q", cmdline)
		}
	}
	if r := run(t, s, "look up"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	req, _ := env.api.LastRequest()
	got := map[string]string{}
	for _, b := range req.ToolResults() {
		got[b.ToolUseID] = b.ContentText()
	}
	want := map[string]string{"toolu_http": `{"value":"remote-h"}`, "toolu_sse": `{"value":"remote-s"}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
}

// A tool handler's ctx ends when the user interrupts the turn (the CLI cancels the call) and when
// the session closes.
func TestE2EInProcessMCPCancel(t *testing.T) {
	t.Parallel()
	// Each prompt ("wait 1", then "wait 2") makes the model call the tool with its key; a
	// message that ends with a tool result ends the turn.
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
		last := r.Messages[len(r.Messages)-1].Content
		if len(last) == 0 || last[len(last)-1].Type == "tool_result" {
			return claudetest.TextReply("done")
		}
		// After the interrupt, the cancelled call's result and "wait 2" come in one message.
		k := "1"
		for _, b := range last {
			if b.Type == "text" && b.Text == "wait 2" {
				k = "2"
			}
		}
		return claudetest.ToolReply(fmt.Sprintf("toolu_%d", r.Index), "mcp__db__wait", map[string]any{"key": k})
	})
	started := make(chan string, 2)
	ended := make(chan string, 2)
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		started <- in.Key
		<-ctx.Done()
		ended <- in.Key
		return nil, lookupOut{}, ctx.Err()
	})
	s, err := env.create(t, v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithAllowedTools("mcp__db__wait"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wait := func(ch chan string, what string) string {
		t.Helper()
		select {
		case k := <-ch:
			return k
		case <-testCtx(t).Done():
			t.Fatalf("timed out waiting for %s", what)
			return ""
		}
	}

	turn := make(chan error, 1)
	go func() { _, err := s.Run(testCtx(t), "wait 1"); turn <- err }()
	if k := wait(started, "the first call"); k != "1" {
		t.Fatalf("started %q", k)
	}
	if err := s.Interrupt(testCtx(t)); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	if k := wait(ended, "the interrupt to end the handler's ctx"); k != "1" {
		t.Errorf("ended %q, want 1", k)
	}
	<-turn

	go func() { _, err := s.Run(testCtx(t), "wait 2"); turn <- err }()
	if k := wait(started, "the second call"); k != "2" {
		t.Fatalf("started %q", k)
	}
	s.Close()
	if k := wait(ended, "Close to end the handler's ctx"); k != "2" {
		t.Errorf("ended %q, want 2", k)
	}
	<-turn
}

// A server added at run time (SetMCPServers, the CLI's mcp_set_servers) is callable in the next
// turn; MCPStatus reports the servers; setting an empty set removes it again.
func TestE2EMCPSetServersAndStatus(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.TextReply("nothing yet"),
			claudetest.ToolReply("toolu_late", "mcp__late__lookup", map[string]any{"key": "k"}),
			claudetest.TextReply("done"),
		}
	})
	var ran records[string]
	late := mcp.NewServer(&mcp.Implementation{Name: "late-server", Version: "2.0"}, nil)
	mcp.AddTool(late, &mcp.Tool{Name: "lookup"}, func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, lookupOut, error) {
		ran.add(in.Key)
		return nil, lookupOut{Value: "late-" + in.Key}, nil
	})
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))), v2.WithAllowedTools("mcp__late__lookup"))
	run(t, s, "first")

	res, err := s.SetMCPServers(testCtx(t), map[string]v2.MCPServerConfig{"late": &v2.MCPInProcessServer{Server: mcptools.Server(late)}})
	if err != nil {
		t.Fatalf("SetMCPServers: %v", err)
	}
	if diff := cmp.Diff(&v2.MCPSetResult{Added: []string{"late"}, Removed: []string{}, Errors: map[string]string{}}, res); diff != "" {
		t.Errorf("SetMCPServers result (-want +got):\n%s", diff)
	}
	if r := run(t, s, "use the new tool"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	req, _ := env.api.LastRequest()
	if b, ok := req.LastToolResult(); !ok || b.IsError || !strings.Contains(b.ContentText(), "late-k") {
		t.Errorf("tool result %+v (%q), want the late server's answer", b, b.ContentText())
	}

	st, err := s.MCPStatus(testCtx(t))
	if err != nil {
		t.Fatalf("MCPStatus: %v", err)
	}
	got := map[string]string{}
	for _, x := range st {
		got[x.Name] = x.Status
		if x.Name == "late" && (x.ServerInfo == nil || x.ServerInfo.Name != "late-server") {
			t.Errorf("late's serverInfo %+v, want late-server", x.ServerInfo)
		}
	}
	if diff := cmp.Diff(map[string]string{"db": "connected", "late": "connected"}, got); diff != "" {
		t.Errorf("MCPStatus (-want +got):\n%s", diff)
	}

	res, err = s.SetMCPServers(testCtx(t), nil)
	if err != nil {
		t.Fatalf("SetMCPServers(nil): %v", err)
	}
	if diff := cmp.Diff([]string{"late"}, res.Removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if _, err := s.SetMCPServers(testCtx(t), map[string]v2.MCPServerConfig{"db": &v2.MCPInProcessServer{Server: mcptools.Server(late)}}); err == nil {
		t.Error("SetMCPServers took the name of a server given at start")
	}
}

// --strict-mcp-config by default: a server of the user's configuration (~/.claude.json) is loaded
// with WithoutStrictMCPConfig and not without it; the session's own servers are there either way.
func TestE2EStrictMCPConfig(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("hi")} })
			cfg := `{"mcpServers":{"user-srv":{"type":"stdio","command":"/bin/true"}}}`
			if err := os.WriteFile(filepath.Join(env.home, ".claude.json"), []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			opts := []v2.Option{v2.WithMCPServer("db", mcptools.Server(dbServer(new(records[string]))))}
			if !strict {
				opts = append(opts, v2.WithoutStrictMCPConfig())
			}
			s := env.session(t, opts...)
			run(t, s, "hello") // the CLI lists its SDK servers once the first turn connected them
			st, err := s.MCPStatus(testCtx(t))
			if err != nil {
				t.Fatalf("MCPStatus: %v", err)
			}
			var names []string
			for _, x := range st {
				names = append(names, x.Name)
			}
			want := []string{"db", "user-srv"}
			if strict {
				want = []string{"db"}
			}
			if diff := cmp.Diff(want, sortedCopy(names)); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
		})
	}
}

// The permission callback sees in-process tools by their full name and input, and its denial
// keeps the handler from running; its allow lets the call through.
func TestE2EInProcessMCPPermissionCallback(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_lookup", Name: "mcp__db__lookup", Input: map[string]any{"key": "ok"}},
				claudetest.ToolUse{ID: "toolu_secret", Name: "mcp__db__secret", Input: map[string]any{"key": "no"}},
			),
			claudetest.TextReply("done"),
		}
	})
	var ran records[string]
	var asked records[string]
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))), v2.WithCanUseTool(func(_ context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		asked.add(req.ToolName + " " + req.Input.String("key"))
		if req.ToolName == "mcp__db__secret" {
			return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "not that one"}, nil
		}
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}))
	if r := run(t, s, "go"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	if diff := cmp.Diff([]string{"mcp__db__lookup ok", "mcp__db__secret no"}, sortedCopy(asked.all())); diff != "" {
		t.Errorf("permission requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"lookup:ok"}, ran.all()); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
}

// The session sends each in-process server's manifest (its initialize and tools/list results) in
// initialize: the CLI parks it and does neither round trip itself, so the server sees one
// initialize and one tools/list (the SDK's), and its tools still work.
func TestE2EInProcessMCPManifest(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_1", "mcp__db__lookup", map[string]any{"key": "m"}),
			claudetest.TextReply("done"),
		}
	})
	var ran, methods records[string]
	srv := dbServer(&ran)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			methods.add(method)
			return next(ctx, method, req)
		}
	})
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithAllowedTools("mcp__db__lookup"))
	var a struct {
		Parked map[string]string `json:"sdk_mcp_manifests_parked"`
	}
	if err := json.Unmarshal(s.Info().Raw, &a); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"db": "parked"}, a.Parked); diff != "" {
		t.Errorf("sdk_mcp_manifests_parked (-want +got):\n%s", diff)
	}
	if r := run(t, s, "go"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	if diff := cmp.Diff([]string{"lookup:m"}, ran.all()); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
	count := map[string]int{}
	for _, m := range methods.all() {
		count[m]++
	}
	if count["initialize"] != 1 || count["tools/list"] != 1 || count["tools/call"] != 1 {
		t.Errorf("the server saw %v, want one initialize, one tools/list, one tools/call", count)
	}
}

// A PreToolUse hook rewrites an in-process tool's input: the Go handler runs with the rewritten,
// typed input.
func TestE2EInProcessMCPHookRewritesInput(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_1", "mcp__db__lookup", map[string]any{"key": "raw"}),
			claudetest.TextReply("done"),
		}
	})
	var ran records[string]
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(dbServer(&ran))), v2.WithAllowedTools("mcp__db__lookup"),
		v2.WithHook(shared.HookEventPreToolUse, "mcp__db__.*", shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			out := in.ToolInput.Clone()
			out["key"] = "rewritten-" + in.ToolInput.String("key")
			return shared.AllowWithInput(out), nil
		})))
	if r := run(t, s, "go"); r == nil || r.IsError {
		t.Fatalf("result %+v", r)
	}
	if diff := cmp.Diff([]string{"lookup:rewritten-raw"}, ran.all()); diff != "" {
		t.Errorf("handlers that ran (-want +got):\n%s", diff)
	}
	req, _ := env.api.LastRequest()
	if b, ok := req.LastToolResult(); !ok || !strings.Contains(b.ContentText(), "value-of-rewritten-raw") {
		t.Errorf("tool result %q, want the rewritten key's value", b.ContentText())
	}
}

// remoteServers are the MCP servers a test's HTTP handler made, one per client session; close
// ends their sessions (the MCP SDK's handlers keep them open until then), so that no goroutine
// of theirs outlives the test.
type remoteServers struct {
	mu   sync.Mutex
	list []*mcp.Server
}

func (r *remoteServers) add(s *mcp.Server) *mcp.Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, s)
	return s
}

func (r *remoteServers) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.list {
		for ss := range s.Sessions() {
			ss.Close()
		}
	}
}
