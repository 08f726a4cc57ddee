package v2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// An AgentDefinition's fields are checked by CreateSession before anything starts.
func TestAgentFieldsValidation(t *testing.T) {
	agent := func(a v2.AgentDefinition) []v2.Option {
		a.Description, a.Prompt = "d", "p"
		return []v2.Option{v2.WithAgents(map[string]v2.AgentDefinition{"a": a})}
	}
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"effort", agent(v2.AgentDefinition{Effort: "extreme"}), `agent "a": unknown Effort "extreme"`},
		{"permission mode", agent(v2.AgentDefinition{PermissionMode: "yolo"}), `unknown PermissionMode "yolo"`},
		{"memory", agent(v2.AgentDefinition{Memory: "team"}), `unknown Memory scope "team"`},
		{"compact window", agent(v2.AgentDefinition{AutoCompactWindow: 5000}), "below the CLI's minimum of 100000"},
		{"negative compact window", agent(v2.AgentDefinition{AutoCompactWindow: -1}), "below the CLI's minimum"},
		{"mcp no name", agent(v2.AgentDefinition{MCPServers: []v2.AgentMCPServer{{}}}), "an MCP server without a Name"},
		{"mcp no command", agent(v2.AgentDefinition{MCPServers: []v2.AgentMCPServer{{Name: "s", Config: &v2.MCPStdioServer{}}}}), `MCP server "s": a stdio server needs a Command`},
		{"mcp in-process", agent(v2.AgentDefinition{MCPServers: []v2.AgentMCPServer{{Name: "s", Config: &v2.MCPInProcessServer{}}}}), "cannot be an agent's own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// AgentDefinition encodes as the CLI's initialize request reads an agent: an MCP server by name
// or as {name: config}; zero fields left out.
func TestAgentDefinitionJSON(t *testing.T) {
	a := v2.AgentDefinition{
		Description: "d", Prompt: "p", Effort: v2.EffortLow, PermissionMode: v2.PermissionModeAcceptEdits,
		Memory: v2.SettingSourceProject, Background: true, InitialPrompt: "go", OmitClaudeMD: true, AutoCompactWindow: 150000,
		MCPServers: []v2.AgentMCPServer{{Name: "shared"}, {Name: "own", Config: &v2.MCPStdioServer{Command: "srv", Args: []string{"-x"}}}},
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(`{"description":"d","prompt":"p","effort":"low","permissionMode":"acceptEdits","memory":"project",
		"background":true,"initialPrompt":"go","omitClaudeMd":true,"autoCompactWindow":150000,
		"mcpServers":["shared",{"own":{"type":"stdio","command":"srv","args":["-x"]}}]}`), &want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
	b, _ = json.Marshal(v2.AgentDefinition{Description: "d", Prompt: "p"})
	if string(b) != `{"description":"d","prompt":"p"}` {
		t.Errorf("zero fields: %s", b)
	}
}
