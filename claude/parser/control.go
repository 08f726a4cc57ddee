package parser

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// decodeControlRequest decodes a control_request line, whose head is h, in one pass: every hook
// callback and permission prompt comes through it. Its request is decoded into the type its
// subtype needs, and a hook callback's input into its event's type.
func decodeControlRequest(h Head, line []byte) (shared.Message, error) {
	req := &requestValue{line: line}
	var hc struct {
		CallbackID string      `json:"callback_id"`
		ToolUseID  string      `json:"tool_use_id"`
		Input      *inputValue `json:"input"`
	}
	switch h.Subtype {
	case "hook_callback":
		hc.Input = &inputValue{event: shared.HookEvent(h.HookEventName), line: line}
		req.into = &hc
	case "can_use_tool":
		req.into = &shared.CanUseTool{}
	case "mcp_message":
		req.into = &MCPMessage{}
	}
	var f struct {
		RequestID string        `json:"request_id"`
		Request   *requestValue `json:"request"`
	}
	f.Request = req
	if err := json.Unmarshal(line, &f); err != nil {
		if hc.Input != nil && hc.Input.err != nil {
			return nil, hc.Input.err
		}
		return nil, err
	}
	switch {
	case f.RequestID == "":
		return nil, errors.New("missing request_id")
	case f.Request == nil || f.Request.raw == nil:
		return nil, errors.New("missing request object")
	}
	m := &ControlRequest{RequestID: f.RequestID, Subtype: h.Subtype, Request: req.raw, Raw: line}
	switch v := req.into.(type) {
	case *shared.CanUseTool:
		m.CanUseTool = v
	case *MCPMessage:
		m.MCP = v
	case nil:
	default:
		if hc.Input == nil || hc.Input.in == nil {
			return nil, errors.New("hook_callback without an input object")
		}
		in := hc.Input.in
		m.HookCallback = &HookCallback{CallbackID: hc.CallbackID, ToolUseID: hc.ToolUseID, Input: in}
		// PermissionRequest's input has no tool_use_id; the request has it.
		if tc := shared.ToolCall(in); tc != nil && tc.ToolUseID == "" {
			tc.ToolUseID = hc.ToolUseID
		}
	}
	return m, nil
}

// requestValue decodes a control request's request object into into (nil: only checked), and
// keeps its bytes, a part of line, in raw.
type requestValue struct {
	line []byte
	into any
	raw  jsontext.Value
}

// UnmarshalJSONFrom decodes the request at d's position.
func (r *requestValue) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() != '{' {
		return errors.New("the request is not an object")
	}
	start := d.InputOffset()
	if r.into != nil {
		if err := json.UnmarshalDecode(d, r.into); err != nil {
			return err
		}
	} else if err := d.SkipValue(); err != nil {
		return err
	}
	end := d.InputOffset()
	r.raw = jsontext.Value(bytes.TrimLeft(r.line[start:end:end], " \t\r\n:"))
	return nil
}

// decodeControlResponse decodes a control_response line in one pass: the response object is
// decoded where it stands in the line (responseBody), not cut out and decoded again.
func decodeControlResponse(line []byte) (shared.Message, error) {
	var f struct {
		Response responseBody `json:"response"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	r := f.Response.fields
	if r == nil {
		return nil, errors.New("missing response object")
	}
	return &ControlResponse{
		RequestID: r.RequestID,
		Subtype:   r.Subtype,
		Response:  []byte(r.Response),
		Error:     r.Error,
		ErrorCode: r.ErrorCode,
		Raw:       line,
	}, nil
}

// responseBody is a control_response's response object; fields stays nil when the member is
// absent or not an object (null, a string, ...).
type responseBody struct {
	fields *struct {
		RequestID string         `json:"request_id"`
		Subtype   string         `json:"subtype"`
		Error     string         `json:"error"`
		ErrorCode string         `json:"error_code"`
		Response  jsontext.Value `json:"response"`
	}
}

// UnmarshalJSONFrom decodes the response object at d's position, or skips a value of another kind.
func (b *responseBody) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() != '{' {
		return d.SkipValue()
	}
	return json.UnmarshalDecode(d, &b.fields)
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
	return &ControlCancel{RequestID: *f.RequestID, Raw: line}, nil
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
