package v2

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// destination is where an option's value goes.
type destination string

// The destinations of the option table.
const (
	toArgv       destination = "flag"        // a CLI argument, each value in its flag's argument
	toSettings   destination = "settings"    // a key of the merged --settings file (settings.go)
	toInitialize destination = "initialize"  // a field of the initialize request
	toEnv        destination = "environment" // a variable of the CLI's environment
	toTransport  destination = "transport"   // a field of subprocess.Config: a handler or a limit
	toSDK        destination = "sdk"         // the SDK's own side: hooks, observers, the store
)

// optionRow says where the value of one or more options goes: one destination, and the function
// that puts it there (none for a row that only documents, e.g. an option the SDK itself reads).
type optionRow struct {
	// options are the With* functions, as a user writes them; several when they feed one value.
	options string
	to      destination
	// key is the flag, settings key, initialize field, variable or Config field. A flag's key
	// starts with the flag's name, e.g. "--add-dir (once each)" (flagName).
	key string
	// owned marks a flag whose value the session reports or relies on: WithExtraArgs may not pass
	// it (nor one of its aliases) again, as the CLI would take the last value (checkExtraArgs).
	owned bool
	// aliases are the other spellings the CLI reads as the same flag.
	aliases []string

	argv      func(o *config) []string
	env       func(o *config) []string
	init      func(o *config, r *initRequest, first bool)
	settings  func(o *config, d *settingsDoc) error
	transport func(o *config, tc *subprocess.Config)
}

//go:generate go test -run TestOptionsDocTable . -update

