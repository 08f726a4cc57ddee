package claudetest

// ToolUse is one tool_use content block of a model answer.
type ToolUse struct {
	// ID is the tool_use id, e.g. "toolu_01".
	ID string
	// Name is the tool name, e.g. "Bash".
	Name string
	// Input is marshalled to JSON as the tool input; nil means {}.
	// A json.RawMessage is sent as is.
	Input any
}

// Reply describes one model answer.
//
// A Reply with a non-zero Status is an HTTP error answer in the Anthropic
// error shape; otherwise the message holds a text block (when Text is not
// empty) followed by one tool_use block per ToolUses entry. The stop_reason is
// "tool_use" when there is at least one tool use, else "end_turn".
type Reply struct {
	// Text is the text block; empty means no text block.
	Text string
	// ToolUses are tool_use blocks, sent after the text block, in order.
	ToolUses []ToolUse
	// Status, when non-zero, makes this an HTTP error reply with that code.
	Status int
	// ErrorMessage is the error.message of an error reply.
	ErrorMessage string
	// InputTokens and OutputTokens, when non-zero, are the usage the answer reports instead of
	// an estimate from the sizes (to make an answer as costly as a test needs).
	InputTokens, OutputTokens int
}

// TextReply returns a reply with a single text block.
func TextReply(s string) Reply { return Reply{Text: s} }

// ToolReply returns a reply with a single tool_use block.
func ToolReply(id, name string, input any) Reply {
	return Reply{ToolUses: []ToolUse{{ID: id, Name: name, Input: input}}}
}

// ToolsReply returns a reply with several tool_use blocks in one message.
func ToolsReply(uses ...ToolUse) Reply { return Reply{ToolUses: uses} }

// ErrorReply returns an HTTP error reply with the given status and message.
func ErrorReply(status int, msg string) Reply {
	return Reply{Status: status, ErrorMessage: msg}
}

// IsError reports whether r is an HTTP error reply.
func (r Reply) IsError() bool { return r.Status != 0 }

// stopReason is the message stop_reason for r.
func (r Reply) stopReason() string {
	if len(r.ToolUses) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// errorType maps an HTTP status to the Anthropic error type.
func errorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

// Repeat returns n copies of r. Use it to answer every attempt of a request
// the CLI retries: on an HTTP 400 it sends the same turn up to 6 times, and
// each attempt consumes a scripted reply.
func Repeat(n int, r Reply) []Reply {
	out := make([]Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}
