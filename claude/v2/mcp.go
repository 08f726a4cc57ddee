package v2

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// MCP servers: in-process servers (WithMCPServer) run in this Go process and are reached by the
// CLI through mcp_message control requests; external servers (WithMCPStdioServer,
// WithMCPSSEServer, WithMCPHTTPServer) are run or reached by the CLI itself. Both kinds are
// delivered in the initialize request, never on the command line: the env of a stdio server and
// the headers of a remote one (often credentials) stay out of the CLI's argv, which every user of
// the machine can read. Their tools are named mcp__<server>__<tool> and go through the same
// hooks, permission callback and observers as the CLI's own tools.

// MCPServerConfig is an external MCP server for the CLI to run or connect to: *MCPStdioServer,
// *MCPSSEServer or *MCPHTTPServer.
type MCPServerConfig interface {
	mcpServerConfig() // the CLI's config entry, as JSON
}

// MCPStdioServer is an MCP server the CLI starts as a child process and speaks to on its stdin
// and stdout.
type MCPStdioServer struct {
	// Command is the program (required).
	Command string `json:"command"`
	// Args are its arguments (they do appear in the server's own argv).
	Args []string `json:"args,omitempty"`
	// Env is added to the server's environment; it is delivered to the CLI over stdin, never on
	// its command line.
	Env map[string]string `json:"env,omitempty"`
	// Settings are the CLI's settings for the server (mcpsettings.go); Tools is not read for a
	// stdio server.
	Settings MCPServerSettings `json:"-"`
}

// MCPSSEServer is a remote MCP server reached over server-sent events.
type MCPSSEServer struct {
	// URL is the server's endpoint (required).
	URL string `json:"url"`
	// Headers are sent with each request (e.g. Authorization); delivered over stdin.
	Headers map[string]string `json:"headers,omitempty"`
	// Settings are the CLI's settings for the server (mcpsettings.go).
	Settings MCPServerSettings `json:"-"`
}

// MCPHTTPServer is a remote MCP server reached over streamable HTTP.
type MCPHTTPServer struct {
	// URL is the server's endpoint (required).
	URL string `json:"url"`
	// Headers are sent with each request (e.g. Authorization); delivered over stdin.
	Headers map[string]string `json:"headers,omitempty"`
	// Settings are the CLI's settings for the server (mcpsettings.go).
	Settings MCPServerSettings `json:"-"`
}

// MCPInProcessServer is an in-process server for Session.SetMCPServers (at start, use
// WithMCPServer).
type MCPInProcessServer struct {
	// Server is the MCP server (required): mcptools.Server(srv) for an *mcp.Server.
	Server MCPServer
}

// MCPServer is an MCP server running in this process, as a session runs it: package
// claude/mcptools makes one of an *mcp.Server of the official MCP Go SDK (mcptools.Server).
// claude/v2 itself does not import the MCP SDK, so that a program with no in-process server does
// not link it.
type MCPServer interface {
	// NewMCPBridge returns an empty bridge of the kind this server is served by; the session makes
	// one, the first time it has an in-process server, and adds its servers to it.
	NewMCPBridge(logger *slog.Logger) MCPBridge
}

// MCPBridge connects a session's in-process MCP servers (MCPServer) to the CLI: it answers the
// CLI's mcp_message requests and passes the servers' own messages to the CLI. claude/mcptools
// makes it; a session holds one.
type MCPBridge interface {
	// HandleMCP answers one mcp_message of the CLI for server (subprocess.MCPHandler).
	HandleMCP(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error)
	// Attach gives the bridge the function that sends a server's own messages to the CLI (the
	// transport's SendMCP), once the transport runs.
	Attach(send func(ctx context.Context, server string, message jsontext.Value) error)
	// Add connects srv under name; Remove disconnects the server name (its handlers' ctx end) and
	// reports whether it was there.
	Add(name string, srv MCPServer) error
	Remove(name string) bool
	// Manifest returns the server's initialize and first tools/list results, for the CLI's
	// initialize (sdkMcpServerManifests): they spare the CLI those round trips.
	Manifest(ctx context.Context, name string) (initResult, toolsList jsontext.Value, err error)
	// Close disconnects every server, ending their handlers' ctx; Wait waits until their handlers
	// have returned or ctx ends, and then returns an error naming the servers whose handlers
	// still run.
	Close() error
	Wait(ctx context.Context) error
}

