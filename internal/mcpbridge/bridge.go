// Package mcpbridge connects in-process MCP servers, built with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk), to the CLI's mcp_message control requests.
//
// Each server is connected once, through the MCP SDK's in-memory transport: the bridge holds the
// client end of that connection. A JSON-RPC message the CLI sends for a server (Handle) is written
// to the connection; a request's reply is routed back to Handle by its id and becomes the
// mcp_message answer (mcp_response). Everything else the server writes (its notifications, and
// its own requests such as elicitation) is handed to the Sender, which carries it to the CLI as an
// mcp_message of the SDK.
//
// Goroutines per server: a reader of the connection (it ends when the connection closes) and a
// forwarder of the server's own messages (it ends when the reader has). Close closes the
// connections, which cancels every handler in flight (the MCP SDK cancels its handlers' ctx when
// its connection ends), and waits for the bridge's goroutines.
package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sender carries one of a server's own JSON-RPC messages (a notification, or a request of the
// server) to the CLI. It is called on the server's forwarder goroutine, one message at a time, in
// the order the server wrote them.
type Sender func(ctx context.Context, server string, message jsontext.Value) error

// ErrUnknownServer is the cause of the answer to a message for a server the bridge does not hold.
var ErrUnknownServer = errors.New("mcpbridge: no in-process MCP server of that name")

// ErrClosed is returned by Handle once the bridge is closed.
var ErrClosed = errors.New("mcpbridge: closed")

// maxQueued bounds the server messages waiting for the Sender; a full queue makes the server wait.
const maxQueued = 256

// Bridge holds the connections to the in-process servers of one session.
type Bridge struct {
	logger *slog.Logger
	ctx    context.Context // ends on Close: the servers' sessions and the Sender's calls
	cancel context.CancelFunc

	send Sender

	mu      sync.Mutex
	servers map[string]*server
	wg      sync.WaitGroup // the readers and forwarders
	once    sync.Once
}

// server is the client end of one in-process server's connection.
type server struct {
	name    string
	srv     *mcp.Server
	conn    mcp.Connection
	session *mcp.ServerSession

	mu      sync.Mutex
	pending map[jsonrpc.ID]chan *jsonrpc.Response // calls of the CLI waiting for their reply
	closed  bool                                  // the connection ended: no more replies come
	done    chan struct{}                         // closed when the reader has ended
	// initialized: an MCP initialize was delivered on this connection (see fresh).
	initialized atomic.Bool
}

