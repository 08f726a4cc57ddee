package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// decode reads one JSON-RPC message of the CLI as jsonrpc.DecodeMessage does (a request when it
// has a method, else a response, which needs an id), with the SDK's JSON codec: duplicate keys
// and invalid UTF-8 are refused, as everywhere in the SDK. (jsonrpc.DecodeMessage costs ~23 µs
// and two 32 KiB buffers per message; this ~1 µs.)
func decode(data jsontext.Value) (jsonrpc.Message, error) {
	var w struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Method  *string        `json:"method"`
		Params  jsontext.Value `json:"params"`
		Result  jsontext.Value `json:"result"`
		Error   *struct {
			Code    int64          `json:"code"`
			Message string         `json:"message"`
			Data    jsontext.Value `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &w, json.RejectUnknownMembers(false)); err != nil {
		return nil, err
	}
	if w.JSONRPC != "2.0" {
		return nil, fmt.Errorf("jsonrpc is %q, not \"2.0\"", w.JSONRPC)
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, err
	}
	if w.Method != nil {
		return &jsonrpc.Request{ID: id, Method: *w.Method, Params: []byte(w.Params)}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("neither a method nor an id")
	}
	r := &jsonrpc.Response{ID: id, Result: []byte(w.Result)}
	if w.Error != nil {
		r.Error = &jsonrpc.Error{Code: w.Error.Code, Message: w.Error.Message, Data: []byte(w.Error.Data)}
	}
	return r, nil
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

// recoverPanics is the receiving middleware that recovers a panic of a method handler run for
// a bridge's connection: a tools/call that panics returns an error result (IsError, the panic's
// value as text) that the model sees; any other method returns an error. The panic and its stack
// are logged through the logger of the connection's session. A request of another connection of
// the server (one not made by a bridge) passes untouched.
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		c, _ := ctx.Value(connKey{}).(*conn)
		if c == nil {
			return next(ctx, method, req)
		}
		c.guarded.Store(true)
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			c.logger.Error("mcpbridge: MCP handler panicked", "server", c.name, "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
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
