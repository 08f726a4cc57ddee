package v2

import (
	"log/slog"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Option configures a session. Options only record; CreateSession validates.
//
// Given twice: an option that adds (WithAllowedTools, WithEnv, WithHooks, WithPolicy,
// WithMCPServer, WithObserver, ...) adds each time, and every value counts (two WithPolicy
// compose: both guard). An option that sets one value (WithCwd, WithModel, WithPermissionMode,
// WithCanUseTool, WithLogger, ...) may be given again with the same value; given again with a
// different value, or two options that set the same value differently (WithJSONSchema and
// WithOutputSchemaFor), CreateSession fails with an *OptionError naming them: the SDK does not
// pick one. Options inside WithDefaults are the exception: a later option replaces what they set.
// (An option given its default value, e.g. WithModel(""), counts as not given.)
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(o *config) { f(o) }

// WithOptions groups opts into one Option, applied in order: for a package that configures a
// session in several ways and hands the user one value (e.g. contrib/otel's
// otelagent.Instrument). Nil options are skipped. Default: none.
func WithOptions(opts ...Option) Option { return optionGroup(opts) }

// WithCLIPath sets the CLI binary. Default: $CLAUDE_CLI_PATH, else "claude" on PATH.
func WithCLIPath(path string) Option { return optionFunc(func(o *config) { o.cliPath = path }) }

// WithCwd sets the CLI's working directory (the project). Default: the current directory.
func WithCwd(dir string) Option { return optionFunc(func(o *config) { o.cwd = dir }) }

// WithEnv adds KEY=VALUE variables to the CLI's environment, over the inherited ones. Default:
// none added. CLAUDECODE is always removed so the CLI also starts inside a Claude Code session.
func WithEnv(kv ...string) Option {
	return optionFunc(func(o *config) { o.env = append(o.env, kv...) })
}

// WithBaseEnv replaces the inherited environment (os.Environ()) as the base of the CLI's
// environment with the KEY=VALUE variables kv (none: an empty base), as WithEnv takes them;
// WithEnv's are added on top. Default: os.Environ().
func WithBaseEnv(kv ...string) Option {
	return optionFunc(func(o *config) { o.baseEnv = append([]string{}, kv...) })
}

// WithModel sets the model (--model). Default: the CLI's default.
func WithModel(model string) Option { return optionFunc(func(o *config) { o.model = model }) }

// WithSystemPrompt sets the system prompt (--system-prompt). Default: an empty system prompt, as
// in the official Python and TypeScript SDKs; WithClaudeCodeSystemPrompt (or
// WithAppendSystemPrompt alone) gives the CLI's own instead (some 7 KB with CLI 2.1.330, with the
// tools' instructions and the environment). It excludes WithClaudeCodeSystemPrompt.
func WithSystemPrompt(prompt string) Option {
	return optionFunc(func(o *config) { o.systemPrompt = &prompt })
}

// WithAppendSystemPrompt appends text to the system prompt (--append-system-prompt): to the CLI's
// own (WithClaudeCodeSystemPrompt, which it implies: the official SDKs' preset "claude_code" with
// "append"), or to WithSystemPrompt's. Default: nothing appended.
func WithAppendSystemPrompt(text string) Option {
	return optionFunc(func(o *config) { o.appendSystemPrompt, o.appendGiven = text, true })
}

// WithAllowedTools sets permission rules that allow tools without a prompt (--allowedTools), e.g.
// "Bash", "Read", "Bash(git *)". Default: none.
func WithAllowedTools(tools ...string) Option {
	return optionFunc(func(o *config) { o.allowedTools = append(o.allowedTools, tools...) })
}

// WithDisallowedTools sets rules that deny tools (--disallowedTools). Default: none.
func WithDisallowedTools(tools ...string) Option {
	return optionFunc(func(o *config) { o.disallowedTools = append(o.disallowedTools, tools...) })
}

// PermissionMode is a permission mode of the CLI: how it decides on tool calls no rule or hook
// decides (WithPermissionMode, Session.SetPermissionMode, AgentDefinition.PermissionMode).
type PermissionMode string

// Permission modes the CLI accepts.
const (
	PermissionModeDefault           PermissionMode = "default"
	PermissionModeAcceptEdits       PermissionMode = "acceptEdits"
	PermissionModeBypassPermissions PermissionMode = "bypassPermissions"
	PermissionModeDontAsk           PermissionMode = "dontAsk"
	PermissionModePlan              PermissionMode = "plan"
	PermissionModeAuto              PermissionMode = "auto"
)

// WithPermissionMode sets the permission mode (--permission-mode). Default: the CLI's ("default").
func WithPermissionMode(mode PermissionMode) Option {
	return optionFunc(func(o *config) { o.permissionMode = mode })
}

// WithMaxTurns bounds the model turns per prompt (--max-turns; CLI 2.1.330 honours it although
// its --help no longer lists it). A prompt that needs more ends with a result of subtype
// "error_max_turns" (Run: a *ResultError). Default: no bound.
func WithMaxTurns(n int) Option { return optionFunc(func(o *config) { o.maxTurns = n }) }

// WithAdditionalDirs gives the agent more directories (--add-dir). Default: none.
func WithAdditionalDirs(dirs ...string) Option {
	return optionFunc(func(o *config) { o.additionalDirs = append(o.additionalDirs, dirs...) })
}

// WithResume resumes the session with this id (--resume), a UUID: anything else (the CLI also
// takes a session's name) makes CreateSession fail with a *SessionIDError. Default: a new session.
// The CLI reuses
// the system prompt recorded at the conversation's first request; when the resumed session has
// WithSystemPrompt, WithAppendSystemPrompt or SessionStart additionalContext, the SDK passes
// --system-prompt-snapshot off so that they take effect. With WithSessionStore of a
// sessions.ReadableStore, a session whose transcript is not in the CLI's config directory is
// first copied there from the store (sessions.Dir.CopyFromStore), so that it resumes on a
// machine other than the one that ran it; a local transcript is used as it is.
func WithResume(sessionID string) Option {
	return optionFunc(func(o *config) { o.resume = sessionID })
}

// WithContinue continues the most recent session in the working directory (--continue), or starts
// a new one if there is none. The SDK learns the session's id from the running CLI, so its
// synthesized SessionStart (source resume) runs after the CLI started and its additionalContext is
// dropped, with a warning in Info().Warnings: use WithResume to keep it. Default: off, a new
// session.
func WithContinue() Option { return optionFunc(func(o *config) { o.continueSession = true }) }

// WithForkSession, with WithResume or WithContinue, gives the resumed session a new id. Default:
// off, the resumed session keeps its id.
func WithForkSession() Option { return optionFunc(func(o *config) { o.forkSession = true }) }

// WithSessionID sets the id of a new session (--session-id), a UUID: anything else makes
// CreateSession fail with a *SessionIDError. Default: the SDK makes one, so that the id is known
// from the start.
func WithSessionID(id string) Option { return optionFunc(func(o *config) { o.sessionID = id }) }

// WithSettings passes settings to the CLI at the flag tier (--settings): a JSON object, or the
// path of a file holding one (relative to WithCwd's directory). The SDK always copies them,
// merged with its own settings hooks (WithCommandHooks, WithPromptHooks, WithSandbox), into a
// temporary file (mode 0600, removed by Close) and passes its path, so that the JSON, secrets
// included, never shows on the command line (/proc/PID/cmdline). Settings that are not a JSON
// object are a CreateSession error. Default: none.
func WithSettings(fileOrJSON string) Option {
	return optionFunc(func(o *config) { o.settings = fileOrJSON })
}

// WithIncludePartialMessages streams partial model output as *shared.StreamEvent messages
// (--include-partial-messages). Default: off.
func WithIncludePartialMessages() Option {
	return optionFunc(func(o *config) { o.includePartial = true })
}

// WithExtraArgs appends raw CLI arguments, after the SDK's own, as given: unlike the values of the
// other options (each passed as "--flag=value", so that the CLI cannot read one as a flag), these
// are read by the CLI as flags. Never pass untrusted text here. Default: none.
func WithExtraArgs(args ...string) Option {
	return optionFunc(func(o *config) { o.extraArgs = append(o.extraArgs, args...) })
}

// WithLogger sets the logger. Default: slog.Default(). The SDK never logs tool inputs or
// environment values.
func WithLogger(l *slog.Logger) Option { return optionFunc(func(o *config) { o.logger = l }) }

// WithHooks registers Go hooks. Handlers of one event run in the order given. Calling it again adds
// to the registrations. Default: none.
func WithHooks(hooks shared.Hooks) Option {
	return optionFunc(func(o *config) {
		if o.hooks == nil {
			o.hooks = shared.Hooks{}
		}
		for e, cfgs := range hooks {
			o.hooks[e] = append(o.hooks[e], cfgs...)
		}
	})
}

// WithHook registers one handler for one event; matcher as in shared.HookConfig. Default: none.
func WithHook(event shared.HookEvent, matcher string, handler shared.HookHandler) Option {
	return WithHooks(shared.Hooks{event: {{Matcher: matcher, Handler: handler}}})
}

// WithHookTimeout sets the default timeout of one handler run. Default: 5 s. A handler that
// overruns it is answered with its event's denial for events that guard an action.
func WithHookTimeout(d time.Duration) Option {
	return optionFunc(func(o *config) { o.hookTimeout = d })
}

// WithStrictHooks makes CreateSession fail with ErrHooksNotEnforced whenever Go hooks cannot be
// put in force: the CLI refuses or does not apply the hook registration, whatever the events
// (without it, only hooks that guard an action fail the session, and the others get a warning), or
// hooks were switched off by the AGENT_SDK_HOOKS_ENABLED=false rollback switch. It also makes a
// tool event's matcher that names a tool the CLI does not have (a typo such as "Wirte", a dropped
// tool such as "MultiEdit": see shared.UnknownToolNames) an error wrapping shared.ErrUnknownTool,
// from CreateSession and RegisterScoped; without it such a name is an error (ErrGuardCannotFire,
// naming the running CLI's version) for the events that guard a tool call (PreToolUse,
// PermissionRequest), and a warning in Info().Warnings for the others. Default: off. It excludes
// WithAllowUnenforcedHooks.
func WithStrictHooks() Option { return optionFunc(func(o *config) { o.strictHooks = true }) }

// WithAllowUnenforcedHooks lets a session start without its Go hooks: when the CLI refuses the hook
// registration or does not report it applied (hooks_applied), CreateSession succeeds anyway, with
// a warning in Info().Warnings and the log, and no Go hook runs, including those that guard an
// action (PreToolUse, PermissionRequest, UserPromptSubmit, ...): tools then run unguarded. Use it
// only where the hooks are advisory. It also accepts, with a warning, a guard that cannot fire
// (ErrGuardCannotFire): a PermissionRequest hook or WithCanUseTool under a permission mode or
// allow rules that skip the permission prompt, a PreToolUse or PermissionRequest matcher naming
// no tool of the CLI. Default: off: CreateSession fails with ErrHooksNotEnforced when a hook of
// an event that guards an action (shared.HookEvent.GuardsAction) is not applied, and warns for
// the others; it fails with ErrGuardCannotFire for a guard that cannot fire. It excludes
// WithStrictHooks.
func WithAllowUnenforcedHooks() Option {
	return optionFunc(func(o *config) { o.allowUnenforced = true })
}

// WithCanUseTool answers permission prompts with fn (--permission-prompt-tool stdio). An error, a
// panic or a timeout (WithPermissionTimeout) of fn denies. With PermissionRequest hooks too, the two
// decisions of one tool call are joined and a deny from either wins. Default: none (the CLI denies
// what would need a prompt).
func WithCanUseTool(fn shared.CanUseToolFunc) Option {
	return optionFunc(func(o *config) { o.canUseTool = fn })
}

// WithPermissionTimeout bounds one run of the WithCanUseTool callback: a callback that has not
// answered by then is denied (fail closed), its ctx ends with the cause shared.ErrPermissionTimeout,
// and its late answer is dropped. A callback that asks a person should set it to how long a person
// may take. Default: 5 s, as a hook's.
func WithPermissionTimeout(d time.Duration) Option {
	return optionFunc(func(o *config) { o.permissionTimeout = d })
}

// WithStderr calls fn with each line the CLI writes on stderr. Default: the SDK keeps a tail for
// errors and discards the rest.
func WithStderr(fn func(line string)) Option { return optionFunc(func(o *config) { o.onStderr = fn }) }

// WithMaxLineSize bounds one line of the CLI's output. Default: 100 MiB.
func WithMaxLineSize(n int) Option { return optionFunc(func(o *config) { o.maxLineSize = n }) }

// WithCloseGrace sets how long Close waits for the CLI after closing its stdin, and after SIGTERM.
// Default: 2 s.
func WithCloseGrace(d time.Duration) Option { return optionFunc(func(o *config) { o.closeGrace = d }) }

// WithRequestTimeout bounds the SDK's control requests (initialize, interrupt, set_model, ...).
// Default: 60 s.
func WithRequestTimeout(d time.Duration) Option {
	return optionFunc(func(o *config) { o.requestTimeout = d })
}

// WithoutLifecycleHooks stops the SDK from producing SessionStart(startup) at CreateSession and
// SessionEnd at Close itself (the CLI sends neither to SDK callbacks). Default: the SDK produces
// them.
func WithoutLifecycleHooks() Option {
	return optionFunc(func(o *config) { o.synthesizeLifecycle = false })
}
