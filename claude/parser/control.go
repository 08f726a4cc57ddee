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
// comes through it.
func decodeControlRequest(line []byte) (shared.Message, error) {
	// This reads, and so checks, the whole line: the request and its input are parts of it.
	top, err := objectMembers(line)
	if err != nil {
		return nil, err
	}
	id, err := optString(top, "request_id")
	if err != nil || id == "" {
		return nil, errors.New("missing request_id")
	}
	request := top["request"]
	if request.Kind() != '{' {
		return nil, errors.New("missing request object")
	}
	req, err := objectMembers(request)
	if err != nil {
		return nil, err
	}
	subtype, err := optString(req, "subtype")
	if err != nil {
		return nil, err
	}
	m := &control.Request{RequestID: id, Subtype: subtype, Request: []byte(request), Raw: line}
	switch subtype {
	case "hook_callback":
		callbackID, err := optString(req, "callback_id")
		if err != nil {
			return nil, err
		}
		toolUseID, err := optString(req, "tool_use_id")
		if err != nil {
			return nil, err
		}
		if req["input"].Kind() != '{' {
			return nil, errors.New("hook_callback without an input object")
		}
		in, err := DecodeHookInput(req["input"])
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

// objectMembers reads the JSON object obj with JSON v2's checks (no duplicate names, valid UTF-8,
// nesting up to 10000, nothing after it) and returns its members' values by name. Each value is a
// part of obj, not a copy; its capacity ends with it, so that an append cannot write into obj.
func objectMembers(obj []byte) (map[string]jsontext.Value, error) {
	d := jsontext.NewDecoder(bytes.NewBuffer(obj))
	if d.PeekKind() != '{' {
		return nil, errors.New("not a JSON object")
	}
	m := make(map[string]jsontext.Value)
	err := members(d, func(name string) error {
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		end := int(d.InputOffset())
		m[name] = jsontext.Value(obj[end-len(v) : end : end])
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return m, nil
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