// New connects servers (by name) and returns the bridge. send carries the servers' own messages
// to the CLI; it must not be nil. A nil logger means slog.Default(). Each server gets a receiving
// middleware that turns a panicking handler into an error result (see RecoverPanics), installed
// once per *mcp.Server whatever the number of sessions it serves.
func New(servers map[string]*mcp.Server, send Sender, logger *slog.Logger) (*Bridge, error) {
	if logger == nil {
		logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Bridge{logger: logger, ctx: ctx, cancel: cancel, send: send, servers: map[string]*server{}}
	for _, name := range sortedNames(servers) {
		if err := b.Add(name, servers[name]); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// Add connects srv as the server named name. It fails for a nil server, a name the bridge
// already has, and after Close.
func (b *Bridge) Add(name string, srv *mcp.Server) error {
	if srv == nil {
		return fmt.Errorf("mcpbridge: server %q is nil", name)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ctx.Err() != nil {
		return ErrClosed
	}
	if b.servers[name] != nil {
		return fmt.Errorf("mcpbridge: server %q is already connected", name)
	}
	installRecover(srv, b.logger)
	s, err := b.connectLocked(name, srv)
	if err != nil {
		return err
	}
	b.servers[name] = s
	return nil
}

// connectLocked opens a new connection to srv and starts its reader and forwarder. b.mu is held.
func (b *Bridge) connectLocked(name string, srv *mcp.Server) (*server, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(b.ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: connecting server %q: %w", name, err)
	}
	conn, err := ct.Connect(b.ctx)
	if err != nil {
		ss.Close()
		return nil, fmt.Errorf("mcpbridge: connecting server %q: %w", name, err)
	}
	s := &server{name: name, srv: srv, conn: conn, session: ss, pending: map[jsonrpc.ID]chan *jsonrpc.Response{}, done: make(chan struct{})}
	out := make(chan jsonrpc.Message, maxQueued)
	b.wg.Add(2)
	go func() { // the reader: it ends when the connection closes
		defer b.wg.Done()
		defer close(out)
		b.read(s, out)
	}()
	go func() { // the forwarder: it ends when the reader has closed out
		defer b.wg.Done()
		b.forward(s, out, b.send)
	}()
	return s, nil
}

// fresh returns the connection an MCP initialize of the CLI goes to. Each initialize starts a new
// MCP session of the CLI's client (it reconnects a server, e.g. after mcp_set_servers): once a
// connection has had one, the server gets a new connection and the old one is closed (its
// handlers' ctx end), as when a client disconnects.
func (b *Bridge) fresh(s *server) (*server, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.servers[s.name] != s {
		return nil, ErrClosed // removed, or already replaced
	}
	if !s.initialized.Swap(true) {
		return s, nil
	}
	n, err := b.connectLocked(s.name, s.srv)
	if err != nil {
		return nil, err
	}
	n.initialized.Store(true)
	b.servers[s.name] = n
	s.conn.Close()
	s.session.Close()
	return n, nil
}

// Remove closes the connection of the server named name (its handlers' ctx end) and forgets it.
// It reports whether the bridge had it.
func (b *Bridge) Remove(name string) bool {
	b.mu.Lock()
	s := b.servers[name]
	delete(b.servers, name)
	b.mu.Unlock()
	if s == nil {
		return false
	}
	s.conn.Close()
	s.session.Close()
	return true
}

func (b *Bridge) server(name string) *server {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.servers[name]
}

func sortedNames(m map[string]*mcp.Server) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Names returns the servers' names, sorted.
func (b *Bridge) Names() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	names := make([]string, 0, len(b.servers))
	for n := range b.servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// read routes what the server writes: replies to the calls waiting in Handle, the rest to out.
func (b *Bridge) read(s *server, out chan<- jsonrpc.Message) {
	defer func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
	}()
	for {
		msg, err := s.conn.Read(b.ctx)
		if err != nil {
			return
		}
		if r, ok := msg.(*jsonrpc.Response); ok {
			s.mu.Lock()
			ch := s.pending[r.ID]
			delete(s.pending, r.ID)
			s.mu.Unlock()
			if ch == nil {
				b.logger.Debug("mcpbridge: a reply nobody waits for", "server", s.name, "id", r.ID.Raw())
				continue
			}
			ch <- r
			continue
		}
		select {
		case out <- msg:
		case <-b.ctx.Done():
			return
		}
	}
}

// forward hands the server's own messages to send, in order.
func (b *Bridge) forward(s *server, in <-chan jsonrpc.Message, send Sender) {
	for msg := range in {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			b.logger.Warn("mcpbridge: encoding a server message", "server", s.name, "error", err)
			continue
		}
		if err := send(b.ctx, s.name, data); err != nil && b.ctx.Err() == nil {
			b.logger.Warn("mcpbridge: sending a server message to the CLI", "server", s.name, "error", err)
		}
	}
}

// Handle delivers one JSON-RPC message of the CLI to the server named name and returns the
// mcp_response: for a request, the server's reply; for a notification or a reply to the server,
// an empty result. A message the bridge cannot deliver (unknown server, not JSON-RPC, an id
// already in flight) is answered with a JSON-RPC error response naming the problem, never dropped.
// When ctx ends before the reply (the CLI cancelled the request, or the session closes) the
// server is told with notifications/cancelled, which cancels the handler's ctx, and Handle
// returns ctx's error.
func (b *Bridge) Handle(ctx context.Context, name string, message jsontext.Value) (jsontext.Value, error) {
	s := b.server(name)
	if s == nil {
		return errorResponse(idOf(message), jsonrpc.CodeMethodNotFound, fmt.Sprintf("%v: %q (this session has: %v)", ErrUnknownServer, name, b.Names())), nil
	}
	msg, err := jsonrpc.DecodeMessage(message)
	if err != nil {
		return errorResponse(idOf(message), jsonrpc.CodeInvalidRequest, "mcpbridge: not a JSON-RPC message: "+err.Error()), nil
	}
	req, isReq := msg.(*jsonrpc.Request)
	if isReq {
		b.logger.Debug("mcpbridge: message of the CLI", "server", name, "method", req.Method, "call", req.IsCall())
	}
	if isReq && req.Method == "initialize" {
		if s, err = b.fresh(s); err != nil {
			return nil, err
		}
	}
	if !isReq || !req.IsCall() {
		// A notification, or the CLI's reply to a request of the server: nothing comes back.
		if err := s.conn.Write(ctx, msg); err != nil {
			return nil, fmt.Errorf("mcpbridge: server %q: %w", name, err)
		}
		return emptyResult, nil
	}
	ch := make(chan *jsonrpc.Response, 1)
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return nil, ErrClosed
	case s.pending[req.ID] != nil:
		s.mu.Unlock()
		return errorResponse(req.ID.Raw(), jsonrpc.CodeInvalidRequest, fmt.Sprintf("mcpbridge: request id %v is already in flight for server %q", req.ID.Raw(), name)), nil
	}
	s.pending[req.ID] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.pending, req.ID)
		s.mu.Unlock()
	}
	if err := s.conn.Write(ctx, req); err != nil {
		forget()
		return nil, fmt.Errorf("mcpbridge: server %q: %w", name, err)
	}
	select {
	case r := <-ch:
		data, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return errorResponse(req.ID.Raw(), jsonrpc.CodeInternalError, "mcpbridge: encoding the reply: "+err.Error()), nil
		}
		return data, nil
	case <-ctx.Done():
		forget()
		b.cancelCall(s, req.ID)
		return nil, context.Cause(ctx)
	case <-s.done:
		forget()
		return nil, ErrClosed
	}
}

