package mcptools_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

func TestWithMeta(t *testing.T) {
	tests := []struct {
		name string
		meta v2.MCPToolMeta
		have mcp.Meta
		want mcp.Meta
	}{
		{"none", v2.MCPToolMeta{}, nil, nil},
		{"always load", v2.MCPToolMeta{AlwaysLoad: true}, nil, mcp.Meta{"anthropic/alwaysLoad": true}},
		{"hint, other keys kept", v2.MCPToolMeta{SearchHint: "zebra"}, mcp.Meta{"x": 1}, mcp.Meta{"x": 1, "anthropic/searchHint": "zebra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &mcp.Tool{Name: "t", Meta: tt.have}
			if got := mcptools.WithMeta(tool, tt.meta); got != tool {
				t.Fatal("WithMeta returned another tool")
			}
			if diff := cmp.Diff(tt.want, tool.Meta); diff != "" {
				t.Errorf("Meta (-want +got):\n%s", diff)
			}
		})
	}
}

// A nil *mcp.Server is a nil v2.MCPServer, which CreateSession refuses by name.
func TestServerOfNil(t *testing.T) {
	if s := mcptools.Server(nil); s != nil {
		t.Errorf("Server(nil) = %#v, want nil", s)
	}
}
