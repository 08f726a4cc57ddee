// Command mcpstdio is a small MCP server on stdio for the SDK's tests of external MCP servers
// (claude/v2): its one tool, env, answers with the value of the environment variable it is asked
// for, which shows that the env the SDK gave the server reached it. Its one resource,
// ui://mcpstdio/panel (the only scheme the CLI's mcp_read_resource reads), is "<p>PANEL</p>".
package main

import (
	"context"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type envIn struct {
	Name string `json:"name" jsonschema:"the variable's name"`
}

type envOut struct {
	Value string `json:"value"`
}

func main() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcpstdio", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "env", Description: "read an environment variable"}, func(_ context.Context, _ *mcp.CallToolRequest, in envIn) (*mcp.CallToolResult, envOut, error) {
		return nil, envOut{Value: os.Getenv(in.Name)}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "ui://mcpstdio/panel", Name: "panel", MIMEType: "text/html"}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, MIMEType: "text/html", Text: "<p>PANEL</p>"}}}, nil
	})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
