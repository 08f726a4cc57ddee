package v2

import (
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// WithHooks registers Go hooks. Handlers of one event run in the order given. Calling it again adds
// to the registrations. Default: none.
func WithHooks(hooks shared.Hooks) Option {
	return setOption("WithHooks", func(o *config) {
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
	return setOption("WithHookTimeout", func(o *config) { o.hookTimeout = d })
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
func WithStrictHooks() Option {
	return setOption("WithStrictHooks", func(o *config) { o.strictHooks = true })
}

// WithAllowUnenforcedHooks lets a session start without its Go hooks: when the CLI refuses the hook
// registration or does not report it applied (hooks_applied), CreateSession succeeds anyway, with
// a warning in Info().Warnings and the log, and no Go hook runs, including those that guard an
// action (PreToolUse, PermissionRequest, UserPromptSubmit, ...): tools then run unguarded. Use it
// only where the hooks are advisory. It also accepts, with a warning, a guard that cannot fire
// (ErrGuardCannotFire): a PermissionRequest hook or WithCanUseTool under a permission mode or
// allow rules that skip the permission prompt (the session's, or an agent's for its subagent
// calls), a PreToolUse or PermissionRequest matcher naming no tool of the CLI, such a
// PermissionRequest hook added by RegisterScoped (a logged warning); and it lets a permission
// answer switch to such a mode (updatedPermissions' setMode). Default: off: CreateSession fails
// with ErrHooksNotEnforced when a hook of
// an event that guards an action (shared.HookEvent.GuardsAction) is not applied, and warns for
// the others; it fails with ErrGuardCannotFire for a guard that cannot fire. It excludes
// WithStrictHooks.
func WithAllowUnenforcedHooks() Option {
	return setOption("WithAllowUnenforcedHooks", func(o *config) { o.allowUnenforced = true })
}

// WithoutLifecycleHooks stops the SDK from producing SessionStart(startup) at CreateSession and
// SessionEnd at Close itself (the CLI sends neither to SDK callbacks). Default: the SDK produces
// them.
func WithoutLifecycleHooks() Option {
	return setOption("WithoutLifecycleHooks", func(o *config) { o.synthesizeLifecycle = false })
}

// WithSubagentHooks gives each subagent the CLI starts its own hooks: at every SubagentStart, fn
// is called with the start's input and the hooks it returns (nil: none) are registered as the scope
// "agent:<agent_id>", bound to that agent (ForAgent): they fire only for that subagent's events and
// end at its SubagentStop. fn runs inside the SubagentStart hook: keep it quick. Hooks fn returns
// that fail validation are logged and not registered (SubagentStart cannot stop a subagent).
// Default: none.
func WithSubagentHooks(fn func(in *shared.SubagentStartHookInput) shared.Hooks) Option {
	return setOption("WithSubagentHooks", func(o *config) { o.subagentHooks = fn })
}

// WithHookEvents makes the session's stream report hooks as they run: a *shared.HookStarted when
// a hook starts, a *shared.HookProgress per output line of a command hook (CommandHandler) or
// per shared.ReportHookProgress of a Go hook, and a *shared.HookResponse when it ends, with its
// outcome (success, error, timeout, panic, cancelled), duration and error text, never a tool's
// input. The Go hooks' events have Source "sdk". The option also passes --include-hook-events, and
// the CLI's own system/hook_started and system/hook_response messages (its settings command hooks)
// arrive as the same types with Source "cli" instead of as *shared.SystemMessage. The events are
// queued without blocking the hook. Default: off, so that the stream stays lean (the CLI still
// writes hook_started/hook_response for its SessionStart command hooks; they then stay
// *shared.SystemMessage).
func WithHookEvents() Option {
	return setOption("WithHookEvents", func(o *config) { o.hookEvents = true })
}

// WithCommandHooks registers settings command hooks, run by the CLI itself (see
// SettingsCommandHook). They are written into the CLI's --settings, merged with WithSettings: the
// user's hooks are kept and these appended, the user's other keys untouched. The merged settings go
// to a temporary file (mode 0600, removed by Close), so that nothing in them shows in the process
// list. Calling it again adds to the registrations. Default: none.
//
// Settings files the program does not own cannot switch these hooks off: the merged settings set
// "disableAllHooks": false, which outranks the user's, the project's and the local settings, and
// CreateSession asks the CLI whether it will run every settings hook and fails with
// ErrHooksNotEnforced when it will not (the machine's managed settings switch hooks off, the CLI
// runs in safe or bare mode) or when a PreToolUse or PermissionRequest hook of the user's, the
// project's or the local settings runs next to them, which could rewrite the input they approved.
// See docs/RELIABILITY.md, "Untrusted repositories".
func WithCommandHooks(hooks map[shared.HookEvent][]SettingsCommandHook) Option {
	return setOption("WithCommandHooks", func(o *config) {
		if o.commandHooks == nil {
			o.commandHooks = map[shared.HookEvent][]SettingsCommandHook{}
		}
		for e, hs := range hooks {
			o.commandHooks[e] = append(o.commandHooks[e], hs...)
		}
	})
}

// WithPromptHooks registers settings prompt hooks, evaluated by the CLI with the model (see
// SettingsPromptHook), merged into --settings as WithCommandHooks. Default: none.
func WithPromptHooks(hooks map[shared.HookEvent][]SettingsPromptHook) Option {
	return setOption("WithPromptHooks", func(o *config) {
		if o.promptHooks == nil {
			o.promptHooks = map[shared.HookEvent][]SettingsPromptHook{}
		}
		for e, hs := range hooks {
			o.promptHooks[e] = append(o.promptHooks[e], hs...)
		}
	})
}
