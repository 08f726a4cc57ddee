package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/internal/control"
)

// decodeControlRequest decodes a control_request line: every hook callback and permission prompt
// comes through it. top is the line as readLine read it (and so checked it, the request and its
// input included).
func decodeControlRequest(line []byte, top *object) (shared.Message, error) {
	id, err := optString(top.members, "request_id")
	if err != nil || id == "" {
		return nil, errors.New("missing request_id")
	}
	req := top.opened
	if req == nil {
		return nil, errors.New("missing request object")
	}
	subtype, err := optString(req.members, "subtype")
	if err != nil {
		return nil, err
	}
	request := top.members["request"]
	m := &control.Request{RequestID: id, Subtype: subtype, Request: []byte(request), Raw: line}
	switch subtype {
	case "hook_callback":
		callbackID, err := optString(req.members, "callback_id")
		if err != nil {
			return nil, err
		}
		toolUseID, err := optString(req.members, "tool_use_id")
		if err != nil {
			return nil, err
		}
		if req.opened == nil {
			return nil, errors.New("hook_callback without an input object")
		}
		in, err := decodeHookInput(req.members["input"], req.opened.members)
		if err != nil {
			return nil, err
		}
		m.HookCallback = &control.HookCallback{CallbackID: callbackID, ToolUseID: toolUseID, Input: in}
		// PermissionRequest's input has no tool_use_id; the request has it.
		if tc := shared.ToolCall(in); tc != nil && tc.ToolUseID == "" {
			tc.ToolUseID = toolUseID
		}
	case "can_use_tool":
		m.CanUseTool = &shared.CanUseTool{}
		if err := json.Unmarshal(request, m.CanUseTool); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func decodeControlResponse(line []byte) (shared.Message, error) {
	var f struct {
		Response jsontext.Value `json:"response"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	if f.Response.Kind() != '{' {
		return nil, errors.New("missing response object")
	}
	var r struct {
		RequestID string         `json:"request_id"`
		Subtype   string         `json:"subtype"`
		Error     string         `json:"error"`
		ErrorCode string         `json:"error_code"`
		Response  jsontext.Value `json:"response"`
	}
	if err := json.Unmarshal(f.Response, &r); err != nil {
		return nil, err
	}
	return &control.Response{
		RequestID: r.RequestID,
		Subtype:   r.Subtype,
		Response:  []byte(r.Response),
		Error:     r.Error,
		ErrorCode: r.ErrorCode,
		Raw:       line,
	}, nil
}

func decodeControlCancel(line []byte) (shared.Message, error) {
	var f struct {
		RequestID *string `json:"request_id"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	if f.RequestID == nil {
		return nil, errors.New("missing request_id")
	}
	return &control.CancelRequest{RequestID: *f.RequestID, Raw: line}, nil
}

// object is a JSON object as readObject reads it: its members' values by name, each a part of
// the line, not a copy, whose capacity ends with it (an append cannot write into the line); and
// the members of the one member it was told to open, when that member is an object.
type object struct {
	members map[string]jsontext.Value
	opened  *object
}

// linePath names the members readLine opens: a control request's request, and its input.
var linePath = []string{"request", "input"}

// readLine reads line with JSON v2's checks (no duplicate names, valid UTF-8, nesting up to 10000,
// nothing after the object), once: its members, and down linePath, the members of the members
// that are objects.
func readLine(line []byte) (*object, error) {
	d := jsontext.NewDecoder(bytes.NewBuffer(line))
	top, _, err := readObject(d, line, linePath)
	if err != nil {
		return nil, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return top, nil
}

// objectMembers reads the JSON object obj as readLine does, opening none of its members, and
// returns its members' values by name.
func objectMembers(obj []byte) (map[string]jsontext.Value, error) {
	d := jsontext.NewDecoder(bytes.NewBuffer(obj))
	o, _, err := readObject(d, obj, nil)
	if err != nil {
		return nil, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return o.members, nil
}

// readObject reads the object at d's position (d reads data) and returns it and its bytes. The
// member named path[0], when it is an object, is read member by member as well, down path[1:].
func readObject(d *jsontext.Decoder, data []byte, path []string) (*object, jsontext.Value, error) {
	if d.PeekKind() != '{' {
		return nil, nil, errors.New("not a JSON object")
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, nil, err
	}
	start := int(d.InputOffset()) - 1
	o := &object{members: make(map[string]jsontext.Value)}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, nil, err
		}
		name := tok.String()
		if len(path) > 0 && name == path[0] && d.PeekKind() == '{' {
			inner, v, err := readObject(d, data, path[1:])
			if err != nil {
				return nil, nil, err
			}
			o.members[name], o.opened = v, inner
			continue
		}
		v, err := d.ReadValue()
		if err != nil {
			return nil, nil, err
		}
		end := int(d.InputOffset())
		o.members[name] = jsontext.Value(data[end-len(v) : end : end])
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, nil, err
	}
	end := int(d.InputOffset())
	return o, jsontext.Value(data[start:end:end]), nil
}

// optString returns the string value of the member name of m: "" if it is absent or null, an error
// if it is not a string.
func optString(m map[string]jsontext.Value, name string) (string, error) {
	var s string
	if v, ok := m[name]; ok {
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
	}
	return s, nil
}
