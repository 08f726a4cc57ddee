package subprocess

import (
	"fmt"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The lines the SDK writes to the CLI, as typed values (encoded by lineWriter.writeJSON:
// encodeOptions for the SDK's own lines, answerOptions for its answers).

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

// ControlRequest is a control request of the SDK to the CLI: a type of one subtype, whose fields
// are the request's members and which names its subtype once, in ControlSubtype; the transport
// writes the "subtype" member (Transport.Request).
type ControlRequest interface {
	ControlSubtype() string
}

// controlRequestLine is a control request of the SDK to the CLI.
type controlRequestLine struct {
	Type      string      `json:"type"`
	RequestID string      `json:"request_id"`
	Request   requestBody `json:"request"`
}

// requestBody is a ControlRequest as the CLI reads it: its members, after "subtype".
type requestBody struct{ req ControlRequest }

// MarshalJSONTo writes the request object with its subtype first.
func (b requestBody) MarshalJSONTo(enc *jsontext.Encoder) error {
	sub := b.req.ControlSubtype()
	raw, err := json.Marshal(b.req, encodeOptions)
	if err != nil {
		return err
	}
	if len(raw) < 2 || raw[0] != '{' {
		return fmt.Errorf("subprocess: control request %s (%T) is not a JSON object", sub, b.req)
	}
	out := make([]byte, 0, len(raw)+len(sub)+16)
	out = append(out, `{"subtype":`...)
	out, err = jsontext.AppendQuote(out, sub)
	if err != nil {
		return err
	}
	if len(raw) > 2 {
		out = append(out, ',')
	}
	out = append(out, raw[1:]...)
	return enc.WriteValue(out)
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
	*hooks.Answer
}

// answerHook answers hook request id (a hook_callback) with a, the engine's answer (nil: {}).
func (t *Transport) answerHook(id string, a *hooks.Answer) {
	if a == nil {
		a = &hooks.Answer{}
	}
	t.answerSuccess(id, a)
}

func (t *Transport) answerSuccess(id string, response any) {
	t.answer(controlResponse{Subtype: "success", RequestID: id, Response: response})
}

func (t *Transport) answerError(id, msg string) {
	t.answer(controlResponse{Subtype: "error", RequestID: id, Error: msg})
}

func (t *Transport) answer(r controlResponse) {
	if err := t.w.writeJSON(controlResponseLine{Type: "control_response", Response: r}, answerOptions); err != nil {
		t.logger.Warn("subprocess: answering a CLI request", "request_id", r.RequestID, "error", err)
	}
}

// writeHookResponse answers a hook_event (the spec framing) with a, the engine's answer (nil: {}).
func (t *Transport) writeHookResponse(requestID, toolUseID string, e shared.HookEvent, a *hooks.Answer) {
	if a == nil {
		a = &hooks.Answer{}
	}
	line := hookResponseLine{Type: "hook_response", RequestID: requestID, ToolUseID: toolUseID, HookEventName: e, Answer: a}
	if err := t.w.writeJSON(line, answerOptions); err != nil {
		t.logger.Warn("subprocess: answering a hook event", "tool_use_id", toolUseID, "error", err)
	}
}
