package parser

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// decodeControlRequestRef is the decoder decodeControlRequest replaced (each field looked up by
// name): FuzzControlRequest checks that the two agree.
func decodeControlRequestRef(line []byte) (shared.Message, error) {
	id := gjson.GetBytes(line, "request_id")
	req := gjson.GetBytes(line, "request")
	if id.Type != gjson.String || id.Str == "" {
		return nil, errors.New("missing request_id")
	}
	if !req.IsObject() {
		return nil, errors.New("missing request object")
	}
	reqBytes := rawBytes(line, req)
	m := &shared.ControlRequest{
		RequestID: id.Str,
		Subtype:   req.Get("subtype").String(),
		Request:   json.RawMessage(reqBytes),
		Raw:       line,
	}
	switch m.Subtype {
	case "hook_callback":
		in := req.Get("input")
		if !in.IsObject() {
			return nil, errors.New("hook_callback without an input object")
		}
		input, err := decodeValidHookInput(rawBytes(line, in), in.Raw) // in.Index is relative to line
		if err != nil {
			return nil, err
		}
		cb := &shared.HookCallback{
			CallbackID: req.Get("callback_id").String(),
			ToolUseID:  req.Get("tool_use_id").String(),
			Input:      input,
		}
		// PermissionRequest's input has no tool_use_id; the request has it.
		if tc := shared.ToolCall(input); tc != nil && tc.ToolUseID == "" {
			tc.ToolUseID = cb.ToolUseID
		}
		m.HookCallback = cb
	case "can_use_tool":
		c := &shared.CanUseTool{}
		if err := json.Unmarshal(reqBytes, c); err != nil {
			return nil, err
		}
		m.CanUseTool = c
	}
	return m, nil
}

// FuzzControlRequest checks that decodeControlRequest decodes every valid control_request line as
// the field-by-field decoder it replaced did: the same message, or an error for the same lines.
func FuzzControlRequest(f *testing.F) {
	for _, l := range []string{
		`{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse_0","input":{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"},"tool_use_id":"t1"}}`,
		`{"type":"control_request","request_id":"r2","request":{"subtype":"hook_callback","callback_id":"c","input":{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}},"tool_use_id":"t9"}}`,
		`{"type":"control_request","request_id":"r3","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t2"}}`,
		`{"type":"control_request","request_id":"r4","request":{"subtype":"interrupt"}}`,
		`{"request":{"subtype":"hook_callback","input":{"hook_event_name":"Stop"},"subtype":"x"},"type":"control_request","request_id":"r5","request_id":"r6"}`,
		`{"type":"control_request","request_id":"","request":{}}`,
		`{"type":"control_request","request_id":"r7","request":{"subtype":7,"input":[]}}`,
		`{"type":"control_request","request_id":"r\u0038","req\u0075est":{"subtype":"hook_callback","input":{"hook_event_name":"Stop"}}}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if !gjson.ValidBytes(line) || !gjson.ParseBytes(line).IsObject() {
			return // Parse turns these away before any decoder
		}
		got, err := decodeControlRequest(line)
		want, wantErr := decodeControlRequestRef(line)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, the reference's %v", err, wantErr)
		}
		if err != nil {
			if err.Error() != wantErr.Error() {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("error %q, the reference's %q", err, wantErr)
				}
			}
			return
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })); diff != "" {
			t.Fatalf("(-reference +new):\n%s", diff)
		}
	})
}
