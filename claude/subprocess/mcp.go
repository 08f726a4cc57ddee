package subprocess

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// In-process MCP servers: the CLI's mcp_message requests are handed to Config.MCP, each on a
// goroutine of its own, started at once (a tool runs for milliseconds or more, and its MCP server
// answers from goroutines of its own: serving it on the reader would stop the reading for nothing;
// a slow tool never holds up the reader, a hook, or another tool), and
// answered with {"mcp_response": <the server's JSON-RPC reply>}. The CLI's control_cancel_request
// and Close end the request's ctx.

// MCPHandler serves the CLI's mcp_message requests: one JSON-RPC message for the in-process
// MCP server named server. It returns the JSON-RPC reply to put under mcp_response; an error is
// answered as a control error. When ctx ends (the CLI cancelled, or the transport closes), nobody
// reads the answer.
type MCPHandler interface {
	HandleMCP(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error)
}

// mcpAnswer is the success payload answering an mcp_message.
type mcpAnswer struct {
	MCPResponse jsontext.Value `json:"mcp_response"`
}

// startMCP handles an mcp_message request: it answers a bad one at once, else starts its
// goroutine. It returns nil: nothing is served on the reader.
func (t *Transport) startMCP(m *parser.ControlRequest, times roundTripTimes) (serve func()) {
	refuse := func(reason string) {
		times.answered = times.decoded
		t.answerError(m.RequestID, reason)
		t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
	}
	if t.cfg.MCP == nil {
		refuse("no in-process MCP server is registered with the SDK (mcp_message)")
		return nil
	}
	req := m.MCP // decoded with the line (claude/parser)
	if req == nil || req.ServerName == "" || len(req.Message) == 0 {
		refuse("mcp_message without server_name and message")
		return nil
	}
	ctx, ok := t.reqs.begin(t.ctx, m.RequestID, false)
	if !ok {
		t.logger.Warn("subprocess: duplicate request id refused", "request_id", m.RequestID, "subtype", m.Subtype)
		refuse("duplicate request id " + m.RequestID)
		return nil
	}
	go t.serveMCP(ctx, m.RequestID, req, times) // one goroutine per mcp_message, tracked by t.reqs
	return nil
}

// serveMCP runs one mcp_message and answers it, unless it was cancelled.
func (t *Transport) serveMCP(ctx context.Context, id string, req *parser.MCPMessage, times roundTripTimes) {
	defer t.reqs.done(false)
	reply, err := t.cfg.MCP.HandleMCP(ctx, req.ServerName, req.Message)
	if ctx.Err() != nil || !t.reqs.retire(id) {
		return // the CLI cancelled it, or the transport closed: nobody reads an answer
	}
	if t.cfg.OnRoundTrip != nil {
		times.answered = time.Now()
	}
	if err != nil {
		t.logger.Warn("subprocess: mcp_message failed", "request_id", id, "server", req.ServerName, "error", err)
		t.answerError(id, "in-process MCP server "+req.ServerName+": "+err.Error())
	} else {
		t.answerSuccess(id, mcpAnswer{MCPResponse: reply})
	}
	t.traceRoundTrip(id, "mcp_message", "", times)
}

// SendMCP delivers one JSON-RPC message of the in-process MCP server named server (a
// notification, or a request of the server) to the CLI as an mcp_message control request, and
// waits for the CLI's acknowledgement (at most Config.RequestTimeout).
func (t *Transport) SendMCP(ctx context.Context, server string, message jsontext.Value) error {
	_, err := t.Request(ctx, mcpMessageRequest{ServerName: server, Message: message})
	return err
}

// mcpMessageRequest is an mcp_message of the SDK to the CLI: a message of an in-process server.
type mcpMessageRequest struct {
	ServerName string         `json:"server_name"`
	Message    jsontext.Value `json:"message"`
}

func (mcpMessageRequest) ControlSubtype() string { return "mcp_message" }
