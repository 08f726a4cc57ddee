package v2_test

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The user-input, declaration and MCP-settings options (elicitation.go, dialog.go,
// declarations.go, mcpsettings.go) are checked by CreateSession before a CLI starts.
func TestSurfaceOptionsValidation(t *testing.T) {
	t.Parallel()
	dialog := func(context.Context, *v2.UserDialogRequest) (v2.UserDialogResult, error) {
		return v2.UserDialogResult{Behavior: v2.DialogCancelled}, nil
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	cases := []struct {
		name   string
		opts   []v2.Option
		option string
	}{
		{"negative input timeout", []v2.Option{v2.WithUserInputTimeout(-time.Second)}, "WithUserInputTimeout"},
		{"dialog without kinds", []v2.Option{v2.WithUserDialog(dialog)}, "WithUserDialog"},
		{"dialog nil callback", []v2.Option{v2.WithUserDialog(nil, v2.DialogRefusalFallback)}, "WithUserDialog"},
		{"dialog kind twice", []v2.Option{v2.WithUserDialog(dialog, "a", "a")}, "WithUserDialog"},
		{"dialog kind blank", []v2.Option{v2.WithUserDialog(dialog, " ")}, "WithUserDialog"},
		{"preview format", []v2.Option{v2.WithQuestionPreviewFormat("pdf")}, "WithQuestionPreviewFormat"},
		{"settings of no server", []v2.Option{v2.WithMCPServerSettings("db", v2.MCPServerSettings{})}, "WithMCPServerSettings"},
		{"timeout under 1s", []v2.Option{v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPServerSettings("db", v2.MCPServerSettings{Timeout: time.Millisecond})}, "WithMCPServerSettings"},
		{"alwaysLoad in-process", []v2.Option{v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPServerSettings("db", v2.MCPServerSettings{AlwaysLoad: true})}, "WithMCPServerSettings"},
		{"always_allow in-process", []v2.Option{v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPServerSettings("db", v2.MCPServerSettings{Tools: []v2.MCPToolPolicy{{Name: "x", Policy: v2.MCPToolAlwaysAllow}}})}, "WithMCPServerSettings"},
		{"unknown policy", []v2.Option{v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPServerSettings("db", v2.MCPServerSettings{Tools: []v2.MCPToolPolicy{{Name: "x", Policy: "maybe"}}})}, "WithMCPServerSettings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v2.CreateSession(context.Background(), append(c.opts, v2.WithCLIPath("/nonexistent/claude"))...)
			var oe *v2.OptionError
			if !errors.As(err, &oe) || oe.Option != c.option {
				t.Errorf("CreateSession: %v, want an *OptionError for %s", err, c.option)
			}
		})
	}
	// An external server's settings are checked too.
	_, err := v2.CreateSession(context.Background(), v2.WithCLIPath("/nonexistent/claude"),
		v2.WithMCPStdioServer("ext", v2.MCPStdioServer{Command: "x", Settings: v2.MCPServerSettings{Tools: []v2.MCPToolPolicy{{Name: "t", Policy: v2.MCPToolAlwaysDeny}}}}))
	if err == nil {
		t.Error("a stdio server with a tool policy (which the CLI does not read) was accepted")
	}
}
