// Package mcptools gives a session tools that run in this Go process: MCP servers built with the
// official MCP Go SDK (github.com/modelcontextprotocol/go-sdk/mcp), served to the CLI through its
// mcp_message control requests.
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "orders", Version: "1"}, nil)
//	mcp.AddTool(srv, &mcp.Tool{Name: "find"}, find)
//	s, err := v2.CreateSession(ctx, v2.WithMCPServer("orders", mcptools.Server(srv)),
//		v2.WithAllowedTools("mcp__orders__find"))
//
// It is a package of its own so that a program without in-process tools does not link the MCP
// SDK: claude/v2 sees an in-process server only through its v2.MCPServer and v2.MCPBridge
// interfaces.
package mcptools

import (
	"context"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/internal/mcpbridge"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Server returns srv as an in-process server of a session: give it to v2.WithMCPServer, or, on a
// running session, to Session.SetMCPServers as a *v2.MCPInProcessServer. The same srv may serve
// several sessions; each connects it once, through the MCP SDK's in-memory transport. A nil srv
// is an error at CreateSession (or SetMCPServers).
func Server(srv *mcp.Server) v2.MCPServer {
	if srv == nil {
		return nil
	}
	return server{srv}
}

// server is an *mcp.Server as a v2.MCPServer.
type server struct{ srv *mcp.Server }

// NewMCPBridge returns an empty bridge of in-process servers (claude/internal/mcpbridge).
func (server) NewMCPBridge(logger *slog.Logger) v2.MCPBridge {
	b, _ := mcpbridge.New(nil, nil, logger) // no server yet: it cannot fail
	return bridge{b}
}

// bridge is mcpbridge's Bridge as a v2.MCPBridge.
type bridge struct{ *mcpbridge.Bridge }

// Add connects srv, a server that Server made, under name.
func (b bridge) Add(name string, srv v2.MCPServer) error {
	s, ok := srv.(server)
	if !ok {
		return fmt.Errorf("mcptools: server %q is a %T, not one of mcptools.Server", name, srv)
	}
	return b.Bridge.Add(name, s.srv)
}

// Attach gives the bridge the function that sends the servers' own messages to the CLI.
func (b bridge) Attach(send func(ctx context.Context, server string, message jsontext.Value) error) {
	b.Bridge.Attach(send)
}

// WithMeta sets m's keys in t.Meta, the _meta the CLI reads of an MCP tool (other keys are kept),
// and returns t: mcp.AddTool(srv, mcptools.WithMeta(&mcp.Tool{...}, v2.MCPToolMeta{AlwaysLoad:
// true}), h).
func WithMeta(t *mcp.Tool, m v2.MCPToolMeta) *mcp.Tool {
	if t.Meta == nil && (m.AlwaysLoad || m.SearchHint != "") {
		t.Meta = mcp.Meta{}
	}
	if m.AlwaysLoad {
		t.Meta["anthropic/alwaysLoad"] = true
	}
	if m.SearchHint != "" {
		t.Meta["anthropic/searchHint"] = m.SearchHint
	}
	return t
}
