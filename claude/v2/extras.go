package v2

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// WithProjectConfigRoot reads the project's settings (permissions, hooks), .mcp.json and .claude
// trees (commands, agents, skills, output styles) from dir, an absolute path, instead of the
// working directory (--project-config-root; the TypeScript SDK's projectConfigRoot): for a
// session run in a worktree or checkout whose own .claude must not decide, dir being the trusted
// checkout. It loads the project's settings (the setting sources default to all three, as with
// WithTrustedProject), and the SDK checks the files of dir and of the working directory before
// the CLI starts (ErrUntrustedProject): the CLI still reads memory files (CLAUDE.md) from the
// working directory. Default: the working directory's, when the project is loaded at all.
func WithProjectConfigRoot(dir string) Option {
	return optionFunc(func(o *config) { o.configRoot = dir })
}

// WithManagedSettings passes restrictive settings at the policy tier (--managed-settings; the
// TypeScript SDK's managedSettings), which user, project, local and WithSettings settings cannot
// loosen: a deny rule there holds whatever the others allow. settingsJSON must be a JSON object
// of restrictive keys only: "permissions" with "deny", "ask", "disableBypassPermissionsMode" or
// "disableAutoMode"; "allowManaged..." true; "disable..." true or "disable"; "enable..." false.
// Any other key is an error: CLI 2.1.330 applies what it is given at that tier, an allow rule
// too (TestRealCLI_ManagedSettings), where the TypeScript SDK drops non-restrictive keys
// silently. "disableAllHooks", "allowManagedHooksOnly" and "strictPluginOnlyCustomization" are
// errors too, whatever their value: at the policy tier they would switch off the session's own
// settings hooks (WithCommandHooks), which nothing can outrank. Default: none beyond the
// machine's managed settings.
func WithManagedSettings(settingsJSON string) Option {
	return optionFunc(func(o *config) { o.managed = settingsJSON })
}

// WithoutPermissionPrompts declares that nobody answers permission prompts
// (--permission-prompts=none; the TypeScript SDK's permissionPrompts "none"): what would prompt
// is denied at once, and the model is told the session has no approval surface; the permission
// mode, rules and hooks still decide the rest. Default: the SDK is the host; without
// WithCanUseTool or WithPermissionPromptTool the CLI denies what would prompt too, with a
// plainer message. It excludes WithCanUseTool and WithPermissionPromptTool.
func WithoutPermissionPrompts() Option {
	return optionFunc(func(o *config) { o.noPrompts = true })
}

// WithResumeDropsTurn, with WithResumeAt, declares the turn the resume means to drop: promptUUID
// is the UUID of that turn's prompt (a shared.UserMessage's, as sessions.Dir.Messages reads it
// back), and the CLI refuses the resume, so that CreateSession fails, when the messages after
// WithResumeAt's hold anything else (another turn, a queued prompt, a task notification)
// (--resume-drops-turn; the official SDKs' resumeDropsTurn). Use it to undo exactly one turn
// without losing more. Default: no check, everything after WithResumeAt's message is dropped. It
// must be a UUID (*SessionIDError).
func WithResumeDropsTurn(promptUUID string) Option {
	return optionFunc(func(o *config) { o.dropsTurn = promptUUID })
}

// WithExcludeDynamicSections moves the per-user sections of the CLI's own system prompt (the
// working directory, the auto-memory path) into the first user message (the initialize
// request's excludeDynamicSections; the Python SDK's preset exclude_dynamic_sections), so that
// the system prompt is the same for every user and its prompt cache is shared. It needs the
// CLI's own prompt (WithClaudeCodeSystemPrompt, or WithAppendSystemPrompt alone). Default: the
// sections stay in the system prompt.
func WithExcludeDynamicSections() Option {
	return optionFunc(func(o *config) { o.excludeDynamic = true })
}

// WithVerbatimPrompts sends every prompt (Send, SendContent, SendStream, Query, Run) as written
// (the official SDKs' verbatimPrompts: each user message is marked client_composed): the CLI
// expands no @path file mention and runs no slash command in it. Use it when a prompt holds
// text the end user did not type, so that such text cannot make the CLI read a file into the
// prompt or run a command. CLI 2.1.330 also skips the context it attaches to a turn's first
// request (CLAUDE.md of subdirectories, skill and tool listings, reminders); most of it comes
// after the first tool call. Default: off, prompts are expanded as typed into the CLI.
func WithVerbatimPrompts() Option {
	return optionFunc(func(o *config) { o.verbatim = true })
}

// WithAllowBypassPermissions lets Session.SetPermissionMode switch the session to
// PermissionModeBypassPermissions later (--allow-dangerously-skip-permissions; the TypeScript
// SDK's allowDangerouslySkipPermissions), without starting in it. Default: off, the CLI refuses
// that switch. WithPermissionMode(PermissionModeBypassPermissions) needs no such option. CLI
// 2.1.330 refuses the flag to root (CreateSession fails) unless IS_SANDBOX=1 is in its
// environment.
func WithAllowBypassPermissions() Option {
	return optionFunc(func(o *config) { o.allowBypass = true })
}

// WithoutSessionPersistence keeps the CLI from writing the session's transcript to disk
// (--no-session-persistence; the official SDKs' persistSession false): nothing is written under
// ~/.claude/projects, so the session cannot be resumed, continued or forked later. Default: the
// transcript is written. It excludes WithSessionStore, which mirrors that transcript.
func WithoutSessionPersistence() Option {
	return optionFunc(func(o *config) { o.noPersist = true })
}

