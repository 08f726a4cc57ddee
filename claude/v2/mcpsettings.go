package v2

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// MCP server settings: what the CLI reads about an MCP server besides how to reach it (a tool-call
// timeout, whether its tools are always in the prompt, a per-tool permission policy), and what it
// reads in an MCP tool's _meta (MCPToolMeta).

// MCPServerSettings are the CLI's settings for one MCP server: the Settings field of
// MCPStdioServer, MCPSSEServer and MCPHTTPServer, and WithMCPServerSettings for an in-process
// server. The zero value changes nothing.
type MCPServerSettings struct {
	// Timeout bounds one tool call of the server (the CLI's per-server timeout, over the
	// MCP_TOOL_TIMEOUT environment variable): a call still running then ends with an error result
	// the model sees, and the handler's ctx ends. At least one second (the CLI ignores less); zero
	// leaves the CLI's default.
	Timeout time.Duration
	// AlwaysLoad puts every tool of the server in each request's tool list, never deferred behind
	// the CLI's ToolSearch (a tool the server lists with _meta "anthropic/alwaysLoad" false
	// excepted); the CLI then waits for the server to connect at start (at most 5 s). Default:
	// the CLI defers MCP tools behind ToolSearch when tool search is on. External servers only:
	// for an in-process server, set it on each tool with MCPToolMeta.
	AlwaysLoad bool
	// Tools is a permission policy per tool (SSE, HTTP and in-process servers): MCPToolAlwaysAsk
	// asks the permission callback before each call even where an allow rule covers the tool,
	// MCPToolAlwaysDeny denies every call; MCPToolAlwaysAllow is read for remote servers only.
	Tools []MCPToolPolicy
}

// MCPToolPolicy is one tool's permission policy (MCPServerSettings.Tools).
type MCPToolPolicy struct {
	// Name is the tool's name on its server (not the mcp__server__tool name).
	Name string `json:"name"`
	// Policy is MCPToolAlwaysAllow, MCPToolAlwaysAsk or MCPToolAlwaysDeny.
	Policy string `json:"permission_policy"`
}

// MCP tool policies.
const (
	MCPToolAlwaysAllow = "always_allow"
	MCPToolAlwaysAsk   = "always_ask"
	MCPToolAlwaysDeny  = "always_deny"
)

// mcpSettingsEntry is MCPServerSettings as the CLI reads them in a server's entry.
type mcpSettingsEntry struct {
	Timeout    int64           `json:"timeout,omitzero"` // milliseconds
	AlwaysLoad bool            `json:"alwaysLoad,omitzero"`
	Tools      []MCPToolPolicy `json:"tools,omitzero"`
}

// withSettings checks st and adds it to e.
func withSettings(e mcpServerEntry, st MCPServerSettings) (mcpServerEntry, error) {
	x, err := st.entry(e.Type)
	e.mcpSettingsEntry = x
	return e, err
}

// entry checks the settings for a server of type kind ("stdio", "sse", "http", "sdk").
func (st MCPServerSettings) entry(kind string) (mcpSettingsEntry, error) {
	if st.Timeout != 0 && st.Timeout < time.Second {
		return mcpSettingsEntry{}, fmt.Errorf("its Settings.Timeout %v is under the CLI's minimum of 1s (it would be ignored)", st.Timeout)
	}
	if st.AlwaysLoad && kind == "sdk" {
		return mcpSettingsEntry{}, fmt.Errorf("its Settings.AlwaysLoad is not read for an in-process server: set it on each tool (v2.MCPToolMeta)")
	}
	if len(st.Tools) > 0 && kind == "stdio" {
		return mcpSettingsEntry{}, fmt.Errorf("its Settings.Tools is not read for a stdio server")
	}
	seen := map[string]bool{}
	for _, p := range st.Tools {
		switch {
		case p.Name == "":
			return mcpSettingsEntry{}, fmt.Errorf("its Settings.Tools: a policy without a tool name")
		case seen[p.Name]:
			return mcpSettingsEntry{}, fmt.Errorf("its Settings.Tools: tool %q is given twice", p.Name)
		case p.Policy == MCPToolAlwaysAllow && kind == "sdk":
			return mcpSettingsEntry{}, fmt.Errorf("its Settings.Tools: %q: always_allow is ignored for an in-process server (allow with WithAllowedTools)", p.Name)
		case p.Policy != MCPToolAlwaysAllow && p.Policy != MCPToolAlwaysAsk && p.Policy != MCPToolAlwaysDeny:
			return mcpSettingsEntry{}, fmt.Errorf("its Settings.Tools: %q: unknown policy %q", p.Name, p.Policy)
		}
		seen[p.Name] = true
	}
	return mcpSettingsEntry{Timeout: st.Timeout.Milliseconds(), AlwaysLoad: st.AlwaysLoad, Tools: st.Tools}, nil
}

// checkMCPSettings checks WithMCPServerSettings against the in-process servers.
func (o *config) checkMCPSettings() error {
	for _, n := range slices.Sorted(maps.Keys(o.mcpSettings)) {
		if _, ok := o.mcpInProcess[n]; !ok {
			return optionErr("WithMCPServerSettings", "%q is not an in-process server of WithMCPServer", n)
		}
		if _, err := o.mcpSettings[n].entry("sdk"); err != nil {
			return optionErr("WithMCPServerSettings", "server %q: %v", n, err)
		}
	}
	return nil
}

// sdkServerConfigs is initialize's sdkMcpServerConfigs.
func (o *config) sdkServerConfigs() map[string]mcpSettingsEntry {
	if len(o.mcpSettings) == 0 {
		return nil
	}
	out := make(map[string]mcpSettingsEntry, len(o.mcpSettings))
	for n, st := range o.mcpSettings {
		out[n], _ = st.entry("sdk") // validated
	}
	return out
}

// MCPToolMeta is what the CLI reads in an MCP tool's _meta. Set it on a tool of an in-process
// server before adding it, with package claude/mcptools (mcp.AddTool(srv,
// mcptools.WithMeta(&mcp.Tool{...}, v2.MCPToolMeta{AlwaysLoad: true}), h)).
type MCPToolMeta struct {
	// AlwaysLoad puts the tool in every request's tool list, never deferred behind ToolSearch
	// ("anthropic/alwaysLoad"). Default: the CLI defers MCP tools when tool search is on.
	AlwaysLoad bool
	// SearchHint is text ToolSearch matches the tool by, besides its name and description
	// ("anthropic/searchHint").
	SearchHint string
}
