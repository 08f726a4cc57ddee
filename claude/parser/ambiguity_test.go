package parser_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// preToolUse returns a PreToolUse hook_callback line (as the CLI writes it) whose tool_input is
// toolInput.
func preToolUse(toolInput string) string {
	return hookCallback(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":` + toolInput + `,"tool_use_id":"u"}`)
}

// Lines that JavaScript's JSON.parse (the CLI) and a Go decoder could read differently, or that
// JSON v2 refuses, are a *DecodeError, never a message: the transport answers such a request with
// its event's denial (answerUndecodable).
func TestParseAmbiguous(t *testing.T) {
	tests := []struct {
		name        string
		line        string
		wantType    string
		wantSubtype string
	}{
		// Duplicate names, at every level. JSON.parse keeps the last, the parser this one replaced
		// kept the first (gjson) or the last (encoding/json), depending on the field.
		{"type twice", `{"type":"control_cancel_request","request_id":"r","type":"control_request"}`, "control_request", ""},
		{"request_id twice", `{"type":"control_request","request_id":"r1","request_id":"r2","request":{"subtype":"interrupt"}}`, "control_request", "interrupt"},
		{"request twice", `{"type":"control_request","request_id":"r","request":{"subtype":"interrupt"},"request":{"subtype":"hook_callback","input":{"hook_event_name":"Stop"}}}`, "control_request", "hook_callback"},
		{"subtype twice in the request", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","subtype":"interrupt","input":{"hook_event_name":"Stop"}}}`, "control_request", "interrupt"},
		{"input twice in a hook_callback", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}},"input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}}}`, "control_request", "hook_callback"},
		{"callback_id twice", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","callback_id":"a","callback_id":"b","input":{"hook_event_name":"Stop"}}}`, "control_request", "hook_callback"},
		{"hook_event_name twice in the input", hookCallback(`{"hook_event_name":"Stop","tool_name":"Bash","tool_input":{},"hook_event_name":"PreToolUse"}`), "control_request", "hook_callback"},
		{"tool_name twice", hookCallback(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{},"tool_name":"Bash"}`), "control_request", "hook_callback"},
		{"tool_input twice", hookCallback(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`), "control_request", "hook_callback"},
		{"tool_input.command twice", preToolUse(`{"command":"ls","command":"rm -rf /"}`), "control_request", "hook_callback"},
		{"a name twice deep in tool_input", preToolUse(`{"edits":[{"path":"/a","path":"/etc/passwd"}]}`), "control_request", "hook_callback"},
		{"the same name, escaped differently", preToolUse(`{"command":"ls","comm\u0061nd":"rm -rf /"}`), "control_request", "hook_callback"},
		{"a field of no struct twice (Extra)", hookCallback(`{"hook_event_name":"Stop","x":1,"x":2}`), "control_request", "hook_callback"},
		{"can_use_tool input twice", `{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"input":{"command":"rm -rf /"}}}`, "control_request", "can_use_tool"},
		{"can_use_tool input.command twice", `{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls","command":"rm -rf /"}}}`, "control_request", "can_use_tool"},
		{"a name twice in an unknown request", `{"type":"control_request","request_id":"r","request":{"subtype":"mcp_message","message":{"id":1,"id":2}}}`, "control_request", "mcp_message"},
		{"hook_event: tool_input.command twice", `{"type":"hook_event","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"},"request_id":"r"}`, "hook_event", ""},
		{"hook_event: request_id twice", `{"type":"hook_event","hook_event_name":"Stop","request_id":"a","request_id":"b"}`, "hook_event", ""},
		{"control_response: request_id twice", `{"type":"control_response","response":{"subtype":"success","request_id":"a","request_id":"b"}}`, "control_response", ""},
		{"control_cancel_request: request_id twice", `{"type":"control_cancel_request","request_id":"a","request_id":"b"}`, "control_cancel_request", ""},
		{"assistant: tool_use input twice", `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"},"input":{"command":"rm"}}]}}`, "assistant", ""},
		{"user: content twice", `{"type":"user","message":{"role":"user","content":"a","content":"b"}}`, "user", ""},
		{"result: is_error twice", `{"type":"result","subtype":"success","is_error":true,"is_error":false}`, "result", "success"},
		{"system: subtype twice", `{"type":"system","subtype":"init","subtype":"status"}`, "system", "status"},
		{"stream_event: a name twice in the event", `{"type":"stream_event","event":{"type":"a","type":"b"}}`, "stream_event", ""},
		{"unknown type: a name twice", `{"type":"from_the_future","x":1,"x":2}`, "from_the_future", ""},
		{"hook_response: decision twice", `{"type":"hook_response","request_id":"r","decision":"approve","decision":"block"}`, "hook_response", ""},

		// Invalid UTF-8: JSON.parse never sees it (the CLI writes UTF-8); JSON v2 refuses it, where
		// encoding/json turned it into U+FFFD.
		{"invalid UTF-8 in tool_input.command", preToolUse("{\"command\":\"rm \xff\"}"), "control_request", "hook_callback"},
		{"invalid UTF-8 in a name", preToolUse("{\"comm\xffand\":\"ls\"}"), "control_request", "hook_callback"},
		{"invalid UTF-8 in an unknown type", "{\"type\":\"from_the_future\",\"x\":\"\xc3\"}", "from_the_future", ""},
		// A lone surrogate escape: JSON.parse takes it (a string with an unpaired UTF-16 surrogate),
		// encoding/json turned it into U+FFFD, JSON v2 refuses it. Refusing it fails closed.
		{"lone high surrogate", preToolUse(`{"command":"ls \ud800"}`), "control_request", "hook_callback"},
		{"lone low surrogate", preToolUse(`{"command":"ls \udc00"}`), "control_request", "hook_callback"},
		{"high surrogate then a letter", preToolUse(`{"command":"\ud800\u0041"}`), "control_request", "hook_callback"},
		{"lone surrogate in a name", preToolUse(`{"comm\ud800and":"ls"}`), "control_request", "hook_callback"},

		// Nesting past JSON v2's bound of 10000.
		{"tool_input nested 10001 deep", preToolUse(`{"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`), "control_request", "hook_callback"},
		{"assistant nested 10001 deep", `{"type":"assistant","message":` + strings.Repeat(`{"a":`, 10001) + `1` + strings.Repeat(`}`, 10001) + `}`, "assistant", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.Parse([]byte(tc.line))
			var de *parser.DecodeError
			if !errors.As(err, &de) || m != nil {
				t.Fatalf("Parse = %v, %v; want nil and a *parser.DecodeError", m, err)
			}
			if de.Type != tc.wantType || de.Subtype != tc.wantSubtype {
				t.Errorf("DecodeError{Type: %q, Subtype: %q}, want {%q, %q}", de.Type, de.Subtype, tc.wantType, tc.wantSubtype)
			}
		})
	}
}