func (*MCPInProcessServer) mcpServerConfig() {}
func (*MCPStdioServer) mcpServerConfig()     {}
func (*MCPSSEServer) mcpServerConfig()       {}
func (*MCPHTTPServer) mcpServerConfig()      {}

// mcpServerEntry is one external server as the CLI reads it (one --mcp-config item).
type mcpServerEntry struct {
	Type    string            `json:"type"`
	Name    string            `json:"name,omitempty"` // type sdk
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// The server's settings (mcpsettings.go).
	mcpSettingsEntry `json:",inline"`
}

func entryOf(c MCPServerConfig) (mcpServerEntry, error) {
	switch c := c.(type) {
	case *MCPStdioServer:
		if c == nil || c.Command == "" {
			return mcpServerEntry{}, errors.New("a stdio server needs a Command")
		}
		return withSettings(mcpServerEntry{Type: "stdio", Command: c.Command, Args: c.Args, Env: c.Env}, c.Settings)
	case *MCPSSEServer:
		if c == nil || c.URL == "" {
			return mcpServerEntry{}, errors.New("an SSE server needs a URL")
		}
		return withSettings(mcpServerEntry{Type: "sse", URL: c.URL, Headers: c.Headers}, c.Settings)
	case *MCPHTTPServer:
		if c == nil || c.URL == "" {
			return mcpServerEntry{}, errors.New("an HTTP server needs a URL")
		}
		return withSettings(mcpServerEntry{Type: "http", URL: c.URL, Headers: c.Headers}, c.Settings)
	case *MCPInProcessServer:
		if c == nil || c.Server == nil {
			return mcpServerEntry{}, errors.New("an in-process server needs a Server")
		}
		return mcpServerEntry{Type: "sdk"}, nil
	}
	return mcpServerEntry{}, fmt.Errorf("unknown MCP server config %T", c)
}

// WithMCPStdioServer, WithMCPSSEServer and WithMCPHTTPServer give the agent an external MCP
// server the CLI runs or connects to. Its env or headers are delivered in the initialize request
// on stdin (the CLI is started with --await-initialize), never on the command line.

func withExternal(option, name string, c MCPServerConfig) Option {
	return setOption(option, func(o *config) {
		if o.mcpExternal == nil {
			o.mcpExternal = map[string]MCPServerConfig{}
		}
		o.mcpOrder = append(o.mcpOrder, name)
		o.mcpExternal[name] = c
	})
}

// mcpHost holds a session's in-process servers: their bridge (made with the first server, at
// start or by SetMCPServers), which the transport hands the CLI's mcp_message requests and which
// sends the servers' own messages through the transport once that runs, with no session code in
// between; and what SetMCPServers changes.
type mcpHost struct {
	bridge atomic.Pointer[MCPBridge] // nil until the session has an in-process server
	send   atomic.Pointer[func(context.Context, string, jsontext.Value) error]
	// manifests of the servers given at start, sent in initialize.
	manifests map[string]mcpManifest
	// setMu serializes SetMCPServers (a 1-slot semaphore, so that a call waiting for another
	// still ends with its ctx); dynamic holds the in-process servers it added.
	setMu   chan struct{}
	dynamic map[string]MCPServer
	logger  *slog.Logger
}

