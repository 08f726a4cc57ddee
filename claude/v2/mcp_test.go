package v2_test

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Invalid MCP server options fail CreateSession before any CLI starts.
func TestMCPOptionsValidate(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	tests := []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"empty name", []v2.Option{v2.WithMCPServer("", mcptools.Server(srv))}, "needs a name"},
		{"nil server", []v2.Option{v2.WithMCPServer("a", mcptools.Server(nil))}, `"a" is nil`},
		{"name twice", []v2.Option{v2.WithMCPServer("a", mcptools.Server(srv)), v2.WithMCPStdioServer("a", v2.MCPStdioServer{Command: "x"})}, `"a" is given twice`},
		{"stdio without command", []v2.Option{v2.WithMCPStdioServer("a", v2.MCPStdioServer{})}, "needs a Command"},
		{"http without url", []v2.Option{v2.WithMCPHTTPServer("a", v2.MCPHTTPServer{})}, "needs a URL"},
		{"sse without url", []v2.Option{v2.WithMCPSSEServer("a", v2.MCPSSEServer{})}, "needs a URL"},
		{"external with continue", []v2.Option{v2.WithMCPStdioServer("a", v2.MCPStdioServer{Command: "x"}), v2.WithContinue()}, "WithContinue"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]v2.Option{v2.WithCLIPath("/nonexistent/claude")}, tc.opts...)
			s, err := v2.CreateSession(context.Background(), opts...)
			if err == nil {
				s.Close()
				t.Fatal("CreateSession succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}
