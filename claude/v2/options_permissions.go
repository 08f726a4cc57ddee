package v2

import (
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

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
	return setOption("WithPermissionMode", func(o *config) { o.permissionMode = mode })
}

// WithCanUseTool answers permission prompts with fn (--permission-prompt-tool stdio). An error, a
// panic or a timeout (WithPermissionTimeout) of fn denies; so does an answer whose
// updatedPermissions switch to a permission mode in which fn or a PermissionRequest hook would no
// longer be asked (setMode acceptEdits, auto or bypassPermissions, e.g. in answer to ExitPlanMode;
// ErrGuardCannotFire), unless WithAllowUnenforcedHooks. With PermissionRequest hooks too, the two
// decisions of one tool call are joined and a deny from either wins. Default: none (the CLI denies
// what would need a prompt).
func WithCanUseTool(fn shared.CanUseToolFunc) Option {
	return setOption("WithCanUseTool", func(o *config) { o.canUseTool = fn })
}

// WithPermissionTimeout bounds one run of the WithCanUseTool callback: a callback that has not
// answered by then is denied (fail closed), its ctx ends with the cause shared.ErrPermissionTimeout,
// and its late answer is dropped. A callback that asks a person should set it to how long a person
// may take. Default: 5 s, as a hook's.
func WithPermissionTimeout(d time.Duration) Option {
	return setOption("WithPermissionTimeout", func(o *config) { o.permissionTimeout = d })
}

// WithPermissionPromptTool names an MCP tool that answers the CLI's permission prompts
// (--permission-prompt-tool), e.g. "mcp__auth__approve"; the tool must come from an MCP server of
// the session. Default: none (the CLI denies what would need a prompt). It excludes
// WithCanUseTool, which answers them with a Go function. The tool is a guard as the callback is:
// a permission mode that skips it is ErrGuardCannotFire, and the answer of a tool of an
// in-process server (WithMCPServer) whose updatedPermissions' setMode would switch a guard off is
// made a deny.
func WithPermissionPromptTool(name string) Option {
	return setOption("WithPermissionPromptTool", func(o *config) { o.promptTool = name })
}

// WithoutPermissionPrompts declares that nobody answers permission prompts
// (--permission-prompts=none; the TypeScript SDK's permissionPrompts "none"): what would prompt
// is denied at once, and the model is told the session has no approval surface; the permission
// mode, rules and hooks still decide the rest. Default: the SDK is the host; without
// WithCanUseTool or WithPermissionPromptTool the CLI denies what would prompt too, with a
// plainer message. It excludes WithCanUseTool and WithPermissionPromptTool.
func WithoutPermissionPrompts() Option {
	return setOption("WithoutPermissionPrompts", func(o *config) { o.noPrompts = true })
}

// WithAllowBypassPermissions lets Session.SetPermissionMode switch the session to
// PermissionModeBypassPermissions later (--allow-dangerously-skip-permissions; the TypeScript
// SDK's allowDangerouslySkipPermissions), without starting in it. Default: off, the CLI refuses
// that switch. WithPermissionMode(PermissionModeBypassPermissions) needs no such option. CLI
// 2.1.330 refuses the flag to root (CreateSession fails) unless IS_SANDBOX=1 is in its
// environment.
func WithAllowBypassPermissions() Option {
	return setOption("WithAllowBypassPermissions", func(o *config) { o.allowBypass = true })
}