// newMCPHost connects the in-process servers given at start (there may be none: servers can be
// added with SetMCPServers).
// It also takes each server's manifest (its initialize and first tools/list results) for
// initialize's sdkMcpServerManifests, which spares the CLI those round trips at start; a server
// whose manifest cannot be taken is left to the CLI's own handshake.
func newMCPHost(ctx context.Context, servers map[string]MCPServer, logger *slog.Logger) (*mcpHost, error) {
	h := &mcpHost{logger: logger, setMu: make(chan struct{}, 1)}
	for _, n := range slices.Sorted(maps.Keys(servers)) {
		b := h.bridgeFor(servers[n])
		if err := b.Add(n, servers[n]); err != nil {
			return nil, fmt.Errorf("v2: %w", err)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(servers)) {
		in, tools, err := h.current().Manifest(ctx, n)
		if err != nil {
			logger.Warn("v2: MCP server manifest not taken; the CLI will do the handshake", "server", n, "error", err)
			continue
		}
		if h.manifests == nil {
			h.manifests = map[string]mcpManifest{}
		}
		h.manifests[n] = mcpManifest{InitializeResult: in, ToolsListResult: tools}
	}
	return h, nil
}

// current returns the bridge, or nil before the first in-process server.
func (h *mcpHost) current() MCPBridge {
	if b := h.bridge.Load(); b != nil {
		return *b
	}
	return nil
}

// bridgeFor returns the bridge, made by srv if there is none yet (and attached to the transport if
// it runs). Only the goroutine of CreateSession or of SetMCPServers (setMu) calls it.
func (h *mcpHost) bridgeFor(srv MCPServer) MCPBridge {
	if b := h.current(); b != nil {
		return b
	}
	b := srv.NewMCPBridge(h.logger)
	if send := h.send.Load(); send != nil {
		b.Attach(*send)
	}
	h.bridge.Store(&b)
	return b
}

// HandleMCP answers one mcp_message of the CLI through the bridge (subprocess.MCPHandler). Before
// the session has an in-process server, a message gets a JSON-RPC error answer (method not found),
// as the bridge gives for a server it does not hold: the CLI's MCP client reads it as that server's
// failure, never as silence.
func (h *mcpHost) HandleMCP(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error) {
	b := h.current()
	if b == nil {
		return noServerAnswer(server, message)
	}
	return b.HandleMCP(ctx, server, message)
}

// noServerAnswer is the JSON-RPC error answer to message, for a session with no in-process MCP
// server: code -32601 (method not found), the request's id (null when it has none).
func noServerAnswer(server string, message jsontext.Value) (jsontext.Value, error) {
	var req struct {
		ID jsontext.Value `json:"id"`
	}
	if json.Unmarshal(message, &req) != nil || len(req.ID) == 0 {
		req.ID = jsontext.Value("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	return json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      jsontext.Value `json:"id"`
		Error   rpcError       `json:"error"`
	}{"2.0", req.ID, rpcError{-32601, fmt.Sprintf("v2: no in-process MCP server of that name: %q (this session has none)", server)}})
}

// mcpManifest is one entry of initialize's sdkMcpServerManifests.
type mcpManifest struct {
	InitializeResult jsontext.Value `json:"initializeResult"`
	ToolsListResult  jsontext.Value `json:"toolsListResult,omitempty"`
}

// ErrMCPHandlerRunning is in Close's error when an in-process MCP tool handler (or another MCP
// method handler) had not returned by the end of Close's grace period although its ctx had ended:
// Close returned without it, the handler's result is dropped, and its goroutine runs on until the
// handler returns. Fix the handler so that it returns when its ctx ends.
var ErrMCPHandlerRunning = errors.New("v2: an in-process MCP handler still runs after its ctx ended")

// close closes the servers' connections, ending their handlers' ctx, and waits at most grace for
// the handlers to return (a handler that ignores its ctx is not waited for longer: see
// ErrMCPHandlerRunning).
func (h *mcpHost) close(grace time.Duration) error {
	if h == nil {
		return nil
	}
	b := h.current()
	if b == nil {
		return nil
	}
	b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := b.Wait(ctx); err != nil {
		h.logger.Error("v2: in-process MCP handlers ignore their ctx; Close returns without them", "error", err, "grace", grace)
		return fmt.Errorf("%w: %v, %v after Close began; their results are dropped", ErrMCPHandlerRunning, err, grace)
	}
	return nil
}

// mcpHandler returns the session's MCP handler for the transport.
func (s *Session) mcpHandler() subprocess.MCPHandler {
	if s.mcp == nil {
		return nil
	}
	return s.o.checkPromptTool(s.mcp) // guardprompttool.go
}

// attachMCP connects the in-process servers' own messages to t, the transport now running.
func (s *Session) attachMCP(t *subprocess.Transport) {
	if s.mcp == nil {
		return
	}
	send := t.SendMCP
	s.mcp.send.Store(&send)
	if b := s.mcp.current(); b != nil {
		b.Attach(send)
	}
}

// MCPSetResult is the CLI's answer to SetMCPServers.
type MCPSetResult struct {
	// Added and Removed are the server names the set added and removed.
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// Errors holds, by server name, why a server could not be added.
	Errors map[string]string `json:"errors"`
}

// setServerEntries returns the entries of SetMCPServers's request for servers: theirs, named,
// and the in-process servers of the options, which the CLI counts in the set it replaces (they
// stay). A server without a name or with the name of one of the options' is an error.
func (o *config) setServerEntries(servers map[string]MCPServerConfig) (map[string]mcpServerEntry, error) {
	entries := make(map[string]mcpServerEntry, len(servers)+len(o.mcpInProcess))
	for n, c := range servers {
		if n == "" {
			return nil, errors.New("v2: an MCP server needs a name")
		}
		if slices.Contains(o.mcpOrder, n) {
			return nil, fmt.Errorf("v2: MCP server %q was given at start; SetMCPServers manages the others", n)
		}
		e, err := entryOf(c)
		if err != nil {
			return nil, fmt.Errorf("v2: MCP server %q: %w", n, err)
		}
		if e.Type == "sdk" {
			e.Name = n
		}
		entries[n] = e
	}
	for n := range o.mcpInProcess {
		entries[n] = mcpServerEntry{Type: "sdk", Name: n}
	}
	return entries, nil
}

// SetMCPServers replaces the session's set of servers added at run time (initially empty; the
// servers of the options stay, whatever the set) with servers, by name: in-process ones
// (*MCPInProcessServer) and external ones (*MCPStdioServer, *MCPSSEServer, *MCPHTTPServer). It
// is the CLI's mcp_set_servers request: external entries, env and headers included, travel on
// stdin. A server it adds is callable from the next model request on; one it removes is
// disconnected (an in-process server's handlers' ctx end). Names must not be those of the
// options' servers.
func (s *Session) SetMCPServers(ctx context.Context, servers map[string]MCPServerConfig) (*MCPSetResult, error) {
	h := s.mcp
	select {
	case h.setMu <- struct{}{}:
		defer func() { <-h.setMu }()
	case <-ctx.Done():
		return nil, fmt.Errorf("v2: mcp_set_servers: waiting for another SetMCPServers: %w", context.Cause(ctx))
	}
	entries, err := s.o.setServerEntries(servers)
	if err != nil {
		return nil, err
	}
	// Connect the new in-process servers first: the CLI talks to them before it answers.
	next := map[string]MCPServer{}
	var added []string
	for n, c := range servers {
		ip, ok := c.(*MCPInProcessServer)
		if !ok {
			continue
		}
		next[n] = ip.Server
		b := h.bridgeFor(ip.Server)
		if old, had := h.dynamic[n]; had && old == ip.Server {
			continue
		} else if had {
			b.Remove(n) // the same name for another server: reconnect
		}
		if err := b.Add(n, ip.Server); err != nil {
			for _, a := range added {
				b.Remove(a)
			}
			return nil, fmt.Errorf("v2: %w", err)
		}
		added = append(added, n)
	}
	raw, err := s.t.Request(ctx, mcpSetServersRequest{Servers: entries})
	if err != nil {
		for _, a := range added {
			h.current().Remove(a)
		}
		return nil, fmt.Errorf("v2: mcp_set_servers: %w", err)
	}
	for n := range h.dynamic {
		if _, keep := next[n]; !keep {
			h.current().Remove(n)
		}
	}
	h.dynamic = next
	var res MCPSetResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("v2: mcp_set_servers answer: %w", err)
	}
	return &res, nil
}

