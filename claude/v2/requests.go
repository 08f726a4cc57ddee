package v2

import (
	"maps"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The control requests the session sends the CLI: one type per subtype, which names its subtype
// once (ControlSubtype; the transport writes the "subtype" member), all sent through one path,
// Session.request (or the transport's Send, for an initialize whose answer is awaited elsewhere).

type (
	interruptRequest       struct{}
	getContextUsageRequest struct {
		Detail string `json:"detail,omitempty"`
	}
	reloadPluginsRequest struct {
		HoldOnCacheImpact bool `json:"hold_on_cache_impact,omitzero"`
		RefuseIfBusy      bool `json:"refuse_if_busy,omitzero"`
	}
	reloadSkillsRequest       struct{}
	reloadOutputStylesRequest struct{}
	getHooksListingRequest    struct{}
	getStatusRequest          struct{}
	mcpStatusRequest          struct{}

	stopTaskRequest struct {
		TaskID string `json:"task_id"`
	}
	setMaxThinkingTokensRequest struct {
		MaxTokens int             `json:"max_thinking_tokens"`
		Display   ThinkingDisplay `json:"thinking_display,omitempty"`
	}
	// resetMaxThinkingTokensRequest sends max_thinking_tokens null: back to the session's default.
	resetMaxThinkingTokensRequest struct {
		MaxTokens *int `json:"max_thinking_tokens"`
	}
	setMCPPermissionModeOverrideRequest struct {
		ServerName string             `json:"serverName"`
		Mode       *MCPPermissionMode `json:"mode"`
	}
	setPermissionModeRequest struct {
		Mode PermissionMode `json:"mode"`
	}
	setModelRequest struct {
		Model string `json:"model,omitempty"`
	}
	mcpReconnectRequest struct {
		ServerName string `json:"serverName"`
	}
	mcpToggleRequest struct {
		ServerName string `json:"serverName"`
		Enabled    bool   `json:"enabled"`
	}
	mcpReadResourceRequest struct {
		ServerName string `json:"serverName"`
		URI        string `json:"uri"`
	}
	mcpSetServersRequest struct {
		Servers map[string]mcpServerEntry `json:"servers"`
	}
	applyFlagSettingsRequest struct {
		Settings map[string]any `json:"settings"`
	}
	updateSettingsRequest struct {
		Source   string            `json:"source"`
		Settings map[string]string `json:"settings"`
	}
	readFileRequest struct {
		Path     string `json:"path"`
		MaxBytes int    `json:"max_bytes,omitzero"`
		Encoding string `json:"encoding,omitempty"`
	}
	seedReadStateRequest struct {
		Path  string `json:"path"`
		MTime int64  `json:"mtime"`
	}
	backgroundTasksRequest struct {
		ToolUseID string `json:"tool_use_id,omitempty"`
	}
	getUsageRequest struct {
		SkipBehaviors bool `json:"skip_behaviors"`
	}
	getTaskOutputRequest struct {
		TaskID string `json:"task_id"`
	}
	renameSessionRequest struct {
		Title string `json:"title"`
	}
)

func (interruptRequest) ControlSubtype() string            { return "interrupt" }
func (getContextUsageRequest) ControlSubtype() string      { return "get_context_usage" }
func (reloadPluginsRequest) ControlSubtype() string        { return "reload_plugins" }
func (reloadSkillsRequest) ControlSubtype() string         { return "reload_skills" }
func (reloadOutputStylesRequest) ControlSubtype() string   { return "reload_output_styles" }
func (getHooksListingRequest) ControlSubtype() string      { return "get_hooks_listing" }
func (getStatusRequest) ControlSubtype() string            { return "get_status" }
func (mcpStatusRequest) ControlSubtype() string            { return "mcp_status" }
func (stopTaskRequest) ControlSubtype() string             { return "stop_task" }
func (setMaxThinkingTokensRequest) ControlSubtype() string { return "set_max_thinking_tokens" }
func (setPermissionModeRequest) ControlSubtype() string    { return "set_permission_mode" }
func (resetMaxThinkingTokensRequest) ControlSubtype() string {
	return "set_max_thinking_tokens"
}
func (setMCPPermissionModeOverrideRequest) ControlSubtype() string {
	return "set_mcp_permission_mode_override"
}
func (setModelRequest) ControlSubtype() string          { return "set_model" }
func (mcpReconnectRequest) ControlSubtype() string      { return "mcp_reconnect" }
func (mcpToggleRequest) ControlSubtype() string         { return "mcp_toggle" }
func (mcpReadResourceRequest) ControlSubtype() string   { return "mcp_read_resource" }
func (mcpSetServersRequest) ControlSubtype() string     { return "mcp_set_servers" }
func (applyFlagSettingsRequest) ControlSubtype() string { return "apply_flag_settings" }
func (updateSettingsRequest) ControlSubtype() string    { return "update_settings" }
func (readFileRequest) ControlSubtype() string          { return "read_file" }
func (seedReadStateRequest) ControlSubtype() string     { return "seed_read_state" }
func (backgroundTasksRequest) ControlSubtype() string   { return "background_tasks" }
func (getUsageRequest) ControlSubtype() string          { return "get_usage" }
func (getTaskOutputRequest) ControlSubtype() string     { return "get_task_output" }
func (renameSessionRequest) ControlSubtype() string     { return "rename_session" }
func (initRequest) ControlSubtype() string              { return "initialize" }
func (rewindFilesRequest) ControlSubtype() string       { return "rewind_files" }
func (claimRequest) ControlSubtype() string             { return "claim_session" }

// anyRequest is a request of Session.Control: a subtype the SDK has no type for, with its members.
type anyRequest struct {
	subtype string
	members map[string]any
}

func (r anyRequest) ControlSubtype() string { return r.subtype }

// MarshalJSONTo writes the members ("subtype" is the transport's to write).
func (r anyRequest) MarshalJSONTo(enc *jsontext.Encoder) error {
	m := maps.Clone(r.members)
	delete(m, "subtype")
	if m == nil {
		m = map[string]any{}
	}
	return json.MarshalEncode(enc, m)
}