// A PreToolUse hook_callback whose command is there twice never reaches a handler: the CLI would
// run the last ("rm -rf /"), the parser this one replaced handed the first ("ls") to the handler.
// Peek still reads what the transport needs to answer it with PreToolUse's denial.
func TestParseHandlerNeverSeesAmbiguousCommand(t *testing.T) {
	line := []byte(`{"type":"control_request","request_id":"r9","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"},"tool_use_id":"toolu_1"},"tool_use_id":"toolu_1"}}`)
	m, err := parser.Parse(line)
	var de *parser.DecodeError
	if !errors.As(err, &de) || m != nil {
		t.Fatalf("Parse = %#v, %v; want nil and a *parser.DecodeError", m, err)
	}
	if errors.Is(err, parser.ErrNotJSON) {
		t.Errorf("the error is ErrNotJSON: the transport would skip the request instead of denying it")
	}
	want := parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "r9", CallbackID: "hook_PreToolUse", HookEventName: "PreToolUse", ToolUseID: "toolu_1"}
	if diff := cmp.Diff(want, parser.Peek(line)); diff != "" {
		t.Errorf("Peek (-want +got):\n%s", diff)
	}
}

// JSON.parse matches names exactly: names that differ only in case are different names, not
// duplicates, and not the fields the types know (encoding/json matched them case-insensitively).
func TestParseCaseDistinctNames(t *testing.T) {
	t.Run("tool_input keeps both", func(t *testing.T) {
		m, err := parser.Parse([]byte(preToolUse(`{"command":"ls","Command":"rm -rf /","COMMAND":"x"}`)))
		if err != nil {
			t.Fatal(err)
		}
		in := m.(*parser.ControlRequest).HookCallback.Input.(*shared.PreToolUseHookInput)
		want := shared.ToolInput{"command": "ls", "Command": "rm -rf /", "COMMAND": "x"}
		if diff := cmp.Diff(want, in.ToolInput); diff != "" {
			t.Errorf("ToolInput (-want +got):\n%s", diff)
		}
	})
	t.Run("a known field in another case is an unknown field", func(t *testing.T) {
		m, err := parser.Parse([]byte(hookCallback(`{"hook_event_name":"PreToolUse","tool_name":"Bash","Tool_Name":"Write","tool_input":{},"Tool_Input":{"file_path":"/x"}}`)))
		if err != nil {
			t.Fatal(err)
		}
		in := m.(*parser.ControlRequest).HookCallback.Input.(*shared.PreToolUseHookInput)
		if in.ToolName != "Bash" || len(in.ToolInput) != 0 {
			t.Errorf("ToolName %q, ToolInput %v; want Bash and {}", in.ToolName, in.ToolInput)
		}
		got := map[string]string{}
		for k, v := range in.Extra {
			got[k] = string(v)
		}
		if diff := cmp.Diff(map[string]string{"Tool_Name": `"Write"`, "Tool_Input": `{"file_path":"/x"}`}, got); diff != "" {
			t.Errorf("Extra (-want +got):\n%s", diff)
		}
	})
	t.Run("Hook_Event_Name is not the event name", func(t *testing.T) {
		_, err := parser.Parse([]byte(hookCallback(`{"Hook_Event_Name":"PreToolUse","tool_name":"Bash","tool_input":{}}`)))
		var ie *parser.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("Parse error %v, want an *InputError (missing hook_event_name)", err)
		}
	})
	t.Run("TYPE is not the type", func(t *testing.T) {
		m, err := parser.Parse([]byte(`{"TYPE":"control_request","type":"from_the_future","request_id":"r"}`))
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := m.(*shared.RawMessage); !ok || r.MessageType != "from_the_future" {
			t.Errorf("Parse = %#v, want a RawMessage of type from_the_future", m)
		}
	})
	t.Run("a valid surrogate pair decodes", func(t *testing.T) {
		m, err := parser.Parse([]byte(preToolUse(`{"command":"echo \ud83d\ude00"}`)))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.(*parser.ControlRequest).HookCallback.Input.(*shared.PreToolUseHookInput).ToolInput.String("command"); got != "echo 😀" {
			t.Errorf("command = %q", got)
		}
	})
}

