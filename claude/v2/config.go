package v2

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// moreOptions are the options of issue 15 (what a user of the official SDKs can configure), kept
// apart from options so that their additions stay in this file. Their defaults are the zero
// values: nothing is passed to the CLI.
type moreOptions struct {
	jsonSchema     jsontext.Value // --json-schema
	jsonSchemaErr  error          // a schema WithOutputSchemaFor could not derive
	maxBudgetUSD   float64        // --max-budget-usd; 0: none
	fallbackModels []string       // --fallback-model
	effort         string         // --effort
	thinking       string         // --thinking (ThinkingAdaptive, ThinkingDisabled)
	maxThinking    int            // --max-thinking-tokens
	betas          []string       // --betas
	taskBudget     int            // --task-budget
	tools          []string       // --tools, when toolsSet
	toolsSet       bool
	agents         map[string]AgentDefinition // --agents
	settingSources []SettingSource            // --setting-sources, when sourcesSet
	sourcesSet     bool
	wrapper        []string      // subprocess.Config.Wrapper
	claudeCode     bool          // WithClaudeCodeSystemPrompt
	appendGiven    bool          // WithAppendSystemPrompt was given
	mainAgent      string        // --agent
	pluginDirs     []string      // --plugin-dir
	promptTool     string        // --permission-prompt-tool
	skills         skillsOptions // skills.go
	sandbox        *Sandbox      // sandbox.go: WithSandbox, merged into --settings
	extra          extraOptions  // extras.go
}

// WithClaudeCodeSystemPrompt uses the CLI's own system prompt (the official SDKs' preset
// "claude_code"): Claude Code's instructions for its tools, the environment, CLAUDE.md memory.
// Append to it with WithAppendSystemPrompt. Default: an empty system prompt (see
// WithSystemPrompt). It excludes WithSystemPrompt.
func WithClaudeCodeSystemPrompt() Option {
	return optionFunc(func(o *options) { o.more.claudeCode = true })
}

// systemPromptArg returns the --system-prompt value, if one is passed: WithSystemPrompt's, or ""
// (the official SDKs' default) unless the CLI's own prompt was asked for.
func (o *options) systemPromptArg() (string, bool) {
	switch {
	case o.systemPrompt != nil:
		return *o.systemPrompt, true
	case o.more.claudeCode || o.more.appendGiven || o.more.extra.systemPromptFile != "":
		return "", false
	}
	return "", true
}

// WithPluginDirs loads Claude Code plugins from these directories (or .zip files) for this
// session only (--plugin-dir, once each): their commands, agents, skills and hooks. Default: none
// beyond the installed ones.
func WithPluginDirs(dirs ...string) Option {
	return optionFunc(func(o *options) { o.more.pluginDirs = append(o.more.pluginDirs, dirs...) })
}

// WithPermissionPromptTool names an MCP tool that answers the CLI's permission prompts
// (--permission-prompt-tool), e.g. "mcp__auth__approve"; the tool must come from an MCP server of
// the session. Default: none (the CLI denies what would need a prompt). It excludes
// WithCanUseTool, which answers them with a Go function.
func WithPermissionPromptTool(name string) Option {
	return optionFunc(func(o *options) { o.more.promptTool = name })
}

// WithMaxBudgetUSD stops the session's prompts once the API calls have cost more than usd dollars
// by the CLI's reckoning (--max-budget-usd): the turn then ends with a result of subtype
// "error_max_budget_usd", which Run returns as a *ResultError matching ErrMaxBudget. The CLI
// checks between model calls, so the call that crosses the budget completes. Default: no budget.
// It must be positive and finite.
func WithMaxBudgetUSD(usd float64) Option {
	return optionFunc(func(o *options) { o.more.maxBudgetUSD = usd })
}