// ManifestProtocolVersion is the MCP protocol version Manifest initializes a server with: the
// version CLI 2.1.330's MCP client requests (a manifest of another version is not used by the CLI).
const ManifestProtocolVersion = "2025-11-25"

// Manifest initializes the server named name as the CLI's client would (initialize with no
// client capabilities, notifications/initialized, tools/list) and returns the initialize result
// and the first tools/list result, verbatim, for initialize's sdkMcpServerManifests: a CLI that
// takes them does not do these round trips itself. toolsList is nil when the server has no tools
// capability or its listing is paginated. A CLI that does its own handshake anyway (or later
// reconnects) gets a fresh server session (see Handle).
func (b *Bridge) Manifest(ctx context.Context, name string) (initResult, toolsList jsontext.Value, err error) {
	result := func(reply jsontext.Value, method string) (jsontext.Value, error) {
		var r struct {
			Result jsontext.Value `json:"result"`
			Error  jsontext.Value `json:"error"`
		}
		if err := json.Unmarshal(reply, &r, json.RejectUnknownMembers(false)); err != nil || len(r.Result) == 0 {
			return nil, fmt.Errorf("mcpbridge: server %q: %s failed: %s", name, method, reply)
		}
		return r.Result, nil
	}
	reply, err := b.Handle(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","id":"sdk-manifest-initialize","method":"initialize","params":{"protocolVersion":"`+ManifestProtocolVersion+`","capabilities":{},"clientInfo":{"name":"agent-sdk-go","version":"1"}}}`))
	if err != nil {
		return nil, nil, err
	}
	if initResult, err = result(reply, "initialize"); err != nil {
		return nil, nil, err
	}
	if _, err := b.Handle(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		return nil, nil, err
	}
	var caps struct {
		Capabilities struct {
			Tools jsontext.Value `json:"tools"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(initResult, &caps, json.RejectUnknownMembers(false)) != nil || len(caps.Capabilities.Tools) == 0 {
		return initResult, nil, nil
	}
	reply, err = b.Handle(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","id":"sdk-manifest-tools","method":"tools/list"}`))
	if err != nil {
		return nil, nil, err
	}
	if toolsList, err = result(reply, "tools/list"); err != nil {
		return nil, nil, err
	}
	var page struct {
		NextCursor string `json:"nextCursor"`
	}
	if json.Unmarshal(toolsList, &page, json.RejectUnknownMembers(false)) == nil && page.NextCursor != "" {
		return initResult, nil, nil
	}
	return initResult, toolsList, nil
}

// cancelCall tells the server the CLI no longer waits for call id: the MCP SDK cancels the
// handler's ctx. It does not wait long: a connection that does not take it is closing.
func (b *Bridge) cancelCall(s *server, id jsonrpc.ID) {
	params, err := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "cancelled by the CLI"})
	if err != nil {
		return
	}
	n := &jsonrpc.Request{Method: "notifications/cancelled", Params: params}
	if err := s.conn.Write(b.ctx, n); err != nil {
		b.logger.Debug("mcpbridge: telling the server of a cancel", "server", s.name, "error", err)
	}
}

