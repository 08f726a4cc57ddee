package v2

// AgentDefinition is a subagent the main agent can delegate to (the Agent tool), as the official
// SDKs define it. Description and Prompt are required.
type AgentDefinition struct {
	// Description says when to use the agent; the main agent reads it.
	Description string `json:"description"`
	// Prompt is the agent's system prompt.
	Prompt string `json:"prompt"`
	// Tools are the tools it may use. Default (nil): all of the main agent's.
	Tools []string `json:"tools,omitempty"`
	// DisallowedTools are tools it may not use. Default: none.
	DisallowedTools []string `json:"disallowedTools,omitempty"`
	// Model is a model alias ("sonnet", "opus", "haiku", "inherit") or a full model name.
	// Default: the CLI's choice for subagents.
	Model string `json:"model,omitempty"`
	// MaxTurns bounds its model turns. Default (0): no bound.
	MaxTurns int `json:"maxTurns,omitzero"`
	// Skills are skills whose SKILL.md content is put into the agent's context when it starts
	// (by name, as WithSkills's). Default: none preloaded.
	Skills []string `json:"skills,omitempty"`
	// MCPServers are MCP servers the agent gets on top of the main agent's tools: each one of
	// the session's or the settings' by name, or its own, started for the agent's run and
	// stopped after it (AgentMCPServer). Default: none of its own.
	MCPServers []AgentMCPServer `json:"mcpServers,omitempty"`
	// InitialPrompt is sent as the first user turn, ahead of the prompt, when the agent is the
	// main agent (WithMainAgent); slash commands in it run. It is not read when the agent runs as
	// a subagent. Default: none.
	InitialPrompt string `json:"initialPrompt,omitempty"`
	// Background runs the agent as a background task whenever it is called: the Agent tool
	// returns at once and the main agent goes on. Default: false, the caller waits for it.
	Background bool `json:"background,omitzero"`
	// Effort is the agent's effort level (WithEffort's levels). Default: the session's.
	Effort Effort `json:"effort,omitempty"`
	// PermissionMode is the agent's permission mode (WithPermissionMode's modes), e.g.
	// PermissionModeAcceptEdits lets it write files without a prompt. The CLI runs the subagent
	// in it whatever the session's mode. With a PermissionRequest hook or WithCanUseTool, a mode
	// that would skip them (bypassPermissions, auto; acceptEdits for a guard of the edit tools or
	// the shell) is refused by CreateSession (ErrGuardCannotFire), as the session's own mode is,
	// unless WithAllowUnenforcedHooks. Default: the session's.
	PermissionMode PermissionMode `json:"permissionMode,omitempty"`
	// Memory loads the agent's own memory file, MEMORY.md, into its system prompt, and lets it
	// keep it, from SettingSourceUser (~/.claude/agent-memory/<name>/), SettingSourceProject
	// (<project>/.claude/agent-memory/<name>/) or SettingSourceLocal
	// (<project>/.claude/agent-memory-local/<name>/). Default: no memory.
	Memory SettingSource `json:"memory,omitempty"`
	// OmitClaudeMD runs the agent as a subagent without the user, project and local CLAUDE.md
	// files (managed ones are kept). Default: false, it reads them as the main agent does.
	OmitClaudeMD bool `json:"omitClaudeMd,omitzero"`
	// AutoCompactWindow is the token count at which the agent, run as a subagent, compacts its
	// conversation; it can only lower the window it would inherit. Default (0): inherited. It
	// must be at least 100000 (CLI 2.1.330's minimum).
	AutoCompactWindow int `json:"autoCompactWindow,omitzero"`
}

// WithAgents defines subagents by name (sent in the initialize request, as the official SDKs do;
// CLI 2.1.330's --agents takes only a file with --print): the main agent can run them with its
// Agent tool, and they are listed in the initialize answer (ServerInfo). Calling it again adds
// to them. Default: none beyond the CLI's own and those of the setting sources.
func WithAgents(agents map[string]AgentDefinition) Option {
	return setOption("WithAgents", func(o *config) {
		if o.agents == nil {
			o.agents = map[string]AgentDefinition{}
		}
		for k, v := range agents {
			o.agents[k] = v
		}
	})
}

// WithMainAgent runs the main agent as the named agent (--agent): its prompt becomes the system
// prompt, its tools and model apply. The name is one of WithAgents's, or an agent of the setting
// sources or plugins. Default: the CLI's main agent.
func WithMainAgent(name string) Option {
	return setOption("WithMainAgent", func(o *config) { o.mainAgent = name })
}

// WithSubagentText makes the CLI send the text and thinking of subagents as assistant messages
// (the initialize request's forwardSubagentText), each with ParentToolUseID set to the Agent
// tool call that started the subagent. Default: only the subagents' tool calls and results are
// sent.
func WithSubagentText() Option {
	return setOption("WithSubagentText", func(o *config) { o.subagentTxt = true })
}