// WithFallbackModel sets the models the CLI falls back to, in order, when the main model is
// overloaded or unavailable (--fallback-model, a comma-separated list with CLI 2.1.330; the
// official SDKs take one): after its retries of one model fail, the CLI asks the next, and the
// main model is tried again at the start of each turn (TestRealCLI_FallbackModels). When the
// last one is overloaded too, the CLI keeps retrying it with backoff: bound the turn with its
// ctx. Default: none. A name must not be empty, hold a comma, repeat another, or be WithModel's
// (the CLI would only retry the same model; the TypeScript SDK rejects it too).
func WithFallbackModel(models ...string) Option {
	return optionFunc(func(o *options) { o.more.fallbackModels = append(o.more.fallbackModels, models...) })
}

// Effort levels of WithEffort (CLI 2.1.330).
const (
	EffortLow    = "low"
	EffortMedium = "medium"
	EffortHigh   = "high"
	EffortXHigh  = "xhigh"
	EffortMax    = "max"
)

// WithEffort sets the model's effort level (--effort; the request's output_config.effort): one of
// EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax. Default: the CLI's (medium with
// CLI 2.1.330).
func WithEffort(level string) Option { return optionFunc(func(o *options) { o.more.effort = level }) }

// Thinking modes of WithThinking.
const (
	// ThinkingAdaptive lets the model decide how much to think (the CLI's default for a model
	// that has it; CLI 2.1.330 gives a model without it a fixed budget of 31999 tokens).
	ThinkingAdaptive = "adaptive"
	// ThinkingDisabled turns extended thinking off.
	ThinkingDisabled = "disabled"
)

// WithThinking sets the thinking mode (--thinking): ThinkingAdaptive or ThinkingDisabled; a fixed
// budget is WithMaxThinkingTokens. Default: the CLI's. It excludes WithMaxThinkingTokens.
func WithThinking(mode string) Option { return optionFunc(func(o *options) { o.more.thinking = mode }) }

// WithMaxThinkingTokens gives extended thinking a budget of n tokens (--max-thinking-tokens).
// Default: the CLI's. n must be positive; it excludes WithThinking.
func WithMaxThinkingTokens(n int) Option {
	return optionFunc(func(o *options) { o.more.maxThinking = n })
}

// WithBetas adds Anthropic API beta names to the CLI's requests (--betas; the anthropic-beta
// header; API-key users only). Default: none beyond the CLI's own. A name must not be empty or
// hold a comma.
func WithBetas(betas ...string) Option {
	return optionFunc(func(o *options) { o.more.betas = append(o.more.betas, betas...) })
}

// WithTaskBudget sets the API-side task budget in tokens (--task-budget), which the model is told
// about so that it paces itself. Default: none. It must be positive.
func WithTaskBudget(tokens int) Option {
	return optionFunc(func(o *options) { o.more.taskBudget = tokens })
}

