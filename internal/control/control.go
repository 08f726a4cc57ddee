// Package control holds the control protocol's messages as the SDK decodes them (claude/parser) and
// answers them (claude/subprocess): requests of the CLI, responses to the SDK's requests, cancels, and
// the design spec's hook_event / hook_response framing. They are the SDK's business, not its users'.
package control

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// HookCallback is the payload of a hook_callback control request.
type HookCallback struct {
	CallbackID string
	// ToolUseID is the request's tool_use_id: the real id for tool events, a synthetic one otherwise.
	ToolUseID string
	Input     shared.HookInput
}

// Request is a request from the CLI (hook_callback, can_use_tool, mcp_message, ...) or, when
// decoding the SDK's own output, from the SDK.
type Request struct {
	RequestID string
	Subtype   string
	// Request is the whole "request" object.
	Request jsontext.Value
	// HookCallback is set for subtype hook_callback, CanUseTool for can_use_tool.
	HookCallback *HookCallback
	CanUseTool   *shared.CanUseTool
	Raw          jsontext.Value
}

// Type returns "control_request".
func (*Request) Type() string { return "control_request" }

// Response answers a control request.
type Response struct {
	RequestID string
	// Subtype is "success" or "error".
	Subtype   string
	Response  jsontext.Value
	Error     string
	ErrorCode string
	Raw       jsontext.Value
}

// Type returns "control_response".
func (*Response) Type() string { return "control_response" }

// CancelRequest says the CLI no longer waits for the answer to one of its requests.
type CancelRequest struct {
	RequestID string
	Raw       jsontext.Value
}

// Type returns "control_cancel_request".
func (*CancelRequest) Type() string { return "control_cancel_request" }

// HookEvent is the design spec's framing of a hook: a "hook_event" line carrying the input
// inline, answered by a "hook_response" line. RequestID is the line's "request_id" or "id", if any.
type HookEvent struct {
	RequestID string
	ToolUseID string
	Input     shared.HookInput
	Raw       jsontext.Value
}

// Type returns "hook_event".
func (*HookEvent) Type() string { return "hook_event" }

// HookResponse is a "hook_response" line: the answer to a hook_event.
type HookResponse struct {
	RequestID     string
	ToolUseID     string
	HookEventName shared.HookEvent
	// Output is the answer's fields (continue, decision, hookSpecificOutput, ...).
	Output jsontext.Value
	Raw    jsontext.Value
}

// Type returns "hook_response".
func (*HookResponse) Type() string { return "hook_response" }