// Close closes the servers' connections (cancelling their handlers in flight) and waits for the
// bridge's goroutines. It returns nil; calling it again does nothing.
func (b *Bridge) Close() error {
	b.once.Do(func() {
		b.mu.Lock()
		b.cancel()
		servers := b.servers
		b.servers = map[string]*server{}
		b.mu.Unlock()
		for _, s := range servers {
			s.conn.Close()
			s.session.Close()
		}
		b.wg.Wait()
	})
	return nil
}

// emptyResult answers a notification (the shape the official SDKs use).
var emptyResult = jsontext.Value(`{"jsonrpc":"2.0","result":{},"id":0}`)

// idOf reads a message's id, if it has one, for an error answer; nil otherwise.
func idOf(message jsontext.Value) any {
	var m struct {
		ID jsontext.Value `json:"id"`
	}
	if json.Unmarshal(message, &m, json.RejectUnknownMembers(false)) != nil || len(m.ID) == 0 {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	switch id.(type) {
	case string, float64:
		return id
	}
	return nil
}

// errorResponse is a JSON-RPC error response.
func errorResponse(id any, code int64, msg string) jsontext.Value {
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	data, err := json.Marshal(struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      any       `json:"id"`
		Error   wireError `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	if err != nil { // cannot be: every field encodes
		return jsontext.Value(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"mcpbridge: internal error"}}`)
	}
	return data
}

// recovered remembers the servers RecoverPanics was installed on, by weak pointer: a server that
// is no longer used leaves the map when it is collected.
var recovered sync.Map // weak.Pointer[mcp.Server] -> struct{}

func installRecover(srv *mcp.Server, logger *slog.Logger) {
	key := weak.Make(srv)
	if _, loaded := recovered.LoadOrStore(key, struct{}{}); !loaded {
		srv.AddReceivingMiddleware(RecoverPanics(logger))
		runtime.AddCleanup(srv, func(k weak.Pointer[mcp.Server]) { recovered.Delete(k) }, key)
	}
}

// RecoverPanics returns a receiving middleware that recovers a panic of a method handler: a
// tools/call that panics returns an error result (IsError, the panic's value as text) that the
// model sees; any other method returns an error. The panic and its stack are logged.
func RecoverPanics(logger *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				logger.Error("mcpbridge: MCP handler panicked", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if method == "tools/call" {
					res, err = &mcp.CallToolResult{
						IsError: true,
						Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("the tool panicked: %v", p)}},
					}, nil
					return
				}
				res, err = nil, fmt.Errorf("the %s handler panicked: %v", method, p)
			}()
			return next(ctx, method, req)
		}
	}
}
