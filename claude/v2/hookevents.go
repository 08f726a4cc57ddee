package v2

import (
	"strconv"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

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
	return optionFunc(func(o *options) { o.hookEvents = true })
}

// CommandHandler returns a Go hook that runs command through a shell with the command-hook
// protocol (stdin: the input JSON; exit 0: stdout is the answer, JSON or plain text; exit 2: block
// with stderr; any other exit: an error, so events that guard an action — PreToolUse,
// PermissionRequest, UserPromptSubmit, ... — are denied, the others go on). The command's output
// lines are HookProgress events with WithHookEvents. Register it like any handler, e.g.
// {Matcher: "Bash", Handler: v2.CommandHandler("./check.sh", subprocess.CommandHookOptions{})}.
// It is subprocess.CommandHook; see there for the environment and the async two-phase form.
func CommandHandler(command string, opts subprocess.CommandHookOptions) shared.HookHandler {
	return subprocess.CommandHook(command, opts)
}

// emit queues an SDK event on the stream; before the transport runs (the synthesized
// SessionStart) it is kept and queued first once it does.
func (s *Session) emit(m shared.Message) {
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	if s.emitT == nil {
		s.early = append(s.early, m)
		return
	}
	s.emitT.Emit(m)
}

// startEmitting sends the events kept so far to t, and later ones at once.
func (s *Session) startEmitting(t *subprocess.Transport) {
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	s.emitT = t
	for _, m := range s.early {
		t.Emit(m)
	}
	s.early = nil
}

func hookID(r subprocess.HookRun) string { return "sdk-" + strconv.FormatUint(r.ID, 10) }

func hookName(r subprocess.HookRun) string {
	if r.Name != "" {
		return r.Name
	}
	if r.ToolName != "" {
		return string(r.Event) + ":" + r.ToolName
	}
	return string(r.Event)
}

// runInfo names the executor's run r for the hook events.
func runInfo(r subprocess.HookRun) shared.HookRunInfo {
	return shared.HookRunInfo{HookID: hookID(r), HookName: hookName(r), Event: r.Event, Source: shared.HookSourceSDK,
		Scope: r.Scope, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Async: r.Async}
}

// onHookRun is the executor's Observe with WithHookEvents.
func (s *Session) onHookRun(r subprocess.HookRun) {
	if r.Outcome == "" {
		s.emit(&shared.HookStarted{HookRunInfo: runInfo(r), Time: r.Started})
		return
	}
	resp := &shared.HookResponse{HookRunInfo: runInfo(r), Outcome: r.Outcome, Duration: r.Duration, Time: r.Started.Add(r.Duration)}
	if r.Err != nil {
		resp.Error = r.Err.Error()
	}
	s.emit(resp)
}

// onHookProgress is the executor's Progress with WithHookEvents.
func (s *Session) onHookProgress(r subprocess.HookRun, stream, line string) {
	s.emit(&shared.HookProgress{HookRunInfo: runInfo(r), Stream: stream, Line: line, Time: time.Now()})
}
