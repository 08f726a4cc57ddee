package v2

import (
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"sync"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Errors a *ResultError matches with errors.Is when its turn was refused
// (shared.ResultMessage.Refusals), one for each kind of refusal.
var (
	// ErrPromptBlocked: a UserPromptSubmit hook blocked the prompt; the model never saw it.
	ErrPromptBlocked = errors.New("v2: prompt blocked by a hook")
	// ErrPermissionDenied: every tool call the turn asked for was refused; none ran.
	ErrPermissionDenied = errors.New("v2: permission denied")
	// ErrGuardFailed: a hook that guards an action failed (an error, a panic, a timeout, an
	// output that does not fit its event), and the SDK refused the action in its place
	// (fail-closed). errors.As finds the hook's *shared.HookError.
	ErrGuardFailed = errors.New("v2: a guard hook failed and its action was denied (fail-closed)")
)

// refusalErr is the sentinel of a refusal's kind.
func refusalErr(k shared.RefusalKind) error {
	switch k {
	case shared.RefusalPromptBlocked:
		return ErrPromptBlocked
	case shared.RefusalPermissionDenied:
		return ErrPermissionDenied
	case shared.RefusalGuardFailed:
		return ErrGuardFailed
	}
	return nil
}

// turnWatch gathers what refused the current turn, from its messages (see, on the transport's
// reader goroutine) and its hook runs (sawHookRun, on the hooks' goroutines), and puts it on the
// turn's result before anyone reads it.
type turnWatch struct {
	mu       sync.Mutex
	refusals []shared.Refusal // blocked prompts and failed guards, in order
	toolUses []string         // the ids of the tool calls the model asked for
}

// sawHookRun records a guard that failed closed. A cancelled run (the CLI withdrew the request,
// or the session closed) refuses nothing the user asked for; PreModelSwitch guards SetModel,
// which reports its own refusal.
func (w *turnWatch) sawHookRun(r hooks.HandlerRun) {
	switch {
	case r.Outcome == "", r.Outcome == shared.HookOutcomeSuccess, r.Outcome == shared.HookOutcomeCancelled,
		r.Async, r.Err == nil, !r.Event.GuardsAction(), r.Event == shared.HookEventPreModelSwitch:
		return
	}
	w.mu.Lock()
	w.refusals = append(w.refusals, shared.Refusal{Kind: shared.RefusalGuardFailed, Reason: r.Err.Error(),
		Event: r.Event, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Err: r.Err})
	w.mu.Unlock()
}

// see reads one message of the stream. A result takes the turn's refusals, and the watch starts
// over for the next turn.
func (w *turnWatch) see(m shared.Message) {
	switch v := m.(type) {
	case *shared.SystemMessage:
		if v.Subtype == "informational" {
			if r, ok := promptBlock(v); ok {
				w.mu.Lock()
				w.refusals = append(w.refusals, r)
				w.mu.Unlock()
			}
		}
	case *shared.AssistantMessage:
		w.mu.Lock()
		for _, b := range v.Message.Content {
			if b.Type == "tool_use" {
				w.toolUses = append(w.toolUses, b.ID)
			}
		}
		w.mu.Unlock()
	case *shared.ResultMessage:
		w.mu.Lock()
		refusals, uses := w.refusals, w.toolUses
		w.refusals, w.toolUses = nil, nil
		w.mu.Unlock()
		v.Refusals = append(refusals, allDenied(v, uses)...)
	}
}

// promptBlock reads the notice CLI 2.1.330 writes when UserPromptSubmit stops a prompt:
// a system/informational with prompt_submit_outcome (kind "blocked_by_hook" with the hook's
// reason, or "no_verdict" when the hook failed or timed out) and prevent_continuation.
func promptBlock(m *shared.SystemMessage) (shared.Refusal, bool) {
	var n struct {
		PreventContinuation bool `json:"prevent_continuation"`
		Outcome             *struct {
			Kind          string `json:"kind"`
			Reason        string `json:"reason"`
			NoVerdictKind string `json:"no_verdict_kind"`
		} `json:"prompt_submit_outcome"`
	}
	if json.Unmarshal(m.Raw, &n) != nil || n.Outcome == nil || !(n.PreventContinuation || n.Outcome.Kind == "blocked_by_hook" || n.Outcome.Kind == "no_verdict") {
		return shared.Refusal{}, false
	}
	reason := n.Outcome.Reason
	if reason == "" {
		reason = n.Outcome.NoVerdictKind
	}
	if reason == "" {
		reason = m.Content
	}
	return shared.Refusal{Kind: shared.RefusalPromptBlocked, Event: shared.HookEventUserPromptSubmit, Reason: reason}, true
}

// allDenied returns a permission_denied refusal for each of r's permission denials when they were
// every tool call the turn asked for (uses), so that none ran; nil when any ran or none was asked.
func allDenied(r *shared.ResultMessage, uses []string) []shared.Refusal {
	denied := r.Denials()
	if len(denied) == 0 {
		return nil
	}
	ids := make(map[string]bool, len(denied))
	for _, d := range denied {
		ids[d.ToolUseID] = true
	}
	for _, id := range uses {
		if !ids[id] {
			return nil
		}
	}
	out := make([]shared.Refusal, 0, len(denied))
	for _, d := range denied {
		out = append(out, shared.Refusal{Kind: shared.RefusalPermissionDenied, ToolName: d.ToolName, ToolUseID: d.ToolUseID,
			Reason: "permission denied"})
	}
	return out
}
