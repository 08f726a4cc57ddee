// Package v2 is the session API of agent-sdk-go: start the Claude CLI with Go hooks, send prompts,
// stream typed messages, and close.
//
//	s, err := v2.CreateSession(ctx,
//		v2.WithCwd(project),
//		v2.WithHooks(shared.Hooks{
//			shared.HookEventPreToolUse: {{Matcher: shared.FileWriteToolsMatcher, Handler: shared.OnPreToolUse(check)}},
//		}),
//	)
//	if err != nil { ... }
//	defer s.Close()
//	for msg, err := range s.Query(ctx, "fix the failing test") { ... }
//
// A Session is safe for concurrent use, but only one Receive (or Query, Run) iterates at a time.
//
// # Options by topic
//
// Every option is a With* function that returns an [Option]; options only record, and
// CreateSession validates them all before anything starts. Each states its default; what
// reaches the CLI (flag, settings, initialize field, environment) is in docs/OPTIONS.md. By what
// they configure:
//
//   - Model: [WithModel], [WithFallbackModels], [WithEffort], [WithThinking],
//     [WithMaxThinkingTokens], [WithThinkingDisplay], [WithMaxTurns], [WithMaxBudgetUSD],
//     [WithTaskBudget], [WithBetas].
//   - Prompts and output: [WithSystemPrompt], [WithClaudeCodeSystemPrompt],
//     [WithSystemPromptFile], [WithAppendSystemPrompt], [WithExcludeDynamicSections],
//     [WithPlanModeInstructions], [WithVerbatimPrompts], [WithIncludePartialMessages],
//     [WithJSONSchema], [WithOutputSchemaFor].
//   - Tools and skills: [WithTools], [WithAllowedTools], [WithDisallowedTools],
//     [WithToolAliases], [WithSkills], [WithAllSkills].
//   - Permissions: [WithPermissionMode], [WithCanUseTool], [WithPermissionTimeout],
//     [WithPermissionPromptTool], [WithoutPermissionPrompts], [WithAllowBypassPermissions].
//   - Guards and confinement: [WithPolicy], [WithSandbox], [WithoutOSConfinement].
//   - Hooks: [WithHooks], [WithHook], [WithHookTimeout], [WithStrictHooks],
//     [WithAllowUnenforcedHooks], [WithSubagentHooks], [WithoutLifecycleHooks],
//     [WithHookEvents], [WithCommandHooks], [WithPromptHooks].
//   - MCP servers: [WithMCPServer], [WithMCPStdioServer], [WithMCPSSEServer],
//     [WithMCPHTTPServer], [WithMCPServerSettings].
//   - Sessions: [WithResume], [WithResumeAt], [WithResumeDropsTurn], [WithContinue],
//     [WithForkSession], [WithSessionID], [WithTitle], [WithSessionStore],
//     [WithoutSessionPersistence], [WithFileCheckpointing].
//   - The repository and settings: [WithTrustedProject], [WithTrustedProjectMemory],
//     [WithProjectConfigRoot], [WithoutStrictMCPConfig], [WithSettings], [WithSettingSources],
//     [WithManagedSettings], [WithPluginDirs].
//   - Agents: [WithAgents], [WithMainAgent], [WithSubagentText].
//   - A person in the loop: [WithElicitation], [WithUserDialog], [WithUserInputTimeout],
//     [WithQuestionPreviewFormat], [WithPromptSuggestions], [WithAgentProgressSummaries],
//     [WithPerTaskStopAffordance].
//   - Observing: [WithObserver], [WithRoundTripTrace], [WithTraceContext].
//   - The CLI process: [WithCLIPath], [WithWrapper], [WithSpawner], [WithCwd],
//     [WithAdditionalDirs], [WithEnv], [WithBaseEnv], [WithExtraArgs], [WithLogger],
//     [WithStderr], [WithDebugFile], [WithRequestTimeout], [WithCloseGrace], [WithMaxLineSize].
//   - Grouping options: [WithOptions], [WithDefaults].
//
// Options are named by two rules. An option is With + what it sets (WithModel, WithCwd), and an
// option that loosens a safe default says so: WithAllow..., WithTrusted..., Without...
// (WithAllowUnenforcedHooks, WithTrustedProject, WithoutOSConfinement). An option that takes a
// callback is With + what the callback answers or receives, never WithOn...: WithCanUseTool answers
// the CLI's can_use_tool requests, WithElicitation and WithUserDialog its elicitation and user
// dialog requests, WithSubagentHooks gives a subagent's hooks, WithTraceContext a trace context;
// WithStderr receives the CLI's stderr lines, WithRoundTripTrace each round trip's times, and
// WithObserver an Observer the session's events.
package v2
