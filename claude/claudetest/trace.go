package claudetest

import (
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// ToolCall is one tool call the CLI reported, as an Env's sessions observed it
// (v2.ToolStarted, then v2.ToolFinished). Its fields are plain values, so that two traces compare
// with go-cmp.
type ToolCall struct {
	// ID is the tool_use id of the Model's reply, e.g. "toolu_01".
	ID string
	// Name is the tool, e.g. "Bash", "Write", "mcp__server__tool".
	Name string
	// Input is the tool input as the CLI reported it (JSON): the model's input parsed by the CLI,
	// with its defaults filled in, before hooks rewrote it.
	Input string
	// Output is the tool_result's text, what the model got back: the tool's output, or for a call
	// that did not run, the reason (a hook's or a permission callback's deny message).
	Output string
	// IsError is the tool_result's is_error: the tool failed, or never ran (denied, interrupted),
	// or the session ended before its result.
	IsError bool
	// Parent is the tool_use id of the Task call whose subagent made this call; "" for the main
	// agent.
	Parent string
}

// Hook is one run of a Go hook handler of an Env's session, with its decision (v2.HookFinished).
// Hooks of the CLI's settings (command hooks) and permission callbacks (v2.WithCanUseTool) are not
// hooks of the session: a callback's deny shows in the ToolCall's IsError and Output.
type Hook struct {
	// Event is the hook event, e.g. shared.HookEventPreToolUse.
	Event shared.HookEvent
	// ToolName and ToolUseID name the tool call of a tool event; "" for other events.
	ToolName  string
	ToolUseID string
	// Outcome is success, error, timeout, panic or cancelled.
	Outcome shared.HookOutcome
	// Decision is the verdict the CLI got: allow, deny, ask, defer for PreToolUse; allow, deny for
	// PermissionRequest; block or approve elsewhere; "" for no opinion. A handler that failed on
	// an event that guards an action is a deny (the SDK fails closed).
	Decision shared.Decision
	// Reason is the decision's reason, as the CLI got it.
	Reason string
}

// trace records what an Env's sessions observed. It is each session's v2.Observer.
type trace struct {
	mu    sync.Mutex
	calls []ToolCall
	open  map[string]int // tool_use id -> index in calls, until its result
	hooks []Hook
}

// Observe records tool calls and hook runs.
func (tr *trace) Observe(o v2.Observation) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch o := o.(type) {
	case *v2.ToolStarted:
		if tr.open == nil {
			tr.open = map[string]int{}
		}
		tr.open[o.ToolUseID] = len(tr.calls)
		tr.calls = append(tr.calls, ToolCall{ID: o.ToolUseID, Name: o.ToolName, Input: string(o.Input), Parent: o.ParentToolUseID})
	case *v2.ToolFinished:
		i, ok := tr.open[o.ToolUseID]
		if !ok { // its ToolStarted was not seen (a resumed session)
			i = len(tr.calls)
			tr.calls = append(tr.calls, ToolCall{ID: o.ToolUseID, Name: o.ToolName, Input: string(o.Input), Parent: o.ParentToolUseID})
		}
		delete(tr.open, o.ToolUseID)
		tr.calls[i].Output, tr.calls[i].IsError = o.ContentText(), o.IsError
	case *v2.HookFinished:
		tr.hooks = append(tr.hooks, Hook{Event: o.Event, ToolName: o.ToolName, ToolUseID: o.ToolUseID,
			Outcome: o.Outcome, Decision: o.Decision, Reason: o.Reason})
	}
}

// ToolCalls returns the tool calls of the env's sessions, in the order the model asked for them.
// A session's calls are complete once it is closed (Run closes it; v2.Session.Close waits for
// every observation); before that, the last ones may still be missing or lack their result.
func (e *Env) ToolCalls() []ToolCall {
	e.trace.mu.Lock()
	defer e.trace.mu.Unlock()
	return append([]ToolCall(nil), e.trace.calls...)
}

// Hooks returns the runs of the env's sessions' Go hook handlers, in the order they ended. Like
// ToolCalls, a session's runs are complete once it is closed.
func (e *Env) Hooks() []Hook {
	e.trace.mu.Lock()
	defer e.trace.mu.Unlock()
	return append([]Hook(nil), e.trace.hooks...)
}