// optionTable maps every option to where its value goes. The builders (args, envVars,
// initRequest, mergedSettings, transportConfig in optionbuild.go) walk it in order, so the
// order of the toArgv rows is the order of the CLI's arguments; TestOptionTable checks each row
// against its option, and docs/OPTIONS.md's generated table is written from it
// (TestOptionsDocTable; `go generate ./claude/v2` rewrites it).
//
// To add an option: write its With* (setting fields of config, and nothing else) in the file
// of its topic (options.go lists them) with a doc comment that states "Default: ...", list it
// under its topic in the package doc (doc.go; TestPackageDocListsEveryOption), check its value
// in validate.go, add a row here with the function for its destination (a flag the session
// reports or relies on is owned: WithExtraArgs may not pass it), and a case to optionCases
// (optiontable_test.go); then run `go generate ./claude/v2`.
var optionTable = []optionRow{
	// The CLI's arguments, in this order.
	{options: "WithModel", to: toArgv, key: "--model", owned: true, argv: func(o *config) []string { return flag("--model", o.model) }},
	{options: "WithSystemPrompt, WithClaudeCodeSystemPrompt", to: toArgv, key: "--system-prompt", owned: true, argv: func(o *config) []string {
		if sp, ok := o.systemPromptArg(); ok {
			return []string{"--system-prompt=" + sp}
		}
		return nil
	}},
	{options: "WithAppendSystemPrompt", to: toArgv, key: "--append-system-prompt", owned: true, argv: func(o *config) []string {
		return flag("--append-system-prompt", o.appendSystemPrompt)
	}},
	// CLI 2.1.330 records a conversation's system prompt at its first request and reuses it on
	// resume, ignoring a new --system-prompt or --append-system-prompt; "off" renders it from
	// this launch's flags, so that they (and SessionStart's additionalContext) take effect.
	{options: "WithResume, WithContinue", to: toArgv, key: "--system-prompt-snapshot=off (with a system prompt)", argv: func(o *config) []string {
		if (o.resume != "" || o.continueSession) && (o.systemPrompt != nil || o.appendSystemPrompt != "") {
			return []string{"--system-prompt-snapshot=off"}
		}
		return nil
	}},
	{options: "WithAllowedTools, WithSkills, WithAllSkills", to: toArgv, key: "--allowedTools", owned: true, aliases: []string{"--allowed-tools"}, argv: func(o *config) []string {
		return flag("--allowedTools", strings.Join(o.allowedTools, ","))
	}},
	{options: "WithDisallowedTools", to: toArgv, key: "--disallowedTools", owned: true, aliases: []string{"--disallowed-tools"}, argv: func(o *config) []string {
		return flag("--disallowedTools", strings.Join(o.disallowedTools, ","))
	}},
	{options: "WithPermissionMode", to: toArgv, key: "--permission-mode", owned: true, aliases: []string{"--dangerously-skip-permissions"}, argv: func(o *config) []string { return flag("--permission-mode", string(o.permissionMode)) }},
	{options: "WithMaxTurns", to: toArgv, key: "--max-turns", owned: true, argv: func(o *config) []string { return intFlag("--max-turns", o.maxTurns) }},
	{options: "WithAdditionalDirs", to: toArgv, key: "--add-dir (once each)", argv: func(o *config) []string { return repeated("--add-dir", o.additionalDirs) }},
	{options: "WithResume", to: toArgv, key: "--resume", argv: func(o *config) []string { return flag("--resume", o.resume) }},
	{options: "WithContinue", to: toArgv, key: "--continue", argv: func(o *config) []string { return onOff("--continue", o.continueSession) }},
	{options: "WithForkSession", to: toArgv, key: "--fork-session", argv: func(o *config) []string { return onOff("--fork-session", o.forkSession) }},
	{options: "WithResumeAt", to: toArgv, key: "--resume-session-at", argv: func(o *config) []string { return flag("--resume-session-at", o.resumeAt) }},
	{options: "WithSessionStore", to: toArgv, key: "--session-mirror", argv: func(o *config) []string { return onOff("--session-mirror", o.store != nil) }},
	{options: "WithSessionID", to: toArgv, key: "--session-id", owned: true, argv: func(o *config) []string { return flag("--session-id", o.sessionID) }},
	{options: "WithSettings, WithCommandHooks, WithPromptHooks, WithSandbox", to: toArgv, key: "--settings (the merged settings' temporary file)", owned: true, argv: func(o *config) []string {
		return flag("--settings", o.settings)
	}},
	{options: "WithIncludePartialMessages", to: toArgv, key: "--include-partial-messages", argv: func(o *config) []string { return onOff("--include-partial-messages", o.includePartial) }},
	{options: "WithHookEvents", to: toArgv, key: "--include-hook-events", argv: func(o *config) []string { return onOff("--include-hook-events", o.hookEvents) }},
	{options: "WithCanUseTool", to: toArgv, key: "--permission-prompt-tool=stdio", owned: true, argv: func(o *config) []string { return onOff("--permission-prompt-tool=stdio", o.canUseTool != nil) }},
	// The external servers come in initialize (mcp.go).
	{options: "WithMCPStdioServer, WithMCPSSEServer, WithMCPHTTPServer", to: toArgv, key: "--await-initialize", argv: func(o *config) []string {
		return onOff("--await-initialize", len(o.mcpExternal) > 0)
	}},
	{options: "WithoutStrictMCPConfig", to: toArgv, key: "--strict-mcp-config (unless WithoutStrictMCPConfig)", argv: func(o *config) []string { return onOff("--strict-mcp-config", !o.looseMCP) }},
	{options: "WithJSONSchema, WithOutputSchemaFor", to: toArgv, key: "--json-schema", argv: func(o *config) []string { return flag("--json-schema", string(o.jsonSchema)) }},
	{options: "WithMaxBudgetUSD", to: toArgv, key: "--max-budget-usd", argv: func(o *config) []string {
		if o.maxBudgetUSD > 0 {
			return flag("--max-budget-usd", strconv.FormatFloat(o.maxBudgetUSD, 'f', -1, 64))
		}
		return nil
	}},
	{options: "WithFallbackModels", to: toArgv, key: "--fallback-model", argv: func(o *config) []string {
		return flag("--fallback-model", strings.Join(o.fallbackModels, ","))
	}},
	{options: "WithEffort", to: toArgv, key: "--effort", argv: func(o *config) []string { return flag("--effort", string(o.effort)) }},
	{options: "WithThinking", to: toArgv, key: "--thinking", argv: func(o *config) []string { return flag("--thinking", string(o.thinking)) }},
	{options: "WithMaxThinkingTokens", to: toArgv, key: "--max-thinking-tokens", argv: func(o *config) []string { return intFlag("--max-thinking-tokens", o.maxThinking) }},
	{options: "WithBetas", to: toArgv, key: "--betas", argv: func(o *config) []string { return flag("--betas", strings.Join(o.betas, ",")) }},
	{options: "WithTaskBudget", to: toArgv, key: "--task-budget", argv: func(o *config) []string { return intFlag("--task-budget", o.taskBudget) }},
	{options: "WithTools", to: toArgv, key: "--tools", argv: func(o *config) []string {
		if o.toolsSet {
			return []string{"--tools=" + strings.Join(o.tools, ",")}
		}
		return nil
	}},
	{options: "WithMainAgent", to: toArgv, key: "--agent", argv: func(o *config) []string { return flag("--agent", o.mainAgent) }},
	{options: "WithPluginDirs", to: toArgv, key: "--plugin-dir (once each)", argv: func(o *config) []string { return repeated("--plugin-dir", o.pluginDirs) }},
	{options: "WithPermissionPromptTool", to: toArgv, key: "--permission-prompt-tool", owned: true, argv: func(o *config) []string { return flag("--permission-prompt-tool", o.promptTool) }},
	{options: "WithSettingSources, WithTrustedProject", to: toArgv, key: "--setting-sources (user unless the project is loaded)", owned: true, argv: func(o *config) []string {
		src := o.effectiveSources()
		s := make([]string, len(src))
		for i, v := range src {
			s[i] = string(v)
		}
		return []string{"--setting-sources=" + strings.Join(s, ",")}
	}},
	{options: "WithoutSessionPersistence", to: toArgv, key: "--no-session-persistence", argv: func(o *config) []string { return onOff("--no-session-persistence", o.noPersist) }},
	{options: "WithResumeDropsTurn", to: toArgv, key: "--resume-drops-turn", argv: func(o *config) []string { return flag("--resume-drops-turn", o.dropsTurn) }},
	{options: "WithProjectConfigRoot", to: toArgv, key: "--project-config-root", owned: true, argv: func(o *config) []string { return flag("--project-config-root", o.configRoot) }},
	{options: "WithManagedSettings", to: toArgv, key: "--managed-settings", argv: func(o *config) []string { return flag("--managed-settings", o.managed) }},
	{options: "WithoutPermissionPrompts", to: toArgv, key: "--permission-prompts=none", owned: true, argv: func(o *config) []string { return onOff("--permission-prompts=none", o.noPrompts) }},
	{options: "WithAllowBypassPermissions", to: toArgv, key: "--allow-dangerously-skip-permissions", owned: true, argv: func(o *config) []string {
		return onOff("--allow-dangerously-skip-permissions", o.allowBypass)
	}},
	{options: "WithDebugFile", to: toArgv, key: "--debug-file", argv: func(o *config) []string { return flag("--debug-file", o.debugFile) }},
	{options: "WithSystemPromptFile", to: toArgv, key: "--system-prompt-file", argv: func(o *config) []string { return flag("--system-prompt-file", o.systemPromptFile) }},
	{options: "WithThinkingDisplay", to: toArgv, key: "--thinking-display", argv: func(o *config) []string { return flag("--thinking-display", string(o.thinkingDisplay)) }},
	{options: "WithExtraArgs", to: toArgv, key: "the raw arguments (as given, last)", argv: func(o *config) []string { return o.extraArgs }},

	// The CLI's environment, on top of the base (WithBaseEnv, else os.Environ()).
	{options: "WithFileCheckpointing", to: toEnv, key: FileCheckpointingEnv + "=true", env: func(o *config) []string {
		if o.fileCheckpointing {
			return []string{FileCheckpointingEnv + "=true"}
		}
		return nil
	}},
	{options: "WithQuestionPreviewFormat", to: toEnv, key: "CLAUDE_CODE_QUESTION_PREVIEW_FORMAT", env: func(o *config) []string {
		return flag("CLAUDE_CODE_QUESTION_PREVIEW_FORMAT", o.previewFormat)
	}},
	{options: "WithTraceContext", to: toEnv, key: "TRACEPARENT, TRACESTATE (of CreateSession's ctx)", env: func(o *config) []string { return o.traceContextEnv() }},
	{options: "WithEnv", to: toEnv, key: "KEY=VALUE (over the base)", env: func(o *config) []string { return o.env }},

	// The initialize request (every one the session sends, unless it says "first").
	{options: "WithAgents", to: toInitialize, key: "agents", init: func(o *config, r *initRequest, _ bool) { r.Agents = o.agents }},
	{options: "WithSkills", to: toInitialize, key: "skills", init: func(o *config, r *initRequest, _ bool) { r.Skills = o.skillNames }},
	{options: "WithPlanModeInstructions", to: toInitialize, key: "planModeInstructions", init: func(o *config, r *initRequest, _ bool) { r.PlanModeInstructions = o.planInstructions }},
	{options: "WithToolAliases", to: toInitialize, key: "toolAliases", init: func(o *config, r *initRequest, _ bool) { r.ToolAliases = o.toolAliases }},
	{options: "WithTitle", to: toInitialize, key: "title", init: func(o *config, r *initRequest, _ bool) { r.Title = o.title }},
	{options: "WithSubagentText", to: toInitialize, key: "forwardSubagentText", init: func(o *config, r *initRequest, _ bool) { r.ForwardSubagentText = o.subagentTxt }},
	{options: "WithExcludeDynamicSections", to: toInitialize, key: "excludeDynamicSections", init: func(o *config, r *initRequest, _ bool) {
		r.ExcludeDynamicSections = o.excludeDynamic
	}},
	{options: "WithUserDialog", to: toInitialize, key: "supportedDialogKinds", init: func(o *config, r *initRequest, _ bool) { r.SupportedDialogKinds = o.dialogKinds }},
	{options: "WithPerTaskStopAffordance", to: toInitialize, key: "perTaskStopAffordance", init: func(o *config, r *initRequest, _ bool) { r.PerTaskStopAffordance = o.perTaskStop }},
	{options: "WithAgentProgressSummaries", to: toInitialize, key: "agentProgressSummaries", init: func(o *config, r *initRequest, _ bool) { r.AgentProgressSummaries = o.progressSummaries }},
	{options: "WithPromptSuggestions", to: toInitialize, key: "promptSuggestions", init: func(o *config, r *initRequest, _ bool) { r.PromptSuggestions = o.promptSuggestions }},
	{options: "WithMCPServerSettings", to: toInitialize, key: "sdkMcpServerConfigs (in-process servers; external ones: their mcpServers entry)", init: func(o *config, r *initRequest, _ bool) {
		r.SDKMCPServerConfigs = o.sdkServerConfigs()
	}},
	// The MCP servers are sent in the first initialize only: CLI 2.1.330 keeps them, in-process
	// and external, through the later ones, without reconnecting them
	// (TestE2EMCPServersSurviveReinitialize, TestE2EMCPServersSurviveSubagentReinitialize).
	{options: "WithMCPServer", to: toInitialize, key: "sdkMcpServers (the first initialize)", init: func(o *config, r *initRequest, first bool) {
		if first {
			r.SDKMCPServers = slices.Sorted(maps.Keys(o.mcpInProcess))
		}
	}},
	{options: "WithMCPStdioServer, WithMCPSSEServer, WithMCPHTTPServer", to: toInitialize, key: "mcpServers (the first initialize)", init: func(o *config, r *initRequest, first bool) {
		if first {
			r.MCPServers = o.mcpEntries()
		}
	}},

	// The merged --settings file, in this order.
	{options: "WithSettings", to: toSettings, key: "its keys (the base)", settings: (*config).mergeUserSettings},
	{options: "WithCommandHooks", to: toSettings, key: "hooks (appended)", settings: (*config).mergeCommandHooks},
	{options: "WithPromptHooks", to: toSettings, key: "hooks (appended)", settings: (*config).mergePromptHooks},
	{options: "WithCommandHooks, WithPromptHooks", to: toSettings, key: "disableAllHooks: false (with any hook)", settings: func(_ *config, d *settingsDoc) error { return d.closeHooks() }},
	{options: "WithSandbox", to: toSettings, key: "sandbox", settings: (*config).mergeSandbox},

	// The transport (subprocess.Config).
	{options: "WithCLIPath", to: toTransport, key: "CLIPath (looked up on PATH unless WithWrapper)", transport: func(o *config, tc *subprocess.Config) { tc.CLIPath = o.cliPath }},
	{options: "WithWrapper", to: toTransport, key: "Wrapper", transport: func(o *config, tc *subprocess.Config) { tc.Wrapper = o.wrapper }},
	{options: "WithSpawner", to: toTransport, key: "Spawner", transport: func(o *config, tc *subprocess.Config) { tc.Spawner = o.spawner }},
	{options: "WithCwd", to: toTransport, key: "Dir", transport: func(o *config, tc *subprocess.Config) { tc.Dir = o.cwd }},
	{options: "WithBaseEnv", to: toTransport, key: "BaseEnv", transport: func(o *config, tc *subprocess.Config) { tc.BaseEnv = o.baseEnv }},
	{options: "WithCanUseTool", to: toTransport, key: "CanUseTool", transport: func(o *config, tc *subprocess.Config) { tc.CanUseTool = o.keepGuardsOn(o.canUseTool) }},
	{options: "WithPermissionTimeout", to: toTransport, key: "PermissionTimeout", transport: func(o *config, tc *subprocess.Config) { tc.PermissionTimeout = o.permissionTimeout }},
	{options: "WithStderr", to: toTransport, key: "OnStderr", transport: func(o *config, tc *subprocess.Config) { tc.OnStderr = o.onStderr }},
	{options: "WithMaxLineSize", to: toTransport, key: "MaxLineSize", transport: func(o *config, tc *subprocess.Config) { tc.MaxLineSize = o.maxLineSize }},
	{options: "WithCloseGrace", to: toTransport, key: "CloseGrace", transport: func(o *config, tc *subprocess.Config) { tc.CloseGrace = o.closeGrace }},
	{options: "WithRequestTimeout", to: toTransport, key: "RequestTimeout", transport: func(o *config, tc *subprocess.Config) { tc.RequestTimeout = o.requestTimeout }},
	{options: "WithRoundTripTrace", to: toTransport, key: "OnRoundTrip", transport: func(o *config, tc *subprocess.Config) { tc.OnRoundTrip = o.onRoundTrip }},
	{options: "WithHookEvents", to: toTransport, key: "HookEvents", transport: func(o *config, tc *subprocess.Config) { tc.HookEvents = o.hookEvents }},
	{options: "WithLogger", to: toTransport, key: "Logger (and the session's)", transport: func(o *config, tc *subprocess.Config) { tc.Logger = o.logger }},

	// The SDK's own side.
	{options: "WithOptions", to: toSDK, key: "the options given, applied in order"},
	{options: "WithDefaults", to: toSDK, key: "the options given, applied in order; later options may replace them"},
	{options: "WithHooks, WithHook, WithPolicy", to: toSDK, key: "the hook executor; initialize hooks (one callback per event)"},
	{options: "WithHookTimeout", to: toSDK, key: "the hook executor's timeout of one handler run"},
	{options: "WithTrustedProjectMemory", to: toSDK, key: "the memory files' text, appended to --append-system-prompt before the CLI starts (project.go)"},
	{options: "WithStrictHooks", to: toSDK, key: "CreateSession's checks of the hook registration"},
	{options: "WithAllowUnenforcedHooks", to: toSDK, key: "CreateSession's checks of the hook registration"},
	{options: "WithPolicy, WithoutOSConfinement", to: toSDK, key: "the CLI's kernel confinement: a Landlock ruleset, TMPDIR and CLAUDE_CONFIG_DIR (confine.go)"},
	{options: "WithoutLifecycleHooks", to: toSDK, key: "the SDK's SessionStart and SessionEnd"},
	{options: "WithElicitation", to: toSDK, key: "the answer to the CLI's elicitation requests (declined without it)"},
	{options: "WithUserInputTimeout", to: toSDK, key: "the bound of WithElicitation's and WithUserDialog's callbacks"},
	{options: "WithSubagentHooks", to: toSDK, key: "the hook executor (SubagentStart, SubagentStop)"},
	{options: "WithObserver", to: toSDK, key: "the observer goroutine"},
	{options: "WithSessionStore", to: toSDK, key: "the transcript mirror (store.go)"},
	{options: "WithVerbatimPrompts", to: toSDK, key: "client_composed on every user message"},
}