// WithTools sets the base set of built-in tools the model is offered (--tools): only these exist
// for the session. Unlike WithAllowedTools, which only approves tools without a prompt, it
// removes the others from the model's request. WithTools() with no names offers no built-in
// tool; WithTools("default") the CLI's default set. Default: the CLI's default set. A name must
// not be empty or hold a comma.
func WithTools(tools ...string) Option {
	return optionFunc(func(o *options) {
		o.more.tools = append(o.more.tools, tools...)
		o.more.toolsSet = true
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
	// main agent (WithAgent); slash commands in it run. It is not read when the agent runs as
	// a subagent. Default: none.
	InitialPrompt string `json:"initialPrompt,omitempty"`
	// Background runs the agent as a background task whenever it is called: the Agent tool
	// returns at once and the main agent goes on. Default: false, the caller waits for it.
	Background bool `json:"background,omitzero"`
	// Effort is the agent's effort level (WithEffort's levels). Default: the session's.
	Effort string `json:"effort,omitempty"`
	// PermissionMode is the agent's permission mode (WithPermissionMode's modes), e.g.
	// PermissionModeAcceptEdits lets it write files without a prompt. Default: the session's.
	PermissionMode string `json:"permissionMode,omitempty"`
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
	return optionFunc(func(o *options) {
		if o.more.agents == nil {
			o.more.agents = map[string]AgentDefinition{}
		}
		for k, v := range agents {
			o.more.agents[k] = v
		}
	})
}

// WithAgent runs the main agent as the named agent (--agent): its prompt becomes the system
// prompt, its tools and model apply. The name is one of WithAgents's, or an agent of the setting
// sources or plugins. Default: the CLI's main agent.
func WithAgent(name string) Option { return optionFunc(func(o *options) { o.more.mainAgent = name }) }

// SettingSource is a settings file the CLI may load.
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
// with none loads no settings file (managed settings and WithSettings still apply). Default: the
// CLI loads all three.
func WithSettingSources(sources ...SettingSource) Option {
	return optionFunc(func(o *options) {
		o.more.settingSources = append(o.more.settingSources, sources...)
		o.more.sourcesSet = true
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
	return optionFunc(func(o *options) { o.more.wrapper = append([]string(nil), argv...) })
}

// validateMore checks the options of this file.
func (o *options) validateMore() error {
	m := &o.more
	if m.claudeCode && o.systemPrompt != nil {
		return errors.New("v2: WithClaudeCodeSystemPrompt and WithSystemPrompt exclude each other")
	}
	if m.promptTool != "" && o.canUseTool != nil {
		return errors.New("v2: WithPermissionPromptTool and WithCanUseTool exclude each other")
	}
	if m.jsonSchemaErr != nil {
		return fmt.Errorf("v2: output schema: %w", m.jsonSchemaErr)
	}
	if m.jsonSchema != nil {
		if !m.jsonSchema.IsValid() || m.jsonSchema.Kind() != '{' {
			return fmt.Errorf("v2: WithJSONSchema: not a JSON object: %.100s", m.jsonSchema)
		}
		// The schema becomes the input schema of the CLI's StructuredOutput tool, which the
		// Messages API takes only of type object.
		var top struct {
			Type any `json:"type"`
		}
		if err := json.Unmarshal(m.jsonSchema, &top); err != nil || top.Type != "object" {
			return fmt.Errorf("v2: WithJSONSchema: the schema's type must be \"object\" (a Go struct or map), not %v", top.Type)
		}
	}
	if m.maxBudgetUSD < 0 || math.IsNaN(m.maxBudgetUSD) || math.IsInf(m.maxBudgetUSD, 0) {
		return fmt.Errorf("v2: WithMaxBudgetUSD(%v): must be positive and finite", m.maxBudgetUSD)
	}
	for _, l := range []struct {
		opt   string
		names []string
	}{{"WithFallbackModel", m.fallbackModels}, {"WithBetas", m.betas}, {"WithTools", m.tools}} {
		for _, n := range l.names {
			if n == "" || strings.Contains(n, ",") {
				return fmt.Errorf("v2: %s(%q): a name must not be empty or hold a comma", l.opt, n)
			}
		}
	}
	for i, f := range m.fallbackModels {
		if f == o.model || slices.Contains(m.fallbackModels[:i], f) {
			return fmt.Errorf("v2: WithFallbackModel(%q): the same model as WithModel or an earlier fallback", f)
		}
	}
	switch m.effort {
	case "", EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax:
	default:
		return fmt.Errorf("v2: WithEffort(%q): unknown effort level", m.effort)
	}
	switch m.thinking {
	case "", ThinkingAdaptive, ThinkingDisabled:
	default:
		return fmt.Errorf("v2: WithThinking(%q): unknown thinking mode", m.thinking)
	}
	if m.maxThinking < 0 || m.taskBudget < 0 {
		return errors.New("v2: WithMaxThinkingTokens and WithTaskBudget must be positive")
	}
	if m.thinking != "" && m.maxThinking > 0 {
		return errors.New("v2: WithThinking and WithMaxThinkingTokens exclude each other")
	}
	for name, a := range m.agents {
		if name == "" || a.Description == "" || a.Prompt == "" {
			return fmt.Errorf("v2: WithAgents: agent %q needs a name, a Description and a Prompt", name)
		}
		if a.MaxTurns < 0 {
			return fmt.Errorf("v2: WithAgents: agent %q: negative MaxTurns", name)
		}
		for _, n := range a.Skills {
			if why := badSkillName(n); why != "" {
				return fmt.Errorf("v2: WithAgents: agent %q: skill %q: %s", name, n, why)
			}
		}
		if err := a.validate(); err != nil {
			return fmt.Errorf("v2: WithAgents: agent %q: %w", name, err)
		}
	}
	for _, s := range m.settingSources {
		switch s {
		case SettingSourceUser, SettingSourceProject, SettingSourceLocal:
		default:
			return fmt.Errorf("v2: WithSettingSources: unknown source %q", s)
		}
	}
	for _, d := range m.pluginDirs {
		if d == "" {
			return errors.New("v2: WithPluginDirs: empty path")
		}
	}
	if len(m.wrapper) > 0 && m.wrapper[0] == "" {
		return errors.New("v2: WithWrapper: empty command")
	}
	if err := o.validateExtra(); err != nil {
		return err
	}
	if err := o.validateSandbox(); err != nil {
		return err
	}
	return o.validateSkills()
}

// args maps the options of this file to CLI flags, each value in its flag's argument.
func (m *moreOptions) args() []string {
	var a []string
	flag := func(name, value string) { a = append(a, name+"="+value) }
	if m.jsonSchema != nil {
		flag("--json-schema", string(m.jsonSchema))
	}
	if m.maxBudgetUSD > 0 {
		flag("--max-budget-usd", strconv.FormatFloat(m.maxBudgetUSD, 'f', -1, 64))
	}
	if len(m.fallbackModels) > 0 {
		flag("--fallback-model", strings.Join(m.fallbackModels, ","))
	}
	if m.effort != "" {
		flag("--effort", m.effort)
	}
	if m.thinking != "" {
		flag("--thinking", m.thinking)
	}
	if m.maxThinking > 0 {
		flag("--max-thinking-tokens", strconv.Itoa(m.maxThinking))
	}
	if len(m.betas) > 0 {
		flag("--betas", strings.Join(m.betas, ","))
	}
	if m.taskBudget > 0 {
		flag("--task-budget", strconv.Itoa(m.taskBudget))
	}
	if m.toolsSet {
		flag("--tools", strings.Join(m.tools, ","))
	}
	if m.mainAgent != "" {
		flag("--agent", m.mainAgent)
	}
	for _, d := range m.pluginDirs {
		flag("--plugin-dir", d)
	}
	if m.promptTool != "" {
		flag("--permission-prompt-tool", m.promptTool)
	}
	if m.sourcesSet {
		s := make([]string, len(m.settingSources))
		for i, v := range m.settingSources {
			s[i] = string(v)
		}
		flag("--setting-sources", strings.Join(s, ","))
	}
	return append(a, m.extra.args()...)
}

// findCLI returns the CLI's path: with WithWrapper, WithCLIPath as given (or "claude"), for the
// wrapper to find; else subprocess.FindCLI's.
func findCLI(o options) (string, error) {
	if len(o.more.wrapper) > 0 {
		if o.cliPath != "" {
			return o.cliPath, nil
		}
		return "claude", nil
	}
	p, err := subprocess.FindCLI(o.cliPath)
	if err != nil && o.cliPath != "" {
		return "", &OptionError{Option: "WithCLIPath", Problem: strings.TrimPrefix(err.Error(), "shared: "), Err: err}
	}
	return p, err
}

// initRequest is the initialize request with the hook registration reg, the session's agents and
// its skills allowlist (WithSkills; sent with every initialize, as the CLI replaces its allowlist
// with each one that has it).
// It has no MCP servers: the first initialize adds them (Session.initialize), and CLI 2.1.330
// keeps them, in-process and external, through the later ones syncRegistration sends, without
// reconnecting them (TestE2EMCPServersSurviveReinitialize,
// TestE2EMCPServersSurviveSubagentReinitialize).
func (s *Session) initRequest(reg map[string][]initHookMatcher) initRequest {
	x := s.o.more.extra
	return initRequest{Subtype: "initialize", Hooks: reg, Agents: s.o.more.agents, Skills: s.o.more.skills.names,
		PlanModeInstructions: x.planInstructions, ToolAliases: x.toolAliases, Title: x.title, ForwardSubagentText: x.forwardSubagentTx,
		ExcludeDynamicSections: x.excludeDynamic, surfaceInitFields: s.o.surfaceInit()}
}
