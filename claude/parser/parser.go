// Package parser turns one line of the CLI's stdout into a typed message. It is pure: no I/O, no
// goroutines, nothing to configure, safe for concurrent use, and fuzzed.
//
// A line is peeked for its type (Peek) and then decoded, whole, with JSON v2
// (github.com/go-json-experiment/json, default options) into the claude/shared type of that type.
// JSON v2 matches names exactly (as JavaScript does: "Command" is not "command"), and rejects
// duplicate names at any depth, invalid UTF-8 and nesting deeper than 10000. So a line that the
// CLI's JSON.parse (where the last of duplicate names wins) and a Go decoder could read
// differently is a *DecodeError, never a value the CLI does not act on; the transport answers a
// request it cannot decode with its event's denial. One deliberate difference: JSON.parse takes a
// lone surrogate escape ("\ud800"), JSON v2 refuses it, and so does Parse (failing closed).
// A type this package does not decode comes through as a *shared.RawMessage, not an error, so
// that a newer CLI does not break old code; so does a line of a typed kind whose shape its type
// does not fit (a system line then is a *shared.SystemMessage). Every kind the TypeScript SDK
// 0.3.332 declares has a type (TestEveryCLIKindTyped walks its list).
package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ErrNotJSON says a line is not a JSON object: it does not start with '{', or JSON's grammar
// rejects it (truncated, trailing data, ...). The transport counts and skips such lines.
var ErrNotJSON = errors.New("parser: line is not a JSON object")

// DecodeError says a line is a JSON object but cannot be decoded: it does not fit its type's
// shape, or it has duplicate names, invalid UTF-8 or nesting deeper than 10000. Type and Subtype
// are as Peek reads them.
type DecodeError struct {
	Type    string
	Subtype string
	Err     error
}

// Error describes the failure.
func (e *DecodeError) Error() string {
	if e.Subtype != "" {
		return fmt.Sprintf("parser: decoding %s/%s: %v", e.Type, e.Subtype, e.Err)
	}
	return fmt.Sprintf("parser: decoding %s: %v", e.Type, e.Err)
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Parse decodes one line (without its newline). It returns ErrNotJSON for a line that is not a JSON
// object, a *DecodeError for a line it cannot decode (a known type with a wrong shape, duplicate
// names, invalid UTF-8, too deep), and a *shared.RawMessage for a valid line of an unknown type.
// It returns a message or an error, never both and never neither. The message may keep line (the
// transport never reuses a line).
func Parse(line []byte) (shared.Message, error) {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, ErrNotJSON
	}
	h := Peek(line)
	m, err := decode(h, line)
	if err == nil {
		return m, nil
	}
	if !grammatical(line) {
		return nil, ErrNotJSON
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return nil, err
	}
	return nil, &DecodeError{Type: h.Type, Subtype: h.Subtype, Err: err}
}

// decode decodes line, whose head is h, by its type.
func decode(h Head, line []byte) (shared.Message, error) {
	switch h.Type {
	case "system":
		return decodeSystem(h.Subtype, line)
	case "assistant":
		return unmarshal(line, &shared.AssistantMessage{Raw: line})
	case "user":
		return decodeUser(line)
	case "result":
		return decodeResult(line)
	case "stream_event":
		return unmarshal(line, &shared.StreamEvent{Raw: line})
	case "control_request":
		return decodeControlRequest(h, line)
	case "control_response":
		return decodeControlResponse(line)
	case "control_cancel_request":
		return decodeControlCancel(line)
	case "hook_event":
		return decodeHookEvent(h, line)
	case "hook_response":
		return decodeHookResponse(line)
	}
	if k, ok := eventKinds[h.Type]; ok {
		if m, err := unmarshal(line, k(line)); err == nil {
			return m, nil
		}
		// A shape its type does not fit (a newer CLI's) comes through as a RawMessage below.
	}
	// Checked in full all the same: a line the SDK passes on must be one JSON.parse reads alike.
	var v jsontext.Value
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, err
	}
	return &shared.RawMessage{MessageType: h.Type, Subtype: h.Subtype, Raw: line}, nil
}

// unmarshal decodes line into m and returns m.
func unmarshal[T shared.Message](line []byte, m T) (shared.Message, error) {
	if err := json.Unmarshal(line, m); err != nil {
		return nil, err
	}
	return m, nil
}

func decodeUser(line []byte) (shared.Message, error) {
	m := &shared.UserMessage{Raw: line}
	if err := json.Unmarshal(line, m); err != nil {
		return nil, err
	}
	if c := m.Message.Content; jsontext.Value(c).Kind() == '[' {
		if err := json.Unmarshal(c, &m.Blocks); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// decodeHookEvent reads the spec framing, whose head is h: the input's fields sit at the top level
// of the line, next to "type" (and an optional "request_id" or "id"), decoded in one pass.
func decodeHookEvent(h Head, line []byte) (shared.Message, error) {
	v := &inputValue{event: shared.HookEvent(h.HookEventName)}
	if err := json.Unmarshal(line, v); err != nil {
		if v.err != nil {
			return nil, v.err
		}
		return nil, &InputError{Reason: err.Error()} // as DecodeHookInput says it
	}
	input, b := v.in, v.in.Base()
	b.Raw = line
	requestID, err := optString(b.Extra, "request_id")
	if err != nil {
		return nil, err
	}
	id, err := optString(b.Extra, "id")
	if err != nil {
		return nil, err
	}
	toolUseID, err := optString(b.Extra, "tool_use_id")
	if err != nil {
		return nil, err
	}
	if tc := shared.ToolCall(input); tc != nil {
		toolUseID = tc.ToolUseID
	}
	m := &HookEventLine{RequestID: requestID, ToolUseID: toolUseID, Input: input, Raw: line}
	if m.RequestID == "" {
		m.RequestID = id
	}
	// type, request_id and id belong to the framing, not to the input; so does tool_use_id for an
	// event that has no such field (it is then only in Extra).
	if b.Extra != nil {
		for _, k := range []string{"type", "request_id", "id", "tool_use_id"} {
			delete(b.Extra, k)
		}
		if len(b.Extra) == 0 {
			b.Extra = nil
		}
	}
	return m, nil
}

func decodeHookResponse(line []byte) (shared.Message, error) {
	var f struct {
		RequestID     string           `json:"request_id"`
		ToolUseID     string           `json:"tool_use_id"`
		HookEventName shared.HookEvent `json:"hook_event_name"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	return &HookResponseLine{RequestID: f.RequestID, ToolUseID: f.ToolUseID, HookEventName: f.HookEventName, Output: line, Raw: line}, nil
}

// grammatical reports whether line is one JSON value by JSON's grammar alone. Duplicate names,
// invalid UTF-8 and a nesting deeper than jsontext's bound pass: Parse reports them as a
// *DecodeError, not as ErrNotJSON, so that a request carrying one is answered, not skipped.
func grammatical(line []byte) bool {
	d := jsontext.NewDecoder(bytes.NewBuffer(line), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		if _, err := d.ReadToken(); err != nil {
			// The bound is the only error past it; a line that deep is a JSON value for this purpose.
			return d.StackDepth() >= maxDepth
		}
		if d.StackDepth() == 0 {
			_, err := d.ReadToken()
			return err == io.EOF
		}
	}
}

// maxDepth is jsontext's bound on nesting (TestDeepNesting checks it).
const maxDepth = 10000