// MCPServerStatus is one MCP server's state, as the CLI reports it (MCPStatus).
type MCPServerStatus struct {
	// Name is the server's name.
	Name string `json:"name"`
	// Status is "connected", "failed", "needs-auth", "pending" or "disabled".
	Status string `json:"status"`
	// ServerInfo is the server's name and version (when connected).
	ServerInfo *MCPServerInfo `json:"serverInfo,omitempty"`
	// Error says why the server failed (status "failed").
	Error string `json:"error,omitempty"`
	// Scope is where the server was configured ("user", "project", "dynamic", ...), if the CLI says.
	Scope string `json:"scope,omitempty"`
	// Tools are the server's tools (when connected).
	Tools []MCPToolInfo `json:"tools,omitempty"`
}

// MCPToolInfo is one tool of an MCP server, as the CLI reports it.
type MCPToolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// MCPServerInfo is the name and version an MCP server reports.
type MCPServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// MCPStatus returns the state of every MCP server of the session (the CLI's mcp_status):
// in-process, external, and those of the CLI's own settings.
func (s *Session) MCPStatus(ctx context.Context) ([]MCPServerStatus, error) {
	raw, err := s.t.Request(ctx, mcpStatusRequest{})
	if err != nil {
		return nil, fmt.Errorf("v2: mcp_status: %w", err)
	}
	var a struct {
		MCPServers []MCPServerStatus `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &a, json.RejectUnknownMembers(false)); err != nil {
		return nil, fmt.Errorf("v2: mcp_status answer: %w", err)
	}
	return a.MCPServers, nil
}
