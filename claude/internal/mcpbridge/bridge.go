// Package mcpbridge connects in-process MCP servers, built with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk), to the CLI's mcp_message control requests.
//
// Each server is connected once per session (Server.Connect) through a transport of the
// bridge's own, conn: an mcp.Connection that hands jsonrpc.Message values over a channel, so
// nothing is encoded or decoded between the bridge and the server. A JSON-RPC message the CLI
// sends for a server (HandleMCP) is decoded once and handed to the server's reader; the server's
// reply to a request comes back through the connection's Write, which hands it to the waiting
// HandleMCP by its id; HandleMCP encodes it as the mcp_message answer (mcp_response). Everything else
// the server writes (its notifications, and its own requests such as elicitation) goes on a
// channel to the Sender, which carries it to the CLI as an mcp_message of the SDK.
//
// Goroutines: the bridge starts one per connection, the forwarder of the server's own messages,
// which ends when the connection closes; the MCP SDK runs its own (a reader of the connection,
// and one per request in flight), which end when the connection closes and the handlers return.
// Close closes the connections, which cancels every handler in flight (the MCP SDK cancels its
// handlers' ctx when its connection ends), and waits for the forwarders.
//
// Nothing waits for a handler: closing a connection (Close, Remove, a reconnect) ends its
// handlers' ctx and returns at once, and a call whose handler has not answered is answered with
// an error; the handler's result, if it ever comes, is dropped. The MCP SDK's ServerSession.Close
// waits for every handler, so it runs on a goroutine of its own per closed connection, the
// closer, which ends when the last handler of that connection returns; Wait waits for the
// closers until its ctx ends. A handler that ignores its ctx keeps its own goroutine, its MCP
// SDK goroutines and its connection's closer until it returns: nothing else of the bridge waits
// for it.
//
// A panicking handler is recovered into an error result by a receiving middleware on the
// server (recoverPanics); it acts only on the bridge's connections and logs through the logger
// of the session whose request panicked. The bridge installs it on a server that does not have
// it yet: the middleware marks every connection it sees, and the bridge looks at the mark when
// the server has answered the connection's first initialize (every MCP request passes the
// server's middleware chain, and a connection takes no other call before initialize). A
// server shared by many sessions gets it once (two sessions initializing a new server at the
// same moment may both add it: the inner one recovers, the outer one then has nothing to do).
package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"

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

// ErrClosed is returned by HandleMCP once the bridge is closed.
var ErrClosed = errors.New("mcpbridge: closed")

// maxQueued bounds the server messages waiting for the Sender; a full queue makes the server wait.
const maxQueued = 256

// Bridge holds the connections to the in-process servers of one session.
type Bridge struct {
	logger *slog.Logger
	ctx    context.Context // ends on Close: the servers' sessions and the Sender's calls
	cancel context.CancelFunc

	// send is the Sender (New's, or Attach's), nil until there is one.
	send atomic.Pointer[Sender]

	mu      sync.Mutex
	servers map[string]*conn
	shut    []*conn        // connections closed, whose closer has not been seen to end (Wait)
	wg      sync.WaitGroup // the forwarders
	once    sync.Once
}

// conn is one connection of the bridge to a server: the mcp.Transport and mcp.Connection the
// server is connected with (Server.Connect), and the bridge's state of it.
type conn struct {
	name    string
	srv     *mcp.Server
	logger  *slog.Logger
	session *mcp.ServerSession // set once Connect has returned

	in     chan jsonrpc.Message // the CLI's messages, taken by the server's reader (Read)
	out    chan jsonrpc.Message // the server's own messages, for the forwarder
	closed chan struct{}        // closed by Close: Read, Write and HandleMCP's waits end
	close1 sync.Once
	ended  chan struct{} // closed by the closer once the server session has ended (see shut)
	shut1  sync.Once

	mu      sync.Mutex                            // guards pending
	pending map[jsonrpc.ID]chan *jsonrpc.Response // calls of the CLI waiting for their reply

	// initialized: an MCP initialize was delivered on this connection (see fresh).
	initialized atomic.Bool
	// guarded: recoverPanics saw a request of this connection, so the server has it.
	guarded atomic.Bool
}

// connKey is the context key under which a server's handlers find their bridge connection
// (recoverPanics): the ctx the bridge connects a server with carries it, and the MCP SDK derives
// every request's ctx from that one.
type connKey struct{}

var (
	_ mcp.Transport  = (*conn)(nil)
	_ mcp.Connection = (*conn)(nil)
)

