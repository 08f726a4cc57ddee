package parser

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// Head is what Peek reads of a line: the fields that route it, and those an answer to a request
// needs. A field the line does not have, or has with a value that is not a string, is "".
type Head struct {
	// Type is the line's "type".
	Type string
	// Subtype is a control_request's request.subtype, else the line's own "subtype".
	Subtype string
	// RequestID is the line's "request_id" (control_request, control_cancel_request, hook_event),
	// or, for a hook_event without one, its "id".
	RequestID string
	// CallbackID is a control_request's request.callback_id.
	CallbackID string
	// HookEventName is a control_request's request.input.hook_event_name, else the line's own
	// "hook_event_name" (the spec framing's hook_event).
	HookEventName string
	// ToolUseID is a control_request's request.tool_use_id, else the line's own "tool_use_id".
	ToolUseID string
}

// Peek reads the head of a line without decoding it, for routing it and for answering a request
// that Parse could not decode. It is safe on any input: it never fails and never panics, it reads
// iteratively (a nesting deeper than jsontext's bound of 10000 stops it, however deep the line),
// and it returns what it read before the first syntax error. It does not judge: duplicate names
// and invalid UTF-8 are allowed, and, as with JavaScript's JSON.parse, the last of duplicate names
// counts. Use Parse to decode a line.
func Peek(line []byte) Head {
	var top, req Head
	var inputEvent, id string
	d := jsontext.NewDecoder(bytes.NewBuffer(line), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	_ = members(d, func(name string) error {
		switch name {
		case "type":
			top.Type = readString(d)
		case "subtype":
			top.Subtype = readString(d)
		case "request_id":
			top.RequestID = readString(d)
		case "id":
			id = readString(d)
		case "hook_event_name":
			top.HookEventName = readString(d)
		case "tool_use_id":
			top.ToolUseID = readString(d)
		case "request":
			req = Head{}
			inputEvent = ""
			return members(d, func(name string) error {
				switch name {
				case "subtype":
					req.Subtype = readString(d)
				case "callback_id":
					req.CallbackID = readString(d)
				case "tool_use_id":
					req.ToolUseID = readString(d)
				case "input":
					inputEvent = ""
					return members(d, func(name string) error {
						if name == "hook_event_name" {
							inputEvent = readString(d)
							return nil
						}
						return d.SkipValue()
					})
				default:
					return d.SkipValue()
				}
				return nil
			})
		default:
			return d.SkipValue()
		}
		return nil
	})
	if top.Type == "hook_event" && top.RequestID == "" {
		top.RequestID = id
	}
	if top.Type == "control_request" {
		top.Subtype, top.CallbackID, top.ToolUseID, top.HookEventName = req.Subtype, req.CallbackID, req.ToolUseID, inputEvent
	}
	return top
}

// members reads an object from d and calls f with each member's name, d at the member's value,
// which f must read; a value that is not an object is skipped. It stops at the first error.
func members(d *jsontext.Decoder, f func(name string) error) error {
	if d.PeekKind() != '{' {
		return d.SkipValue()
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadToken()
		if err != nil {
			return err
		}
		if err := f(name.String()); err != nil {
			return err
		}
	}
	_, err := d.ReadToken()
	return err
}

// readString reads the next value from d: the string, or "" for a value of another kind (or an
// error, which the next read reports again).
func readString(d *jsontext.Decoder) string {
	if d.PeekKind() != '"' {
		_ = d.SkipValue()
		return ""
	}
	tok, err := d.ReadToken()
	if err != nil {
		return ""
	}
	return tok.String()
}