// flagName is the name of a toArgv row's flag: its key up to "=" or " " ("" for a row that sets
// no flag of its own, e.g. WithExtraArgs's).
func (r optionRow) flagName() string {
	if r.to != toArgv || !strings.HasPrefix(r.key, "--") {
		return ""
	}
	name, _, _ := strings.Cut(r.key, " ")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// ownedFlag says who sets a flag that WithExtraArgs may not pass: the SDK's protocol
// (protocolArgs) or the options of the owned rows of optionTable; flag is the name the row
// gives (an alias's canonical name).
type ownedFlag struct{ flag, options string }

// ownedFlags maps each flag WithExtraArgs may not pass, and each alias of one, to who sets it;
// it is derived from protocolArgs and optionTable.
var ownedFlags = func() map[string]ownedFlag {
	m := map[string]ownedFlag{}
	for _, a := range protocolArgs {
		name, _, _ := strings.Cut(a, "=")
		m[name] = ownedFlag{flag: name}
	}
	for _, r := range optionTable {
		if !r.owned {
			continue
		}
		name := r.flagName()
		opts := strings.ReplaceAll(r.options, ", ", " or ")
		if prev, ok := m[name]; ok { // two rows set one flag (--permission-prompt-tool)
			opts = prev.options + " or " + opts
		}
		for _, n := range append([]string{name}, r.aliases...) {
			m[n] = ownedFlag{flag: name, options: opts}
		}
	}
	return m
}()

// flag returns name=value, or nothing for an empty value.
func flag(name, value string) []string {
	if value == "" {
		return nil
	}
	return []string{name + "=" + value}
}

// intFlag returns name=n for a positive n.
func intFlag(name string, n int) []string {
	if n <= 0 {
		return nil
	}
	return []string{name + "=" + strconv.Itoa(n)}
}

// onOff returns the switch name when on.
func onOff(name string, on bool) []string {
	if !on {
		return nil
	}
	return []string{name}
}

// repeated returns name=v for each value.
func repeated(name string, values []string) []string {
	a := make([]string, 0, len(values))
	for _, v := range values {
		a = append(a, name+"="+v)
	}
	return a
}
