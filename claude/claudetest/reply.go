package claudetest

import (
	"net/http"
	"time"
)

// ToolUse is one tool_use content block of a model answer.
type ToolUse struct {
	// ID is the tool_use id, e.g. "toolu_01".
	ID string `json:"id"`
	// Name is the tool name, e.g. "Bash".
	Name string `json:"name"`
	// Input is marshalled to JSON as the tool input; nil means {}. A
	// jsontext.Value (or json.RawMessage) is sent as is; LoadScript sets a
	// jsontext.Value.
	Input any `json:"input,omitzero"`
}

// Reply describes one model answer. It is also one entry of a script file
// (see LoadScript), under the JSON names of its fields' tags.
//
// A Reply with a non-zero Status is an HTTP error answer in the Anthropic
// error shape; otherwise the message holds a text block (when Text is not
// empty) followed by one tool_use block per ToolUses entry. The stop_reason is
// "tool_use" when there is at least one tool use, else "end_turn".
type Reply struct {
	// Text is the text block; empty means no text block.
	Text string `json:"text,omitzero"`
	// ToolUses are tool_use blocks, sent after the text block, in order.
	ToolUses []ToolUse `json:"tool_uses,omitzero"`
	// Status, when non-zero, makes this an HTTP error reply with that code.
	Status int `json:"status,omitzero"`
	// ErrorMessage is the error.message of an error reply.
	ErrorMessage string `json:"error_message,omitzero"`
	// RetryAfter, when positive, is sent with an error reply as the headers
	// retry-after (whole seconds, rounded up) and retry-after-ms, which the CLI
	// reads to wait before its next attempt. Zero sends neither: the CLI backs
	// off by itself. A script file spells it "retry_after": "1.5s".
	RetryAfter time.Duration `json:"-"`
	// InputTokens and OutputTokens, when non-zero, are the usage the answer
	// reports instead of an estimate from the sizes (to make an answer as costly
	// as a test needs).
	InputTokens  int `json:"input_tokens,omitzero"`
	OutputTokens int `json:"output_tokens,omitzero"`
	// CacheCreationInputTokens and CacheReadInputTokens are the usage's prompt
	// cache figures, which the CLI counts in its cost; zero by default.
	CacheCreationInputTokens int `json:"cache_creation_input_tokens,omitzero"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens,omitzero"`
}

// TextReply returns a reply with a single text block.
func TextReply(s string) Reply { return Reply{Text: s} }

// ToolReply returns a reply with a single tool_use block.
func ToolReply(id, name string, input any) Reply {
	return Reply{ToolUses: []ToolUse{{ID: id, Name: name, Input: input}}}
}

// ToolsReply returns a reply with several tool_use blocks in one message.
func ToolsReply(uses ...ToolUse) Reply { return Reply{ToolUses: uses} }

// ErrorReply returns an HTTP error reply with the given status and message, in the API's error
// shape: ErrorReply(529, "Overloaded") is the API's overloaded_error, which the CLI retries with
// backoff (each attempt consumes a reply: use Repeat to make it stick).
func ErrorReply(status int, msg string) Reply {
	return Reply{Status: status, ErrorMessage: msg}
}

// RateLimitReply returns the API's rate limit answer: HTTP 429 with a
// rate_limit_error and, when retryAfter is positive, the retry-after headers
// (see Reply.RetryAfter). The CLI waits and retries; each attempt consumes a
// reply.
func RateLimitReply(retryAfter time.Duration) Reply {
	r := ErrorReply(http.StatusTooManyRequests, "This request would exceed your organization's rate limit. Please try again later.")
	r.RetryAfter = retryAfter
	return r
}

// isError reports whether r is an HTTP error reply.
func (r Reply) isError() bool { return r.Status != 0 }

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

// statusOf maps an Anthropic error type to its HTTP status, for an error
// that arrives inside a stream (as an "error" event after the 200 header).
func statusOf(errType string) int {
	for _, s := range []int{400, 401, 403, 404, 413, 429, 529} {
		if errorType(s) == errType {
			return s
		}
	}
	return http.StatusInternalServerError
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
