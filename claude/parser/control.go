package parser

import (
	"encoding/json"
	"errors"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// decodeControlRequest decodes a control_request line: every hook callback comes through it, so
// it is on the hot path of each hooked tool call. The line is copied into a string once, and every
// value below is a substring of it (gjson.GetBytes would copy each value it returns); the line and
// its request object are each walked once for the fields (looking each field up by name walked
// them once per field: over the hook input up to three times). The first occurrence of a repeated
// key counts, as with a lookup by name.
func decodeControlRequest(line []byte) (shared.Message, error) {
	s := string(line)
	var id, req gjson.Result
	gjson.Parse(s).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "request_id":
			if !id.Exists() {
				id = v
			}
		case "request":
			if !req.Exists() {
				req = v
			}
		}
		return true
	})
	if id.Type != gjson.String || id.Str == "" {
		return nil, errors.New("missing request_id")
	}
	if !req.IsObject() {
		return nil, errors.New("missing request object")
	}
	var subtype, callbackID, toolUseID, input gjson.Result
	req.ForEach(func(k, v gjson.Result) bool {
		var dst *gjson.Result
		switch k.Str {
		case "subtype":
			dst = &subtype
		case "callback_id":
			dst = &callbackID
		case "tool_use_id":
			dst = &toolUseID
		case "input":
			dst = &input
		default:
			return true
		}
		if !dst.Exists() {
			*dst = v // v.Index is relative to the line, as rawBytes needs
		}
		return true
	})
	reqBytes := rawBytes(line, req)
	switch subtype.String() {
	case "hook_callback":
		if !input.IsObject() {
			return nil, errors.New("hook_callback without an input object")
		}
		in, err := decodeValidHookInput(rawBytes(line, input), input.Raw)
		if err != nil {
			return nil, err
		}
		// The request and its callback in one allocation.
		r := &struct {
			m  shared.ControlRequest
			cb shared.HookCallback
		}{}
		r.m = shared.ControlRequest{RequestID: id.Str, Subtype: "hook_callback", Request: json.RawMessage(reqBytes), Raw: line}
		r.cb = shared.HookCallback{CallbackID: callbackID.String(), ToolUseID: toolUseID.String(), Input: in}
		// PermissionRequest's input has no tool_use_id; the request has it.
		if tc := shared.ToolCall(in); tc != nil && tc.ToolUseID == "" {
			tc.ToolUseID = r.cb.ToolUseID
		}
		r.m.HookCallback = &r.cb
		return &r.m, nil
	case "can_use_tool":
		c := &shared.CanUseTool{}
		if err := json.Unmarshal(reqBytes, c); err != nil {
			return nil, err
		}
		return &shared.ControlRequest{RequestID: id.Str, Subtype: "can_use_tool", Request: json.RawMessage(reqBytes), Raw: line, CanUseTool: c}, nil
	}
	return &shared.ControlRequest{RequestID: id.Str, Subtype: subtype.String(), Request: json.RawMessage(reqBytes), Raw: line}, nil
}
