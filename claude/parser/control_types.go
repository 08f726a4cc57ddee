package parser

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The control protocol's messages as Parse returns them: requests of the CLI (hook_callback,
// can_use_tool, mcp_message, ...), responses to the SDK's requests, cancels, and the design spec's
// hook_event / hook_response framing. They are the transport's business (claude/subprocess
// answers them), not a session's: a session's stream never carries them.

// ControlRequest is a request from the CLI (hook_callback, can_use_tool, mcp_message, ...) or, when
// decoding the SDK's own output, from the SDK. Parse decodes it in one pass, its request into the
// type its subtype needs.
type ControlRequest struct {
	RequestID string
	Subtype   string
	// Request is the whole "request" object (a part of Raw).
	Request jsontext.Value
	// HookCallback is set for subtype hook_callback, CanUseTool for can_use_tool, MCP for
	// mcp_message.
	HookCallback *HookCallback
	CanUseTool   *shared.CanUseTool
	MCP          *MCPMessage
	Raw          jsontext.Value
}

// Type returns "control_request".
func (*ControlRequest) Type() string { return "control_request" }

// HookCallback is the request of a hook_callback control request.
type HookCallback struct {
	CallbackID string
	// ToolUseID is the request's tool_use_id: the real id for tool events, a synthetic one otherwise.
	ToolUseID string
	Input     shared.HookInput
}

// MCPMessage is the request of an mcp_message control request: one JSON-RPC message for the
// in-process MCP server ServerName.
type MCPMessage struct {
	ServerName string         `json:"server_name"`
	Message    jsontext.Value `json:"message"`
}

// ControlResponse answers a control request.
type ControlResponse struct {
	RequestID string
	// Subtype is "success" or "error".
	Subtype   string
	Response  jsontext.Value
	Error     string
	ErrorCode string
	Raw       jsontext.Value
}

// Type returns "control_response".
func (*ControlResponse) Type() string { return "control_response" }

// ControlCancel says the CLI no longer waits for the answer to one of its requests.
type ControlCancel struct {
	RequestID string
	Raw       jsontext.Value
}

// Type returns "control_cancel_request".
func (*ControlCancel) Type() string { return "control_cancel_request" }

// HookEventLine is the design spec's framing of a hook: a "hook_event" line carrying the input
// inline, answered by a "hook_response" line. RequestID is the line's "request_id" or "id", if any.
type HookEventLine struct {
	RequestID string
	ToolUseID string
	Input     shared.HookInput
	Raw       jsontext.Value
}

// Type returns "hook_event".
func (*HookEventLine) Type() string { return "hook_event" }

// HookResponseLine is a "hook_response" line: the answer to a hook_event.
type HookResponseLine struct {
	RequestID     string
	ToolUseID     string
	HookEventName shared.HookEvent
	// Output is the answer's fields (continue, decision, hookSpecificOutput, ...).
	Output jsontext.Value
	Raw    jsontext.Value
}

// Type returns "hook_response".
func (*HookResponseLine) Type() string { return "hook_response" }
