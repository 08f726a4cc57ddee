package v2

import (
	"strconv"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/internal/commandhook"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// CommandHandler returns a HookHandler that runs command through a shell, with the protocol of
// command hooks (the CLI's settings hooks, the Lime and Gemini CLIs):
//
//   - stdin: the event's input JSON, as the CLI sent it;
//   - environment: the program's, without the variables of a Claude Code session the program
//     runs in (CLAUDECODE, CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_MESSAGING_TOKEN and _SOCKET,
//     CLAUDE_PID, ...; the policy the CLI's environment follows too, docs/HOOKS.md), then
//     opts.Env, HOOK_EVENT, CLAUDE_PROJECT_DIR, CLAUDE_SESSION_ID, and for tool events
//     HOOK_TOOL_NAME and HOOK_TOOL_INPUT (JSON), plus HOOK_TOOL_OUTPUT and HOOK_TOOL_IS_ERROR (0/1)
//     for PostToolUse and PostToolUseFailure. HOOK_TOOL_INPUT and HOOK_TOOL_OUTPUT are left out
//     when larger than 32 KiB, and HOOK_TOOL_INPUT_OMITTED /
//     HOOK_TOOL_OUTPUT_OMITTED then hold their size in bytes: read stdin for the whole input;
//   - exit 0: stdout is the answer: empty is no opinion, plain text becomes a systemMessage, and
//     stdout that starts with "{" is read as the CLI reads a command hook's JSON (exact key names,
//     unknown top-level keys ignored, the CLI's own words approve / block at the top level). JSON
//     the CLI could read otherwise than the SDK (a duplicate key, invalid UTF-8) or cannot read
//     (invalid JSON, a wrong type) is an error: for events that guard an action the SDK denies;
//   - exit 2: block, with stderr as the reason (for PreToolUse a permission deny);
//   - any other exit: a *shared.CommandExitError. For events that guard an action (PreToolUse,
//     PermissionRequest, UserPromptSubmit, ...) the SDK's fail-closed rule denies; for the others
//     it is logged and the agent goes on.
//   - two-phase async (the Goat runner's form): exit 0 with {"async":true,"asyncTimeout":MS}
//     (milliseconds, as the CLI reads it; default shared.DefaultAsyncTimeout) answers "no opinion
//     now" and the command is run a second time in the background, with HOOK_ASYNC_PHASE=1 and
//     that timeout (see shared.AsyncWork). For events that guard an action the SDK refuses the
//     async answer and denies.
//
// The handler's timeout (ctx) kills the command's whole process group. Output beyond
// OutputLimit is cut, never buffered without bound. Each output line also goes, as it comes, to
// opts.Progress and to the session's hook progress events (shared.ReportHookProgress).
//
// Register it like any handler, e.g. {Matcher: "Bash", Handler: v2.CommandHandler("./check.sh",
// shared.CommandHookOptions{})}. The command's output lines are HookProgress events with
// WithHookEvents.
func CommandHandler(command string, opts shared.CommandHookOptions) shared.HookHandler {
	return commandhook.New(command, opts)
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

func hookID(r hooks.HandlerRun) string { return "sdk-" + strconv.FormatUint(r.ID, 10) }

func hookName(r hooks.HandlerRun) string {
	if r.Name != "" {
		return r.Name
	}
	if r.ToolName != "" {
		return string(r.Event) + ":" + r.ToolName
	}
	return string(r.Event)
}

// runInfo names the executor's run r for the hook events.
func runInfo(r hooks.HandlerRun) shared.HookRunInfo {
	return shared.HookRunInfo{HookID: hookID(r), HookName: hookName(r), Event: r.Event, Source: shared.HookSourceSDK,
		Scope: r.Scope, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Async: r.Async}
}

// onHookRun is the executor's Observe: it feeds the turn's refusals, the observers and
// WithHookEvents.
func (s *Session) onHookRun(r hooks.HandlerRun) {
	s.turn.sawHookRun(r)
	if r.Outcome != "" && s.obs != nil {
		s.obs.push(observed{obs: hookFinished(r)})
	}
	if !s.o.hookEvents {
		return
	}
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
func (s *Session) onHookProgress(r hooks.HandlerRun, stream, line string) {
	s.emit(&shared.HookProgress{HookRunInfo: runInfo(r), Stream: stream, Line: line, Time: time.Now()})
}

// hookFinished makes the observers' HookFinished of the ended run r, with the decision the engine
// read from its answer.
func hookFinished(r hooks.HandlerRun) *HookFinished {
	return &HookFinished{At: r.Started.Add(r.Duration), HookRunInfo: runInfo(r), Started: r.Started, Duration: r.Duration,
		Outcome: r.Outcome, Err: r.Err, Decision: r.Decision, Reason: r.Reason}
}
