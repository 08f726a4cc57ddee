package v2

import (
	"context"
	"fmt"
)

// ResetMaxThinkingTokens clears a budget SetMaxThinkingTokens set (set_max_thinking_tokens with
// null): the next requests use the session's budget from its start (WithMaxThinkingTokens, or the
// CLI's default), and a session started with thinking off stays off.
func (s *Session) ResetMaxThinkingTokens(ctx context.Context) error {
	_, err := s.t.Request(ctx, resetMaxThinkingTokensRequest{})
	return err
}

// MCPPermissionMode is how tool calls of one MCP server are decided under the auto permission
// mode (SetMCPPermissionModeOverride).
type MCPPermissionMode string

// The MCP server permission modes.
const (
	// MCPPermissionDefault asks for each call of the server's tools (no classifier approval).
	MCPPermissionDefault MCPPermissionMode = "default"
	// MCPPermissionAuto lets the auto mode's classifier decide the server's calls.
	MCPPermissionAuto MCPPermissionMode = "auto"
)

// SetMCPPermissionModeOverride pins how the MCP server named serverName (as registered) is decided
// under the auto permission mode (set_mcp_permission_mode_override); mode "" clears the pin. The
// CLI stores it even for a server it does not know yet, and then answers a warning, which is
// returned (no error: the pin applies once a server of that name connects).
func (s *Session) SetMCPPermissionModeOverride(ctx context.Context, serverName string, mode MCPPermissionMode) (warning string, err error) {
	req := setMCPPermissionModeOverrideRequest{ServerName: serverName}
	switch mode {
	case "":
	case MCPPermissionDefault, MCPPermissionAuto:
		req.Mode = &mode
	default:
		return "", fmt.Errorf("v2: SetMCPPermissionModeOverride(%q): unknown mode %q (want MCPPermissionDefault, MCPPermissionAuto or \"\")", serverName, mode)
	}
	if serverName == "" {
		return "", fmt.Errorf("v2: SetMCPPermissionModeOverride: no server name")
	}
	var a struct {
		Warning string `json:"warning"`
	}
	err = s.request(ctx, req, &a)
	return a.Warning, err
}
