package v2

// WithMCPServer gives the agent the tools (and prompts, resources) of srv, an MCP server built
// with the official MCP Go SDK (mcp.NewServer, mcp.AddTool), running in this process, as
// mcptools.Server(srv) makes it (package claude/mcptools). The model
// sees its tools as mcp__<name>__<tool>. The session connects srv once (Server.Connect), through
// a transport of the SDK's own that hands each message of the CLI's control protocol to srv
// over a channel, and closes that connection on Close; the same srv may serve several
// sessions. Tool handlers run on a goroutine per call (parallel calls run concurrently); a
// handler's error becomes an is_error result the model sees; a panic is recovered into one (the
// session installs a receiving middleware on srv for it, once); the handler's ctx ends when the
// CLI cancels the call (on an interrupt) and on Close. Tools are not allowed by default: allow
// them with WithAllowedTools("mcp__<name>__<tool>"), a permission mode, or a hook. Default: none.
func WithMCPServer(name string, srv MCPServer) Option {
	return setOption("WithMCPServer", func(o *config) {
		if o.mcpInProcess == nil {
			o.mcpInProcess = map[string]MCPServer{}
		}
		o.mcpOrder = append(o.mcpOrder, name)
		o.mcpInProcess[name] = srv
	})
}

// WithMCPStdioServer adds an external stdio MCP server (see MCPStdioServer). Default: none
// (see WithoutStrictMCPConfig).
func WithMCPStdioServer(name string, srv MCPStdioServer) Option {
	return withExternal("WithMCPStdioServer", name, &srv)
}

// WithMCPSSEServer adds an external SSE MCP server (see MCPSSEServer). Default: none, as
// WithMCPStdioServer.
func WithMCPSSEServer(name string, srv MCPSSEServer) Option {
	return withExternal("WithMCPSSEServer", name, &srv)
}

// WithMCPHTTPServer adds an external streamable-HTTP MCP server (see MCPHTTPServer). Default:
// none, as WithMCPStdioServer.
func WithMCPHTTPServer(name string, srv MCPHTTPServer) Option {
	return withExternal("WithMCPHTTPServer", name, &srv)
}

// WithMCPServerSettings sets the CLI's settings of the in-process server name (WithMCPServer):
// Timeout and Tools (initialize's sdkMcpServerConfigs). Default: none.
func WithMCPServerSettings(name string, st MCPServerSettings) Option {
	return setOption("WithMCPServerSettings", func(o *config) {
		if o.mcpSettings == nil {
			o.mcpSettings = map[string]MCPServerSettings{}
		}
		o.mcpSettings[name] = st
	})
}
