package parser

import (
	"errors"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// decodeControlRequest decodes a control_request line: every hook callback and permission prompt
// comes through it.
func decodeControlRequest(line []byte) (shared.Message, error) {
	var f struct {
		RequestID jsontext.Value `json:"request_id"`
		Request   jsontext.Value `json:"request"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	var id string
	if f.RequestID.Kind() != '"' || json.Unmarshal(f.RequestID, &id) != nil || id == "" {
		return nil, errors.New("missing request_id")
	}
	if f.Request.Kind() != '{' {
		return nil, errors.New("missing request object")
	}
	var req struct {
		Subtype string `json:"subtype"`
	}
	if err := json.Unmarshal(f.Request, &req); err != nil {
		return nil, err
	}
	m := &shared.ControlRequest{RequestID: id, Subtype: req.Subtype, Request: []byte(f.Request), Raw: line}
	switch req.Subtype {
	case "hook_callback":
		var cb struct {
			CallbackID string         `json:"callback_id"`
			ToolUseID  string         `json:"tool_use_id"`
			Input      jsontext.Value `json:"input"`
		}
		if err := json.Unmarshal(f.Request, &cb); err != nil {
			return nil, err
		}
		if cb.Input.Kind() != '{' {
			return nil, errors.New("hook_callback without an input object")
		}
		in, err := DecodeHookInput(cb.Input)
		if err != nil {
			return nil, err
		}
		m.HookCallback = &shared.HookCallback{CallbackID: cb.CallbackID, ToolUseID: cb.ToolUseID, Input: in}
		// PermissionRequest's input has no tool_use_id; the request has it.
		if tc := shared.ToolCall(in); tc != nil && tc.ToolUseID == "" {
			tc.ToolUseID = cb.ToolUseID
		}
	case "can_use_tool":
		m.CanUseTool = &shared.CanUseTool{}
		if err := json.Unmarshal(f.Request, m.CanUseTool); err != nil {
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
	return &shared.ControlResponse{
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
	return &shared.ControlCancelRequest{RequestID: *f.RequestID, Raw: line}, nil
}
