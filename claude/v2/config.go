package v2

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// config holds every setting of a session: each With* sets fields here and does nothing else;
// validate (validate.go) checks them, and the option table (optiontable.go) says where each
// goes. The zero value of a field is its option's default unless defaultConfig says otherwise.
type config struct {
	// The process: what runs, where, with which environment.
	cliPath string
	wrapper []string // WithWrapper
	cwd     string
	env     []string // WithEnv
	baseEnv []string // WithBaseEnv; nil: os.Environ()
	// fileCheckpointing sets FileCheckpointingEnv (WithFileCheckpointing).
	fileCheckpointing bool
	extraArgs         []string

	// spawner is WithSpawner's (spawn.go); spawnerGiven says it was given, nil or not.
	spawner      subprocess.Spawner
	spawnerGiven bool

	// traceContext is WithTraceContext's inject; traceCtx the ctx it reads, CreateSession's (set
	// by prepare; nil before).
	traceContext func(context.Context) map[string]string
	traceCtx     context.Context

	// The model and its prompt.
	model              string
	fallbackModels     []string
	systemPrompt       *string
	appendSystemPrompt string
	appendGiven        bool // WithAppendSystemPrompt was given
	claudeCode         bool // WithClaudeCodeSystemPrompt
	systemPromptFile   string
	excludeDynamic     bool // WithExcludeDynamicSections
	effort             Effort
	thinking           ThinkingMode
	maxThinking        int // WithMaxThinkingTokens
	thinkingDisplay    ThinkingDisplay
	betas              []string
	taskBudget         int
	maxBudgetUSD       float64
	maxTurns           int
	jsonSchema         jsontext.Value
	jsonSchemaErr      error // a schema WithOutputSchemaFor could not derive
	policyErr          error // why WithPolicy's policy cannot judge (policy.Validate)
	includePartial     bool  // WithIncludePartialMessages

	// Tools and permissions.
	tools             []string
	toolsSet          bool // WithTools was given (tools may be empty: no tool)
	allowedTools      []string
	disallowedTools   []string
	permissionMode    PermissionMode
	live              *liveGuards // guardlive.go: the running session's mode and scoped guards
	promptTool        string      // WithPermissionPromptTool
	noPrompts         bool        // WithoutPermissionPrompts
	allowBypass       bool        // WithAllowBypassPermissions
	canUseTool        shared.CanUseToolFunc
	permissionTimeout time.Duration
	toolAliases       map[string]string
	planInstructions  string // WithPlanModeInstructions
	verbatim          bool   // WithVerbatimPrompts: client_composed on every user message (content.go)

	// Agents, skills, plugins.
	agents      map[string]AgentDefinition
	mainAgent   string // WithMainAgent
	skillNames  []string
	skillsSet   bool // WithSkills was given (skillNames may be empty: no skill)
	allSkills   bool
	pluginDirs  []string
	subagentTxt bool // WithSubagentText

	// Settings: files, sources, the settings hooks and the sandbox merged into --settings.
	settings       string
	settingSources []SettingSource
	sourcesSet     bool // WithSettingSources was given (settingSources may be empty: none)
	configRoot     string
	trustedProject bool   // WithTrustedProject (project.go)
	projectMemory  bool   // WithTrustedProjectMemory
	managed        string // WithManagedSettings
	commandHooks   map[shared.HookEvent][]SettingsCommandHook
	promptHooks    map[shared.HookEvent][]SettingsPromptHook
	sandbox        *Sandbox
	policies       []*policy.Policy // WithPolicy's, confined by the kernel (confine.go)
	noConfinement  bool             // WithoutOSConfinement
	// skillsOff holds the CLI's version when it predates PreSkillShellCommand and the policies'
	// guard of skills' shell lines cannot fire: their Skill and slash-command hooks then refuse
	// (policy.go); nil until then.
	skillsOff *atomic.Pointer[string]
	// ownSkillShellHooks: WithHooks registered PreSkillShellCommand hooks of the program's own.
	ownSkillShellHooks bool
	additionalDirs     []string
	debugFile          string

	// The session: new, resumed, continued, forked; its title and transcript.
	sessionID       string
	resume          string
	resumeAt        string
	dropsTurn       string // WithResumeDropsTurn
	continueSession bool
	forkSession     bool
	title           string
	noPersist       bool           // WithoutSessionPersistence
	store           sessions.Store // WithSessionStore
	storeGiven      bool           // WithSessionStore was given, nil or not
	storeTimeout    time.Duration  // bounds one Append (store.go); tests only, else requestTimeout

	// MCP servers (mcp.go).
	mcpInProcess map[string]MCPServer
	mcpExternal  map[string]MCPServerConfig
	mcpOrder     []string                     // every name, in the order the options gave them (duplicates are errors)
	looseMCP     bool                         // WithoutStrictMCPConfig; by default --strict-mcp-config
	mcpSettings  map[string]MCPServerSettings // WithMCPServerSettings, in-process servers' (mcpsettings.go)

	// Go hooks.
	hooks               shared.Hooks
	hookTimeout         time.Duration
	strictHooks         bool
	allowUnenforced     bool
	synthesizeLifecycle bool // false with WithoutLifecycleHooks
	hookEvents          bool
	subagentHooks       func(*shared.SubagentStartHookInput) shared.Hooks

	// What the SDK does on its side: logs, observers, limits of the transport.
	logger         *slog.Logger
	observers      []Observer
	onRoundTrip    func(shared.RoundTrip)
	onStderr       func(string)
	maxLineSize    int
	closeGrace     time.Duration
	requestTimeout time.Duration

	// User input: elicitations (elicitation.go) and dialogs (dialog.go).
	onElicitation ElicitationFunc
	onUserDialog  UserDialogFunc
	dialogKinds   []string
	dialogGiven   bool // WithUserDialog was given
	inputTimeout  time.Duration

	// Display declarations (declarations.go).
	perTaskStop       bool
	progressSummaries bool
	promptSuggestions bool
	previewFormat     string // toolConfig.askUserQuestion.previewFormat

	// twice is the error of an option given twice with different values (optiononce.go).
	twice error
}

// defaultConfig returns the defaults that are not a zero value.
func defaultConfig() config {
	return config{
		hookTimeout:         hooks.DefaultTimeout,
		synthesizeLifecycle: true,
	}
}

// newConfig applies opts, in order, to the defaults; nil options are skipped.
func newConfig(opts []Option) config {
	c := defaultConfig()
	given := flattenOptions(opts, false, nil)
	for _, g := range given {
		g.opt.apply(&c)
	}
	c.addPolicyHooks()          // policy.go
	c.twice = givenTwice(given) // optiononce.go; validate reports it first
	return c
}
