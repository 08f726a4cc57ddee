package parser_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// FuzzParse checks that Parse never panics and keeps its contract on any input: a message or an
// error, never both or neither; ErrNotJSON exactly for what JSON's grammar does not take as one
// object (duplicate names, invalid UTF-8 and nesting past 10000 are DecodeErrors); a message only
// for a line JSON v2 takes as it is (no duplicate names, valid UTF-8: one that JSON.parse reads
// alike); a message whose Type() is the line's type; a hook input of the type its event names.
// The seed corpus in testdata/fuzz/FuzzParse holds real lines of the CLI.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"hook_event","hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/etc/passwd"},"tool_use_id":"t1","request_id":"r1"}`))
	f.Add([]byte(`{"type":"hook_response","request_id":"r1","hook_event_name":"PreToolUse","decision":"block"}`))
	f.Add([]byte(`{"type":"control_response","response":{"subtype":"error","request_id":"r","error":"boom"}}`))
	f.Add([]byte(`{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse_0","input":{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm"},"tool_use_id":"t1"},"tool_use_id":"t1"}}`))
	f.Add([]byte(`{"type":"control_request","request_id":"r3","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls \ud800"},"tool_use_id":"t2"}}`))
	f.Add([]byte(`{"request":{"subtype":"hook_callback","input":{"hook_event_name":"Stop"},"subtype":"x"},"type":"control_request","request_id":"r5","request_id":"r6"}`))
	f.Add([]byte(`{"type":"control_request","request_id":"r\u0038","req\u0075est":{"subtype":"hook_callback","input":{"hook_event_name":"Stop"}}}`))
	lenient := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := parser.Parse(line)
		if (m == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one of a message and an error", m, err)
		}
		isObject := jsontext.Value(line).IsValid(lenient...) && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("{"))
		// jsontext refuses nesting deeper than 10000 levels, even leniently; Parse takes such a
		// line as an object (and fails with a DecodeError).
		deep := bytes.Count(line, []byte("["))+bytes.Count(line, []byte("{")) > 10000
		if errors.Is(err, parser.ErrNotJSON) == isObject && !(deep && !isObject) {
			t.Fatalf("Parse error %v, but jsontext says object=%v for %q", err, isObject, line)
		}
		if err != nil {
			var de *parser.DecodeError
			if !errors.Is(err, parser.ErrNotJSON) && !errors.As(err, &de) {
				t.Fatalf("error %v (%T) is neither ErrNotJSON nor a *DecodeError", err, err)
			}
			_ = err.Error()
			return
		}
		if !jsontext.Value(line).IsValid() {
			t.Fatalf("Parse decoded a line JSON v2 refuses (duplicate names or invalid UTF-8): %q", line)
		}
		typ := parser.Peek(line).Type
		if m.Type() == "" && typ != "" {
			t.Fatalf("message %T has an empty Type() for type %q", m, typ)
		}
		if m.Type() != typ {
			t.Fatalf("message %T has Type() %q, the line's type is %q", m, m.Type(), typ)
		}
		var in shared.HookInput
		switch v := m.(type) {
		case *parser.ControlRequest:
			if v.RequestID == "" {
				t.Fatalf("control_request without a RequestID")
			}
			if v.Subtype == "hook_callback" {
				if v.HookCallback == nil {
					t.Fatalf("hook_callback without HookCallback")
				}
				in = v.HookCallback.Input
			}
			if r := jsontext.Value(v.Request); r.Kind() != '{' || !r.IsValid() || len(bytes.TrimSpace(r)) != len(r) {
				t.Fatalf("Request is not one JSON object: %q", r)
			}
		case *parser.HookEventLine:
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
	// Raw and Extra's values are parts of the line: each exactly one JSON value.
	if jsontext.Value(b.Raw).Kind() != '{' || !jsontext.Value(b.Raw).IsValid() {
		t.Fatalf("Raw is not one JSON object: %q", b.Raw)
	}
	for k, v := range b.Extra {
		if !jsontext.Value(v).IsValid() || len(bytes.TrimSpace(v)) != len(v) {
			t.Fatalf("Extra[%q] is not one JSON value: %q", k, v)
		}
	}
	if tc := shared.ToolCall(in); tc != nil && tc.ToolName == "" {
		t.Fatalf("tool event %s without a tool name", b.HookEventName)
	}
	_ = in.MatchValue()
}