func TestPeek(t *testing.T) {
	tests := []struct {
		name string
		line string
		want parser.Head
	}{
		{"hook_callback", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","callback_id":"hook_Stop","input":{"hook_event_name":"Stop","x":[{"hook_event_name":"no"}]},"tool_use_id":"u"}}`,
			parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "r", CallbackID: "hook_Stop", HookEventName: "Stop", ToolUseID: "u"}},
		{"type last", `{"request":{"subtype":"can_use_tool","tool_use_id":"u"},"request_id":"r","type":"control_request"}`,
			parser.Head{Type: "control_request", Subtype: "can_use_tool", RequestID: "r", ToolUseID: "u"}},
		{"hook_event", `{"type":"hook_event","hook_event_name":"PreToolUse","tool_use_id":"t","request_id":"r","request":{"subtype":"x"}}`,
			parser.Head{Type: "hook_event", RequestID: "r", HookEventName: "PreToolUse", ToolUseID: "t"}},
		{"system", `{"type":"system","subtype":"init","session_id":"s"}`, parser.Head{Type: "system", Subtype: "init"}},
		{"duplicates: the last counts, as in JSON.parse", `{"type":"result","type":"control_request","request_id":"a","request_id":"b","request":{"subtype":"x"},"request":{"subtype":"hook_callback","input":{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}}}`,
			parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "b", HookEventName: "PreToolUse"}},
		{"a later value of another kind clears", `{"type":"control_request","request_id":"a","request_id":7,"request":{"subtype":"hook_callback"},"request":[]}`,
			parser.Head{Type: "control_request"}},
		{"escapes", `{"t\u0079pe":"control_cancel_request","request_id":"\u0072\n"}`, parser.Head{Type: "control_cancel_request", RequestID: "r\n"}},
		{"invalid UTF-8 and case", "{\"type\":\"control_request\",\"Request_ID\":\"x\",\"request_id\":\"r\xff\"}", parser.Head{Type: "control_request", RequestID: "r\ufffd"}},
		{"truncated: what was read before", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","callback_id":"c","input":{"tool_input":{"command":"ls`,
			parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "r", CallbackID: "c"}},
		{"too deep: what was read before", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","input":{"hook_event_name":"PreToolUse","tool_input":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `},"callback_id":"c"}}`,
			parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "r", HookEventName: "PreToolUse"}},
		{"not an object", `["type","control_request"]`, parser.Head{}},
		{"empty", ``, parser.Head{}},
		{"garbage", `}{"type":"x"}`, parser.Head{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, parser.Peek([]byte(tc.line))); diff != "" {
				t.Errorf("Peek (-want +got):\n%s", diff)
			}
		})
	}
}

// Issue 12 item 6: a line of ~7 million nested arrays (13 MB) made the recursive validator the
// parser used (gjson.ValidBytes) overflow the goroutine stack, and Go aborted the program. Parse
// and Peek (which the transport's answerUndecodable uses to answer such a request) read
// iteratively and stop at JSON v2's bound.
func TestDeepNesting(t *testing.T) {
	const n = 7_000_000
	arrays := strings.Repeat("[", n) + strings.Repeat("]", n)
	objects := strings.Repeat(`{"a":`, n/3) + "1" + strings.Repeat("}", n/3)
	tests := []struct {
		name        string
		line        string
		wantNotJSON bool
		wantType    string
		wantSubtype string
		wantHead    parser.Head
	}{
		{"a line of arrays", arrays, true, "", "", parser.Head{}},
		{"arrays in a PreToolUse tool_input", preToolUse(`{"x":` + arrays + `}`), false, "control_request", "hook_callback",
			parser.Head{Type: "control_request", Subtype: "hook_callback", RequestID: "r", CallbackID: "cb", HookEventName: "PreToolUse"}},
		{"arrays before the type", `{"x":` + arrays + `,"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool"}}`, false, "", "", parser.Head{}},
		{"objects in a hook_event", `{"type":"hook_event","hook_event_name":"PreToolUse","request_id":"r","tool_name":"Bash","tool_input":` + objects + `}`, false, "hook_event", "",
			parser.Head{Type: "hook_event", RequestID: "r", HookEventName: "PreToolUse"}},
		{"unclosed arrays in a can_use_tool", `{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","input":` + strings.Repeat("[", n), false, "control_request", "can_use_tool",
			parser.Head{Type: "control_request", Subtype: "can_use_tool", RequestID: "r"}},
		{"arrays in an assistant line", `{"type":"assistant","message":{"content":` + arrays + `}}`, false, "assistant", "", parser.Head{Type: "assistant"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := []byte(tc.line)
			m, err := parser.Parse(line)
			if m != nil {
				t.Fatalf("Parse returned a %T", m)
			}
			var de *parser.DecodeError
			switch {
			case tc.wantNotJSON:
				if !errors.Is(err, parser.ErrNotJSON) {
					t.Errorf("Parse error %v, want ErrNotJSON", err)
				}
			case !errors.As(err, &de):
				t.Errorf("Parse error %v, want a *parser.DecodeError", err)
			case de.Type != tc.wantType || de.Subtype != tc.wantSubtype:
				t.Errorf("DecodeError{Type: %q, Subtype: %q}, want {%q, %q}", de.Type, de.Subtype, tc.wantType, tc.wantSubtype)
			}
			if diff := cmp.Diff(tc.wantHead, parser.Peek(line)); diff != "" {
				t.Errorf("Peek (-want +got):\n%s", diff)
			}
		})
	}
}

// The nesting bound is JSON v2's, 10000, and a line past it is a *DecodeError, not ErrNotJSON: a
// request that deep is answered, not skipped.
func TestNestingBound(t *testing.T) {
	// The line, request, input and tool_input objects are 4 levels; the arrays the rest.
	at := func(depth int) []byte {
		return []byte(preToolUse(`{"x":` + strings.Repeat("[", depth-4) + strings.Repeat("]", depth-4) + `}`))
	}
	if _, err := parser.Parse(at(10000)); err != nil {
		t.Errorf("10000 deep: %v", err)
	}
	var de *parser.DecodeError
	if _, err := parser.Parse(at(10001)); !errors.As(err, &de) {
		t.Errorf("10001 deep: %v, want a *parser.DecodeError", err)
	}
	// Truncated short of the bound: not JSON.
	if _, err := parser.Parse(at(9999)[:9000]); !errors.Is(err, parser.ErrNotJSON) {
		t.Errorf("truncated: %v, want ErrNotJSON", err)
	}
}
