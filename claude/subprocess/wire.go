package subprocess

import (
	"github.com/hookwire/agent-sdk-go/claude/internal/wire"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The lines the SDK writes to the CLI, as typed values (encoded by lineWriter.writeJSON).

// UserMessage is a prompt as written on stdin.
type UserMessage struct {
	Type            string      `json:"type"`
	Message         UserContent `json:"message"`
	ParentToolUseID *string     `json:"parent_tool_use_id"`
	SessionID       string      `json:"session_id"`
}

// UserContent is the message of a UserMessage: a string or content blocks.
type UserContent struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// controlRequestLine is a control request of the SDK to the CLI.
type controlRequestLine struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

// controlResponseLine answers a CLI request.
type controlResponseLine struct {
	Type     string          `json:"type"`
	Response controlResponse `json:"response"`
}

type controlResponse struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// hookResponseLine is the spec framing's answer to a hook_event.
type hookResponseLine struct {
	Type          string           `json:"type"`
	RequestID     string           `json:"request_id,omitempty"`
	ToolUseID     string           `json:"tool_use_id,omitempty"`
	HookEventName shared.HookEvent `json:"hook_event_name"`
	*wire.HookOutput
}

// blockAnswer is the answer of last resort, when not even an event's denial can be encoded: a
// top-level block, never an allow.
type blockAnswer struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

var lastResortBlock = blockAnswer{Decision: "block", Reason: "invalid hook output; denied by the SDK"}

// wireAnswer returns a hook's answer as the CLI reads it for event e. A *shared.SyncHookOutput is
// a chain's answer or an event's denial, already in wire.Normalize's form (ChainResult.Output):
// it is encoded as it is. Anything else is checked by wire.Output: an output that does not fit e
// is replaced by e's denial (or {} for events that do not guard an action), and that failing too,
// by a top-level block.
func (t *Transport) wireAnswer(e shared.HookEvent, out shared.HookOutput) any {
	if s, ok := out.(*shared.SyncHookOutput); ok && s != nil {
		return wire.Encode(e, s)
	}
	w, err := wire.Output(e, out)
	if err == nil {
		return w
	}
	t.logger.Warn("subprocess: invalid hook output", "event", string(e), "error", err)
	if w, err := wire.Output(e, wire.Deny(e, "invalid hook output: "+err.Error())); err == nil {
		return w
	}
	return lastResortBlock
}

// answerHook answers hook request id (a hook_callback) with out, encoded for event e.
func (t *Transport) answerHook(id string, e shared.HookEvent, out shared.HookOutput) {
	t.answerSuccess(id, t.wireAnswer(e, out))
}

func (t *Transport) answerSuccess(id string, response any) {
	t.answer(controlResponse{Subtype: "success", RequestID: id, Response: response})
}

func (t *Transport) answerError(id, msg string) {
	t.answer(controlResponse{Subtype: "error", RequestID: id, Error: msg})
}

func (t *Transport) answer(r controlResponse) {
	if err := t.w.writeJSON(controlResponseLine{Type: "control_response", Response: r}); err != nil {
		t.logger.Warn("subprocess: answering a CLI request", "request_id", r.RequestID, "error", err)
	}
}

// writeHookResponse answers a hook_event (the spec framing).
func (t *Transport) writeHookResponse(requestID, toolUseID string, e shared.HookEvent, out shared.HookOutput) {
	line := hookResponseLine{Type: "hook_response", RequestID: requestID, ToolUseID: toolUseID, HookEventName: e}
	switch w := t.wireAnswer(e, out).(type) {
	case *wire.HookOutput:
		line.HookOutput = w
	default:
		line.HookOutput = &wire.HookOutput{Decision: lastResortBlock.Decision, Reason: lastResortBlock.Reason}
	}
	if err := t.w.writeJSON(line); err != nil {
		t.logger.Warn("subprocess: answering a hook event", "tool_use_id", toolUseID, "error", err)
	}
}