// Connect implements mcp.Transport: the connection is c itself.
func (c *conn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// Read implements mcp.Connection: the server's reader takes the CLI's next message.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.closed:
		return nil, mcp.ErrConnectionClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements mcp.Connection: a reply goes to the HandleMCP waiting for it, the server's own
// messages to the forwarder (waiting while maxQueued of them are queued).
func (c *conn) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Response); ok {
		c.mu.Lock()
		ch := c.pending[r.ID]
		delete(c.pending, r.ID)
		c.mu.Unlock()
		if ch == nil {
			c.logger.Debug("mcpbridge: a reply nobody waits for", "server", c.name, "id", r.ID.Raw())
			return nil
		}
		ch <- r // buffered: each waiter gets one reply
		return nil
	}
	select {
	case c.out <- m:
		return nil
	case <-c.closed:
		return mcp.ErrConnectionClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close implements mcp.Connection. It may be called many times.
func (c *conn) Close() error {
	c.close1.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: the connection has none.
func (c *conn) SessionID() string { return "" }

// put hands one message of the CLI to the server's reader.
func (c *conn) put(ctx context.Context, m jsonrpc.Message) error {
	select {
	case c.in <- m:
		return nil
	case <-c.closed:
		return ErrClosed
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// shutLocked closes the connection (its handlers' ctx end) and starts its closer, which closes
// the server's session of it: that waits for the session's handlers, so it never runs on the
// caller's goroutine. b.mu is held.
func (b *Bridge) shutLocked(c *conn) {
	c.Close()
	c.shut1.Do(func() {
		b.shut = append(b.shut, c)
		go func() { // the closer: it ends when the last handler of the connection returns
			defer close(c.ended)
			c.session.Close()
		}()
	})
}

// New connects servers (by name) and returns the bridge. send carries the servers' own messages
// to the CLI; it may be nil, for a bridge made before the transport it serves: Attach gives it
// the transport's then (until that, a server's own message is dropped and logged). A nil logger
// means slog.Default().
func New(servers map[string]*mcp.Server, send Sender, logger *slog.Logger) (*Bridge, error) {
	if logger == nil {
		logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Bridge{logger: logger, ctx: ctx, cancel: cancel, servers: map[string]*conn{}}
	if send != nil {
		b.Attach(send)
	}
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
	c, err := b.connectLocked(name, srv)
	if err != nil {
		return err
	}
	b.servers[name] = c
	return nil
}

// connectLocked opens a new connection to srv and starts its forwarder. b.mu is held.
func (b *Bridge) connectLocked(name string, srv *mcp.Server) (*conn, error) {
	c := &conn{
		name: name, srv: srv, logger: b.logger,
		in: make(chan jsonrpc.Message), out: make(chan jsonrpc.Message, maxQueued), closed: make(chan struct{}),
		ended:   make(chan struct{}),
		pending: map[jsonrpc.ID]chan *jsonrpc.Response{},
	}
	ss, err := srv.Connect(context.WithValue(b.ctx, connKey{}, c), c, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: connecting server %q: %w", name, err)
	}
	c.session = ss
	b.wg.Go(func() { b.forward(c) }) // the forwarder: it ends when the connection closes
	return c, nil
}

// fresh returns the connection an MCP initialize of the CLI goes to. Each initialize starts a new
// MCP session of the CLI's client (it reconnects a server, e.g. after mcp_set_servers): once a
// connection has had one, the server gets a new connection and the old one is closed (its
// handlers' ctx end), as when a client disconnects.
func (b *Bridge) fresh(c *conn) (*conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.servers[c.name] != c {
		return nil, ErrClosed // removed, or already replaced
	}
	if !c.initialized.Swap(true) {
		return c, nil
	}
	n, err := b.connectLocked(c.name, c.srv)
	if err != nil {
		return nil, err
	}
	n.initialized.Store(true)
	b.servers[c.name] = n
	b.shutLocked(c) // never waits: a handler of the old session may ignore its ctx
	return n, nil
}

// guard installs recoverPanics on c's server unless the server's answer to c's initialize
// passed it (see the package doc).
func (b *Bridge) guard(c *conn) {
	if !c.guarded.Load() {
		c.srv.AddReceivingMiddleware(recoverPanics)
		c.guarded.Store(true)
	}
}

// Remove closes the connection of the server named name (its handlers' ctx end) and forgets it.
// It reports whether the bridge had it. It does not wait for the handlers (see Wait).
func (b *Bridge) Remove(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.servers[name]
	if c == nil {
		return false
	}
	delete(b.servers, name)
	b.shutLocked(c)
	return true
}

func (b *Bridge) server(name string) *conn {
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

// Attach makes send the Sender of the servers' own messages from now on: the transport's, which
// starts after the bridge (the servers' manifests go into its initialize request). The transport
// and the bridge then talk directly: mcp_message requests to HandleMCP, server messages to send.
func (b *Bridge) Attach(send Sender) { b.send.Store(&send) }

// sendToCLI hands one of a server's own messages to the Sender.
func (b *Bridge) sendToCLI(server string, data jsontext.Value) error {
	send := b.send.Load()
	if send == nil {
		// Before the transport runs there is no CLI to tell (a server only speaks after the
		// CLI's initialize).
		return errors.New("mcpbridge: the CLI is not running yet")
	}
	return (*send)(b.ctx, server, data)
}

// forward hands the server's own messages to the Sender, in order, until the connection closes.
func (b *Bridge) forward(c *conn) {
	for {
		var m jsonrpc.Message
		select {
		case m = <-c.out:
		case <-c.closed:
			return
		}
		data, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			b.logger.Warn("mcpbridge: encoding a server message", "server", c.name, "error", err)
			continue
		}
		if err := b.sendToCLI(c.name, data); err != nil && b.ctx.Err() == nil {
			b.logger.Warn("mcpbridge: sending a server message to the CLI", "server", c.name, "error", err)
		}
	}
}

// HandleMCP delivers one JSON-RPC message of the CLI to the server named name and returns the
// mcp_response: for a request, the server's reply; for a notification or a reply to the server,
// an empty result. A message the bridge cannot deliver (unknown server, not JSON-RPC, an id
// already in flight) is answered with a JSON-RPC error response naming the problem, never dropped.
// When ctx ends before the reply (the CLI cancelled the request, or the session closes) the
// server is told with notifications/cancelled, which cancels the handler's ctx, and HandleMCP
// returns ctx's error.
func (b *Bridge) HandleMCP(ctx context.Context, name string, message jsontext.Value) (jsontext.Value, error) {
	c := b.server(name)
	if c == nil {
		return errorResponse(idOf(message), jsonrpc.CodeMethodNotFound, fmt.Sprintf("%v: %q (this session has: %v)", ErrUnknownServer, name, b.Names())), nil
	}
	msg, err := decode(message)
	if err != nil {
		return errorResponse(idOf(message), jsonrpc.CodeInvalidRequest, "mcpbridge: not a JSON-RPC message: "+err.Error()), nil
	}
	req, isReq := msg.(*jsonrpc.Request)
	if isReq {
		b.logger.Debug("mcpbridge: message of the CLI", "server", name, "method", req.Method, "call", req.IsCall())
	}
	initialize := isReq && req.Method == "initialize"
	if initialize {
		if c, err = b.fresh(c); err != nil {
			return nil, err
		}
	}
	if !isReq || !req.IsCall() {
		// A notification, or the CLI's reply to a request of the server: nothing comes back.
		if err := c.put(ctx, msg); err != nil {
			return nil, fmt.Errorf("mcpbridge: server %q: %w", name, err)
		}
		return emptyResult, nil
	}
	ch := make(chan *jsonrpc.Response, 1)
	c.mu.Lock()
	if c.pending[req.ID] != nil {
		c.mu.Unlock()
		return errorResponse(req.ID.Raw(), jsonrpc.CodeInvalidRequest, fmt.Sprintf("mcpbridge: request id %v is already in flight for server %q", req.ID.Raw(), name)), nil
	}
	c.pending[req.ID] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, req.ID)
		c.mu.Unlock()
	}
	if err := c.put(ctx, req); err != nil {
		forget()
		return nil, fmt.Errorf("mcpbridge: server %q: %w", name, err)
	}
	select {
	case r := <-ch:
		if initialize {
			b.guard(c)
		}
		data, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return errorResponse(req.ID.Raw(), jsonrpc.CodeInternalError, "mcpbridge: encoding the reply: "+err.Error()), nil
		}
		return data, nil
	case <-ctx.Done():
		forget()
		b.cancelCall(c, req.ID)
		return nil, context.Cause(ctx)
	case <-c.closed:
		forget()
		return nil, ErrClosed
	}
}

// cancelCall tells the server the CLI no longer waits for call id: the MCP SDK cancels the
// handler's ctx. It does not wait long: a connection that does not take it is closing.
func (b *Bridge) cancelCall(c *conn, id jsonrpc.ID) {
	params, err := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "cancelled by the CLI"})
	if err != nil {
		return
	}
	n := &jsonrpc.Request{Method: "notifications/cancelled", Params: params}
	if err := c.put(b.ctx, n); err != nil {
		b.logger.Debug("mcpbridge: telling the server of a cancel", "server", c.name, "error", err)
	}
}