// WithDebugFile writes the CLI's debug log to the file at path (--debug-file, which turns debug
// logging on; the official SDKs' debugFile), creating or appending to it. The log holds the
// CLI's internals (settings, hook and tool decisions, API calls), not prompts' secrets by design,
// but treat it as sensitive. Default: no debug log (WithStderr receives it on stderr instead).
func WithDebugFile(path string) Option {
	return optionFunc(func(o *config) { o.debugFile = path })
}

// WithSystemPromptFile reads the system prompt from the file at path (--system-prompt-file; the
// Python SDK's system_prompt {"type": "file", "path": ...}): the CLI reads it at startup, so the
// text never shows in the process list. Default: WithSystemPrompt's default, an empty system
// prompt. It excludes WithSystemPrompt and WithClaudeCodeSystemPrompt; WithAppendSystemPrompt
// appends to it.
func WithSystemPromptFile(path string) Option {
	return optionFunc(func(o *config) { o.systemPromptFile = path })
}

// ThinkingDisplay is how the model returns its thinking (WithThinkingDisplay,
// Session.SetMaxThinkingTokens).
type ThinkingDisplay string

// Thinking display modes (CLI 2.1.330).
const (
	// ThinkingDisplaySummarized returns summarized thinking text.
	ThinkingDisplaySummarized ThinkingDisplay = "summarized"
	// ThinkingDisplayOmitted returns thinking blocks without their text (the signature only).
	// CLI 2.1.330 sends it as the API's "updates", which it also sends without the option.
	ThinkingDisplayOmitted ThinkingDisplay = "omitted"
	// ThinkingDisplayHighlights returns highlights of the thinking.
	ThinkingDisplayHighlights ThinkingDisplay = "highlights"
)

// WithThinkingDisplay sets how the model returns its thinking (--thinking-display; the official
// SDKs' thinking.display; the request's thinking.display): ThinkingDisplaySummarized,
// ThinkingDisplayOmitted or ThinkingDisplayHighlights. Default: CLI 2.1.330 sends "updates". It
// excludes WithThinking(ThinkingDisabled).
func WithThinkingDisplay(mode ThinkingDisplay) Option {
	return optionFunc(func(o *config) { o.thinkingDisplay = mode })
}

// WithPlanModeInstructions replaces the workflow of the plan-mode system reminder (the
// initialize request's planModeInstructions) while the session is in PermissionModePlan; the CLI
// keeps its read-only preamble and its ExitPlanMode protocol around it. Default: the CLI's
// code-implementation phases.
func WithPlanModeInstructions(text string) Option {
	return optionFunc(func(o *config) { o.planInstructions = text })
}

// WithToolAliases maps tool names the model may call to the tools they stand for (the initialize
// request's toolAliases), e.g. {"Shell": "Bash"}: a call to an alias runs the mapped tool, under
// that tool's name for permission rules, hooks and WithCanUseTool. One hop only. Default: none.
// Names must not be empty, an alias must not map to itself, and a mapped name must not be an
// alias too (the CLI would not follow it).
func WithToolAliases(aliases map[string]string) Option {
	return optionFunc(func(o *config) {
		if o.toolAliases == nil {
			o.toolAliases = map[string]string{}
		}
		for k, v := range aliases {
			o.toolAliases[k] = v
		}
	})
}

// WithTitle sets the session's title (the initialize request's title): the CLI records it in the
// transcript and skips generating one from the first prompt. It does not change the title of a
// resumed session. Default: a title the CLI generates.
func WithTitle(title string) Option {
	return optionFunc(func(o *config) { o.title = title })
}

// WithSubagentText makes the CLI send the text and thinking of subagents as assistant messages
// (the initialize request's forwardSubagentText), each with ParentToolUseID set to the Agent
// tool call that started the subagent. Default: only the subagents' tool calls and results are
// sent.
func WithSubagentText() Option {
	return optionFunc(func(o *config) { o.subagentTxt = true })
}

// checkManagedSettings checks that settings is a JSON object of restrictive keys only (see
// WithManagedSettings).
func checkManagedSettings(settings string) error {
	var top map[string]jsontext.Value
	if err := json.Unmarshal([]byte(settings), &top); err != nil || top == nil {
		return fmt.Errorf("not a JSON object: %.100s", settings)
	}
	for k, v := range top {
		var b any
		_ = json.Unmarshal(v, &b)
		switch {
		case k == "disableAllHooks" || k == "allowManagedHooksOnly" || k == "strictPluginOnlyCustomization":
			// CLI 2.1.330 reads any value but false of disableAllHooks as true on some paths.
			return fmt.Errorf("%s: it would switch off the session's own settings hooks (WithCommandHooks, WithPromptHooks, WithSettings's hooks), which the policy tier outranks; to keep a repository's hooks out, use WithSettingSources without SettingSourceProject and SettingSourceLocal, or WithProjectConfigRoot; Go hooks (WithHooks) are never switched off", k)
		case k == "permissions":
			var p map[string]jsontext.Value
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("permissions: not an object: %w", err)
			}
			for pk := range p {
				switch pk {
				case "deny", "ask", "disableBypassPermissionsMode", "disableAutoMode":
				default:
					return fmt.Errorf("permissions.%s: not a restrictive key (deny, ask, disableBypassPermissionsMode, disableAutoMode)", pk)
				}
			}
		case strings.HasPrefix(k, "allowManaged") && b == true:
		case strings.HasPrefix(k, "disable") && (b == true || b == "disable"):
		case strings.HasPrefix(k, "enable") && b == false:
		default:
			return fmt.Errorf("%s: not a restrictive setting: the CLI would apply it at the policy tier", k)
		}
	}
	return nil
}
