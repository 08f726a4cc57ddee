package v2

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
)

// AgentMCPServer is one MCP server of an AgentDefinition. With Config nil, Name names a server
// the session already has (WithMCPStdioServer and the other external servers, or one of the
// setting sources); with Config, the agent gets a server of its own under Name, which the CLI
// starts when the agent runs and stops after it, and which the main agent never sees. The model
// sees its tools as mcp__<Name>__<tool>. An in-process server (WithMCPServer) cannot be an
// agent's own: give it to the session instead.
type AgentMCPServer struct {
	// Name is the server's name. It must not be empty.
	Name string
	// Config is the agent's own server: *MCPStdioServer, *MCPSSEServer or *MCPHTTPServer.
	// Default (nil): Name is one of the session's servers.
	Config MCPServerConfig
}

// MarshalJSON encodes the server as the CLI reads it: its name, or {name: config}.
func (s AgentMCPServer) MarshalJSON() ([]byte, error) {
	if s.Config == nil {
		return json.Marshal(s.Name)
	}
	e, err := agentServerEntry(s.Config)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]mcpServerEntry{s.Name: e})
}

// agentServerEntry is entryOf for the configs an agent may have.
func agentServerEntry(c MCPServerConfig) (mcpServerEntry, error) {
	if _, ok := c.(*MCPInProcessServer); ok {
		return mcpServerEntry{}, errors.New("an in-process server cannot be an agent's own (CLI 2.1.330 ignores it): give it to the session with WithMCPServer")
	}
	return entryOf(c)
}

// validate checks the fields of an AgentDefinition that the CLI would otherwise reject when it
// reads the initialize request, or ignore.
func (a AgentDefinition) validate() error {
	switch a.Effort {
	case "", EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax:
	default:
		return fmt.Errorf("unknown Effort %q", a.Effort)
	}
	switch a.PermissionMode {
	case "", PermissionModeDefault, PermissionModeAcceptEdits, PermissionModeBypassPermissions,
		PermissionModeDontAsk, PermissionModePlan, PermissionModeAuto:
	default:
		return fmt.Errorf("unknown PermissionMode %q", a.PermissionMode)
	}
	switch a.Memory {
	case "", SettingSourceUser, SettingSourceProject, SettingSourceLocal:
	default:
		return fmt.Errorf("unknown Memory scope %q", a.Memory)
	}
	if a.AutoCompactWindow != 0 && a.AutoCompactWindow < minAutoCompactWindow {
		return fmt.Errorf("AutoCompactWindow %d: below the CLI's minimum of %d", a.AutoCompactWindow, minAutoCompactWindow)
	}
	for _, s := range a.MCPServers {
		if s.Name == "" {
			return errors.New("an MCP server without a Name")
		}
		if s.Config != nil {
			if _, err := agentServerEntry(s.Config); err != nil {
				return fmt.Errorf("MCP server %q: %w", s.Name, err)
			}
		}
	}
	return nil
}

// minAutoCompactWindow is CLI 2.1.330's minimum autoCompactWindow.
const minAutoCompactWindow = 100000
