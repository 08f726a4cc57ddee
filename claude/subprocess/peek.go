package subprocess

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// requestHead is what can be read of a request line that could not be decoded (cut short, too
// long, or of the wrong shape): enough to answer it.
type requestHead struct {
	Type       string // "control_request" or "hook_event"
	RequestID  string // request_id (hook_event: request_id or id)
	Subtype    string // request.subtype
	CallbackID string // request.callback_id
	ToolUseID  string // request.tool_use_id, or the hook_event's tool_use_id
	Event      string // hook_event_name (request.input's, or the hook_event's)
}

// peekLimit bounds how much of a line peekRequest reads: the CLI writes a request's envelope
// first, and a bound keeps the work on a huge line small.
const peekLimit = 64 << 10

// peekRequest reads the envelope of a request line token by token, up to the first syntax error
// or peekLimit bytes, whichever comes first: a truncated line still yields the fields before the
// cut. The tokenizer keeps no recursion (nesting costs no stack) and stops at its depth limit.
// A key given twice stops the reading (the CLI's JSON.parse would take the last value): what was
// read before stands, which can only lead to a denial or an error answer.
func peekRequest(line []byte) requestHead {
	var h requestHead
	dec := jsontext.NewDecoder(bytes.NewReader(line[:min(len(line), peekLimit)]))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return h
	}
	readObject(dec, func(path, val string) {
		switch path {
		case "type":
			h.Type = val
		case "request_id":
			h.RequestID = val
		case "id":
			if h.RequestID == "" {
				h.RequestID = val
			}
		case "request.subtype":
			h.Subtype = val
		case "request.callback_id":
			h.CallbackID = val
		case "request.tool_use_id", "tool_use_id":
			h.ToolUseID = val
		case "request.input.hook_event_name", "hook_event_name":
			h.Event = val
		}
	}, "")
	return h
}

// readObject reads the members of the object whose '{' was just read, calling str for each string
// member (with its dotted path) at most two levels down, and skipping everything else. It returns
// false at the first error.
func readObject(dec *jsontext.Decoder, str func(path, val string), prefix string) bool {
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return false
		}
		if tok.Kind() == '}' {
			return true
		}
		path := prefix + tok.String()
		switch dec.PeekKind() {
		case '"':
			v, err := dec.ReadToken()
			if err != nil {
				return false
			}
			str(path, v.String())
		case '{':
			if strings.Count(path, ".") >= 2 {
				if dec.SkipValue() != nil {
					return false
				}
				continue
			}
			if _, err := dec.ReadToken(); err != nil || !readObject(dec, str, path+".") {
				return false
			}
		default:
			if dec.SkipValue() != nil {
				return false
			}
		}
	}
}

// event returns the hook event of a hook request: the one named in its input, or else the one its
// callback id ("hook_<Event>") was registered for.
func (h requestHead) event() shared.HookEvent {
	if e := shared.HookEvent(h.Event); e.IsKnown() {
		return e
	}
	if e, ok := callbackEvent(h.CallbackID); ok {
		return e
	}
	return shared.HookEvent(h.Event)
}

// callbackEvent returns the event the SDK registered callback id for: the SDK registers one
// callback per event, "hook_<Event>" (see claude/v2's initialize).
func callbackEvent(id string) (shared.HookEvent, bool) {
	name, ok := strings.CutPrefix(id, "hook_")
	if !ok || !shared.HookEvent(name).IsKnown() {
		return "", false
	}
	return shared.HookEvent(name), true
}
