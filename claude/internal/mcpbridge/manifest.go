package mcpbridge

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ManifestProtocolVersion is the MCP protocol version Manifest initializes a server with: the
// version CLI 2.1.330's MCP client requests (a manifest of another version is not used by the CLI).
const ManifestProtocolVersion = "2025-11-25"

// Manifest initializes the server named name as the CLI's client would (initialize with no
// client capabilities, notifications/initialized, tools/list) and returns the initialize result
// and the first tools/list result, verbatim, for initialize's sdkMcpServerManifests: a CLI that
// takes them does not do these round trips itself. toolsList is nil when the server has no tools
// capability or its listing is paginated. A CLI that does its own handshake anyway (or later
// reconnects) gets a fresh server session (see HandleMCP).
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
	reply, err := b.HandleMCP(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","id":"sdk-manifest-initialize","method":"initialize","params":{"protocolVersion":"`+ManifestProtocolVersion+`","capabilities":{},"clientInfo":{"name":"agent-sdk-go","version":"1"}}}`))
	if err != nil {
		return nil, nil, err
	}
	if initResult, err = result(reply, "initialize"); err != nil {
		return nil, nil, err
	}
	if _, err := b.HandleMCP(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
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
	reply, err = b.HandleMCP(ctx, name, jsontext.Value(`{"jsonrpc":"2.0","id":"sdk-manifest-tools","method":"tools/list"}`))
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
