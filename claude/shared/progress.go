package shared

import (
	"context"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// HookSource says who ran a hook that a progress event reports.
type HookSource string

const (
	// HookSourceSDK is a Go hook run by this SDK (a HookHandler, including a command run through
	// subprocess.CommandHook).
	HookSourceSDK HookSource = "sdk"
	// HookSourceCLI is a hook the CLI ran itself: a settings command hook, reported by the CLI's
	// system/hook_started and system/hook_response messages.
	HookSourceCLI HookSource = "cli"
)

// HookOutcome says how one hook run ended.
type HookOutcome string

// The outcomes of a hook run. The CLI reports "success", "error" and, for hooks it stopped,
// "cancelled" for its own hooks; other words it may use are passed on as they are.
const (
	HookOutcomeSuccess   HookOutcome = "success"
	HookOutcomeError     HookOutcome = "error"
	HookOutcomePanic     HookOutcome = "panic"
	HookOutcomeTimeout   HookOutcome = "timeout"
	HookOutcomeCancelled HookOutcome = "cancelled"
)

// HookRunInfo names one hook run. HookStarted, HookProgress and HookResponse all carry it, with the
// same HookID, so the three events of one run can be matched.
type HookRunInfo struct {
	// HookID identifies the run: its HookProgress and HookResponse carry the same id. Go hooks have
	// ids "sdk-N"; the CLI's are its own (UUIDs).
	HookID string
	// HookName is the hook's HookConfig.Name, else "Event" or "Event:ToolName"; for the CLI,
	// its hook_name ("PreToolUse:Bash", "SessionStart:startup", "Stop").
	HookName string
	Event    HookEvent
	Source   HookSource
	// Scope is the id of the scope that registered the hook (Session.RegisterScoped), "" for the
	// session's own hooks.
	Scope string
	// ToolName and ToolUseID name the tool call of a tool event (Go hooks only).
	ToolName  string
	ToolUseID string
	// Async is true for the background phase of a hook that answered with Async.
	Async bool
}

// HookStarted is a progress event on a session's stream: a hook began to run. Go hooks report it
// when the session has v2.WithHookEvents; the CLI's command hooks when the CLI writes
// system/hook_started (with --include-hook-events, which WithHookEvents passes, and always for
// SessionStart). No event ever carries a tool's input.
type HookStarted struct {
	HookRunInfo
	// Time is when the SDK saw the run start.
	Time time.Time
	// SessionID and UUID are the CLI's, for CLI hooks.
	SessionID string
	UUID      string
	// Raw is the CLI's line, for CLI hooks.
	Raw jsontext.Value
}

// Type returns "hook_started".
func (*HookStarted) Type() string { return "hook_started" }

// HookProgress is one line of output of a running hook: a line a command hook wrote on stdout or
// stderr as it came (subprocess.CommandHook), or a note a Go hook reported with ReportHookProgress.
// It comes after the run's HookStarted and before its HookResponse.
type HookProgress struct {
	HookRunInfo
	// Stream is "stdout" or "stderr" for a command's output, or what the hook passed to
	// ReportHookProgress.
	Stream string
	// Line is the line, without its newline.
	Line string
	Time time.Time
	// Raw is the CLI's line, for CLI hooks (CLI 2.1.330 was not seen writing progress lines).
	Raw jsontext.Value
}

// Type returns "hook_progress".
func (*HookProgress) Type() string { return "hook_progress" }

// HookResponse is a progress event: a hook run ended. It says how (Outcome), how long it took
// (Duration) and, for a failure, why (Error). It never carries the hook's input or answer. (It is
// not HookResponseMessage, the design spec's hook_response answer line.)
type HookResponse struct {
	HookRunInfo
	Outcome HookOutcome
	// Duration is the run's duration. For CLI hooks it is measured by the SDK between the arrival
	// of hook_started and hook_response (the CLI does not report it).
	Duration time.Duration
	// Error is the failure, for an outcome other than success.
	Error string
	// ExitCode, Stdout, Stderr and Output are what the CLI reports for its command hooks.
	ExitCode *int
	Stdout   string
	Stderr   string
	Output   string
	Time     time.Time
	// SessionID and UUID are the CLI's, for CLI hooks.
	SessionID string
	UUID      string
	Raw       jsontext.Value
}

// Type returns "hook_response". (The design spec's HookResponseMessage has the same type name; it
// is a line the SDK writes, never one on a session's stream.)
func (*HookResponse) Type() string { return "hook_response" }

// HookProgressFunc receives the progress lines of one hook run.
type HookProgressFunc func(stream, line string)

type progressKey struct{}

// WithHookProgress returns a context whose hook progress goes to f. The SDK's executor gives each
// handler such a context when the session reports hook events.
func WithHookProgress(ctx context.Context, f HookProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// HookProgressFrom returns the progress function of ctx, or nil when the session does not report
// hook events.
func HookProgressFrom(ctx context.Context) HookProgressFunc {
	f, _ := ctx.Value(progressKey{}).(HookProgressFunc)
	return f
}

// ReportHookProgress reports a line of progress of the hook whose ctx this is: it becomes a
// HookProgress event on the session's stream when the session reports hook events, and is dropped
// otherwise (it then returns false). It never blocks for long. Lines reported after the hook's run
// ended are dropped.
func ReportHookProgress(ctx context.Context, stream, line string) bool {
	f := HookProgressFrom(ctx)
	if f == nil {
		return false
	}
	f(stream, line)
	return true
}
