package parser_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// FuzzParse checks that Parse never panics and keeps its contract on any input: a message or an
// error, never both or neither; ErrNotJSON exactly for what encoding/json does not take as one JSON
// object; a message whose Type() is the line's type; a hook input of the type its event names.
// The seed corpus in testdata/fuzz/FuzzParse holds real lines of the CLI.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"hook_event","hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/etc/passwd"},"tool_use_id":"t1","request_id":"r1"}`))
	f.Add([]byte(`{"type":"hook_response","request_id":"r1","hook_event_name":"PreToolUse","decision":"block"}`))
	f.Add([]byte(`{"type":"control_response","response":{"subtype":"error","request_id":"r","error":"boom"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := parser.Parse(line)
		if (m == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one of a message and an error", m, err)
		}
		isObject := json.Valid(line) && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("{"))
		// encoding/json refuses nesting deeper than 10000 levels; Parse takes such a line (as a
		// RawMessage, or a DecodeError for a type it decodes with encoding/json).
		deep := bytes.Count(line, []byte("["))+bytes.Count(line, []byte("{")) > 10000
		if errors.Is(err, parser.ErrNotJSON) == isObject && !(deep && !isObject) {
			t.Fatalf("Parse error %v, but encoding/json says object=%v for %q", err, isObject, line)
		}
		if err != nil {
			var de *parser.DecodeError
			if !errors.Is(err, parser.ErrNotJSON) && !errors.As(err, &de) {
				t.Fatalf("error %v (%T) is neither ErrNotJSON nor a *DecodeError", err, err)
			}
			_ = err.Error()
			return
		}
		typ := gjson.GetBytes(line, "type").String()
		if m.Type() == "" && typ != "" {
			t.Fatalf("message %T has an empty Type() for type %q", m, typ)
		}
		if m.Type() != typ {
			t.Fatalf("message %T has Type() %q, the line's type is %q", m, m.Type(), typ)
		}
		var in shared.HookInput
		switch v := m.(type) {
		case *shared.ControlRequest:
			if v.RequestID == "" {
				t.Fatalf("control_request without a RequestID")
			}
			if v.Subtype == "hook_callback" {
				if v.HookCallback == nil {
					t.Fatalf("hook_callback without HookCallback")
				}
				in = v.HookCallback.Input
			}
		case *shared.HookEventMessage:
			in = v.Input
			for _, k := range []string{"type", "request_id", "id"} {
				if _, ok := in.Base().Extra[k]; ok {
					t.Fatalf("framing key %q left in Extra", k)
				}
			}
		}
		if in != nil {
			checkHookInput(t, in)
		}
	})
}

func checkHookInput(t *testing.T, in shared.HookInput) {
	t.Helper()
	b := in.Base()
	if b == nil || b.Raw == nil {
		t.Fatalf("%T: Base() = %v, want a base with Raw", in, b)
	}
	if b.HookEventName == "" {
		t.Fatalf("%T without HookEventName", in)
	}
	if got, want := fmt.Sprintf("%T", in), fmt.Sprintf("%T", shared.NewHookInput(b.HookEventName)); got != want {
		t.Fatalf("input of type %s has HookEventName %q, which decodes into %s", got, b.HookEventName, want)
	}
	if b.Extra != nil && len(b.Extra) == 0 {
		t.Fatalf("Extra is empty but not nil")
	}
	if tc := shared.ToolCall(in); tc != nil && tc.ToolName == "" {
		t.Fatalf("tool event %s without a tool name", b.HookEventName)
	}
	_ = in.MatchValue()
}
