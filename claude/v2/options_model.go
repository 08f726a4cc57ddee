package v2

// WithClaudeCodeSystemPrompt uses the CLI's own system prompt (the official SDKs' preset
// "claude_code"): Claude Code's instructions for its tools, the environment, CLAUDE.md memory.
// Append to it with WithAppendSystemPrompt. Default: an empty system prompt (see
// WithSystemPrompt). It excludes WithSystemPrompt.
func WithClaudeCodeSystemPrompt() Option {
	return optionFunc(func(o *config) { o.claudeCode = true })
}

// WithPluginDirs loads Claude Code plugins from these directories (or .zip files) for this
// session only (--plugin-dir, once each): their commands, agents, skills and hooks. Default: none
// beyond the installed ones.
func WithPluginDirs(dirs ...string) Option {
	return optionFunc(func(o *config) { o.pluginDirs = append(o.pluginDirs, dirs...) })
}

// WithPermissionPromptTool names an MCP tool that answers the CLI's permission prompts
// (--permission-prompt-tool), e.g. "mcp__auth__approve"; the tool must come from an MCP server of
// the session. Default: none (the CLI denies what would need a prompt). It excludes
// WithCanUseTool, which answers them with a Go function.
func WithPermissionPromptTool(name string) Option {
	return optionFunc(func(o *config) { o.promptTool = name })
}

// WithMaxBudgetUSD stops the session's prompts once the API calls have cost more than usd dollars
// by the CLI's reckoning (--max-budget-usd): the turn then ends with a result of subtype
// "error_max_budget_usd", which Run returns as a *ResultError matching ErrMaxBudget. The CLI
// checks between model calls, so the call that crosses the budget completes. Default: no budget.
// It must be positive and finite.
func WithMaxBudgetUSD(usd float64) Option {
	return optionFunc(func(o *config) { o.maxBudgetUSD = usd })
}

// WithFallbackModels sets the models the CLI falls back to, in order, when the main model is
// overloaded or unavailable (--fallback-model, a comma-separated list with CLI 2.1.330; the
// official SDKs take one): after its retries of one model fail, the CLI asks the next, and the
// main model is tried again at the start of each turn (TestRealCLI_FallbackModels). When the
// last one is overloaded too, the CLI keeps retrying it with backoff: bound the turn with its
// ctx. Default: none. A name must not be empty, hold a comma, repeat another, or be WithModel's
// (the CLI would only retry the same model; the TypeScript SDK rejects it too).
func WithFallbackModels(models ...string) Option {
	return optionFunc(func(o *config) { o.fallbackModels = append(o.fallbackModels, models...) })
}

// Effort is the model's effort level (WithEffort, AgentDefinition.Effort).
type Effort string

// Effort levels (CLI 2.1.330).
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortXHigh  Effort = "xhigh"
	EffortMax    Effort = "max"
)

// WithEffort sets the model's effort level (--effort; the request's output_config.effort): one of
// EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax. Default: the CLI's (medium with
// CLI 2.1.330).
func WithEffort(level Effort) Option { return optionFunc(func(o *config) { o.effort = level }) }

// ThinkingMode is the model's extended-thinking mode (WithThinking).
type ThinkingMode string

// Thinking modes.
const (
	// ThinkingAdaptive lets the model decide how much to think (the CLI's default for a model
	// that has it; CLI 2.1.330 gives a model without it a fixed budget of 31999 tokens).
	ThinkingAdaptive ThinkingMode = "adaptive"
	// ThinkingDisabled turns extended thinking off.
	ThinkingDisabled ThinkingMode = "disabled"
)

// WithThinking sets the thinking mode (--thinking): ThinkingAdaptive or ThinkingDisabled; a fixed
// budget is WithMaxThinkingTokens. Default: the CLI's. It excludes WithMaxThinkingTokens.
func WithThinking(mode ThinkingMode) Option { return optionFunc(func(o *config) { o.thinking = mode }) }

// WithMaxThinkingTokens gives extended thinking a budget of n tokens (--max-thinking-tokens).
// Default: the CLI's. n must be positive; it excludes WithThinking.
func WithMaxThinkingTokens(n int) Option {
	return optionFunc(func(o *config) { o.maxThinking = n })
}

// WithBetas adds Anthropic API beta names to the CLI's requests (--betas; the anthropic-beta
// header; API-key users only). Default: none beyond the CLI's own. A name must not be empty or
// hold a comma.
func WithBetas(betas ...string) Option {
	return optionFunc(func(o *config) { o.betas = append(o.betas, betas...) })
}

// WithTaskBudget sets the API-side task budget in tokens (--task-budget), which the model is told
// about so that it paces itself. Default: none. It must be positive.
func WithTaskBudget(tokens int) Option {
	return optionFunc(func(o *config) { o.taskBudget = tokens })
}

// WithTools sets the base set of built-in tools the model is offered (--tools): only these exist
// for the session. Unlike WithAllowedTools, which only approves tools without a prompt, it
// removes the others from the model's request. WithTools() with no names offers no built-in
// tool; WithTools("default") the CLI's default set. Default: the CLI's default set. A name must
// not be empty or hold a comma.
func WithTools(tools ...string) Option {
	return optionFunc(func(o *config) {
		o.tools = append(o.tools, tools...)
		o.toolsSet = true
	})
}

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
	// PermissionModeAcceptEdits lets it write files without a prompt. Default: the session's.
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
	return optionFunc(func(o *config) {
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
func WithMainAgent(name string) Option { return optionFunc(func(o *config) { o.mainAgent = name }) }

// SettingSource is a settings file the CLI may load (WithSettingSources), or writes
// (Session.UpdateSettings), and the scope of an agent's memory (AgentDefinition.Memory).
type SettingSource string

// The setting sources of WithSettingSources.
const (
	// SettingSourceUser is ~/.claude/settings.json.
	SettingSourceUser SettingSource = "user"
	// SettingSourceProject is <project>/.claude/settings.json.
	SettingSourceProject SettingSource = "project"
	// SettingSourceLocal is <project>/.claude/settings.local.json.
	SettingSourceLocal SettingSource = "local"
)

// WithSettingSources loads only these settings files (--setting-sources); WithSettingSources()
// with none loads no settings file (managed settings and WithSettings still apply). Naming
// SettingSourceProject or SettingSourceLocal loads the repository's files as WithTrustedProject
// does, checked by the SDK before the CLI starts (ErrUntrustedProject). Default: the user's
// settings only (SettingSourceUser), so that nothing of the repository reaches the CLI; all three
// with WithTrustedProject or WithProjectConfigRoot.
func WithSettingSources(sources ...SettingSource) Option {
	return optionFunc(func(o *config) {
		o.settingSources = append(o.settingSources, sources...)
		o.sourcesSet = true
	})
}

// WithWrapper runs the CLI through a command of the user's: the process started is argv[0] with
// argv[1:], then the CLI's path and arguments, e.g. WithWrapper("docker", "exec", "-i", "box") or
// WithWrapper("ssh", "host"), or a sandbox wrapper script that ends with `exec "$@"`. The wrapper
// gets the session's working directory and environment, and must pass stdin, stdout and stderr
// through. It runs in its own process group like the CLI would, and Close ends that group, so a
// wrapper that execs (or keeps its children in its group) is ended with everything it started;
// what it starts elsewhere (a container, a remote host) is the wrapper's to end when its stdin
// closes. With a wrapper the CLI path is not looked up locally: it is WithCLIPath as given, or
// "claude". Default: none, the CLI is started directly.
func WithWrapper(argv ...string) Option {
	return optionFunc(func(o *config) { o.wrapper = append([]string(nil), argv...) })
}
