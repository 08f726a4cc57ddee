package v2

// WithSystemPrompt sets the system prompt (--system-prompt). Default: an empty system prompt, as
// in the official Python and TypeScript SDKs; WithClaudeCodeSystemPrompt (or
// WithAppendSystemPrompt alone) gives the CLI's own instead (some 7 KB with CLI 2.1.330, with the
// tools' instructions and the environment). It excludes WithClaudeCodeSystemPrompt.
func WithSystemPrompt(prompt string) Option {
	return setOption("WithSystemPrompt", func(o *config) { o.systemPrompt = &prompt })
}

// WithClaudeCodeSystemPrompt uses the CLI's own system prompt (the official SDKs' preset
// "claude_code"): Claude Code's instructions for its tools, the environment, CLAUDE.md memory.
// Append to it with WithAppendSystemPrompt. Default: an empty system prompt (see
// WithSystemPrompt). It excludes WithSystemPrompt.
func WithClaudeCodeSystemPrompt() Option {
	return setOption("WithClaudeCodeSystemPrompt", func(o *config) { o.claudeCode = true })
}

// WithSystemPromptFile reads the system prompt from the file at path (--system-prompt-file; the
// Python SDK's system_prompt {"type": "file", "path": ...}): the CLI reads it at startup, so the
// text never shows in the process list. Default: WithSystemPrompt's default, an empty system
// prompt. It excludes WithSystemPrompt and WithClaudeCodeSystemPrompt; WithAppendSystemPrompt
// appends to it.
func WithSystemPromptFile(path string) Option {
	return setOption("WithSystemPromptFile", func(o *config) { o.systemPromptFile = path })
}

// WithAppendSystemPrompt appends text to the system prompt (--append-system-prompt): to the CLI's
// own (WithClaudeCodeSystemPrompt, which it implies: the official SDKs' preset "claude_code" with
// "append"), or to WithSystemPrompt's. Default: nothing appended.
func WithAppendSystemPrompt(text string) Option {
	return setOption("WithAppendSystemPrompt", func(o *config) { o.appendSystemPrompt, o.appendGiven = text, true })
}

// WithExcludeDynamicSections moves the per-user sections of the CLI's own system prompt (the
// working directory, the auto-memory path) into the first user message (the initialize
// request's excludeDynamicSections; the Python SDK's preset exclude_dynamic_sections), so that
// the system prompt is the same for every user and its prompt cache is shared. It needs the
// CLI's own prompt (WithClaudeCodeSystemPrompt, or WithAppendSystemPrompt alone). Default: the
// sections stay in the system prompt.
func WithExcludeDynamicSections() Option {
	return setOption("WithExcludeDynamicSections", func(o *config) { o.excludeDynamic = true })
}

// WithPlanModeInstructions replaces the workflow of the plan-mode system reminder (the
// initialize request's planModeInstructions) while the session is in PermissionModePlan; the CLI
// keeps its read-only preamble and its ExitPlanMode protocol around it. Default: the CLI's
// code-implementation phases.
func WithPlanModeInstructions(text string) Option {
	return setOption("WithPlanModeInstructions", func(o *config) { o.planInstructions = text })
}

// WithVerbatimPrompts sends every prompt (Send, SendContent, SendStream, Query, Run) as written
// (the official SDKs' verbatimPrompts: each user message is marked client_composed): the CLI
// expands no @path file mention and runs no slash command in it. Use it when a prompt holds
// text the end user did not type, so that such text cannot make the CLI read a file into the
// prompt or run a command. CLI 2.1.330 also skips the context it attaches to a turn's first
// request (CLAUDE.md of subdirectories, skill and tool listings, reminders); most of it comes
// after the first tool call. Default: off, prompts are expanded as typed into the CLI.
func WithVerbatimPrompts() Option {
	return setOption("WithVerbatimPrompts", func(o *config) { o.verbatim = true })
}

// WithIncludePartialMessages streams partial model output as *shared.StreamEvent messages
// (--include-partial-messages). Default: off.
func WithIncludePartialMessages() Option {
	return setOption("WithIncludePartialMessages", func(o *config) { o.includePartial = true })
}
