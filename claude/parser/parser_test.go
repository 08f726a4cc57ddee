package parser_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// resultFields is the part of a ResultMessage the goldens pin.
type resultFields struct {
	Subtype, Result, StopReason, TerminalReason string
	IsError                                     bool
	NumTurns                                    int
	Errors                                      []string
	HasDeferred                                 bool
}

// streamGolden is what each labelled line of stream-samples.jsonl must decode to.
var streamGolden = map[string]struct {
	goType  string
	msgType string
	check   func(t *testing.T, m shared.Message)
}{
	"initialize response": {"*parser.ControlResponse", "control_response", func(t *testing.T, m shared.Message) {
		r := m.(*parser.ControlResponse)
		if r.RequestID != "init_1" || r.Subtype != "success" || r.Error != "" {
			t.Errorf("ControlResponse{RequestID: %q, Subtype: %q, Error: %q}", r.RequestID, r.Subtype, r.Error)
		}
		var resp struct {
			Commands []struct{ Name string } `json:"commands"`
		}
		if err := jsonv2.Unmarshal(r.Response, &resp); err != nil || len(resp.Commands) == 0 {
			t.Errorf("Response does not hold the commands: %v", err)
		}
	}},
	"system/init": {"*shared.SystemMessage", "system", func(t *testing.T, m shared.Message) {
		s := m.(*shared.SystemMessage)
		if s.Subtype != "init" || s.Model != "claude-opus-5-5" || s.Cwd != "/home/user/project" ||
			s.SessionID != "88875464-1494-4d64-b4d0-f5ee1934764c" || s.PermissionMode == "" || len(s.Tools) == 0 {
			t.Errorf("init = %+v", s)
		}
	}},
	"result (success)": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "success", Result: "done", StopReason: "end_turn", TerminalReason: "completed", NumTurns: 2})},
	"can_use_tool": {"*parser.ControlRequest", "control_request", func(t *testing.T, m shared.Message) {
		r := m.(*parser.ControlRequest)
		if r.RequestID != "111560ec-ed0f-475c-8edf-b956e767b4be" || r.Subtype != "can_use_tool" || r.HookCallback != nil {
			t.Errorf("ControlRequest{RequestID: %q, Subtype: %q, HookCallback: %v}", r.RequestID, r.Subtype, r.HookCallback)
		}
		c := r.CanUseTool
		if c == nil {
			t.Fatal("CanUseTool is nil")
		}
		if c.ToolName != "Bash" || c.DisplayName != "Bash" || c.Description != "probe" ||
			c.Input.String("command") != "touch /home/user/project/touched.txt && echo touched" || len(c.PermissionSuggestions) == 0 {
			t.Errorf("CanUseTool = %+v", c)
		}
	}},
	"control_cancel_request": {"*parser.ControlCancel", "control_cancel_request", func(t *testing.T, m shared.Message) {
		if id := m.(*parser.ControlCancel).RequestID; id != "111560ec-ed0f-475c-8edf-b956e767b4be" {
			t.Errorf("RequestID = %q", id)
		}
	}},
	"tool_result after SDK hook timeout": {"*shared.UserMessage", "user", func(t *testing.T, m shared.Message) {
		u := m.(*shared.UserMessage)
		if len(u.Blocks) != 1 || u.Blocks[0].Type != "tool_result" || !u.Blocks[0].IsError || u.Blocks[0].ToolUseID != "toolu_01" ||
			!strings.HasPrefix(u.Blocks[0].ContentText(), "PreToolUse hook did not respond before its timeout") {
			t.Errorf("Blocks = %+v", u.Blocks)
		}
		if u.ParentToolUseID != nil || len(u.ToolUseResult) == 0 {
			t.Errorf("ParentToolUseID = %v, ToolUseResult = %s", u.ParentToolUseID, u.ToolUseResult)
		}
	}},
	"hook_callback_failed notice": {"*shared.SystemMessage", "system", checkSystem("informational", "warning", "hook_callback_failed")},
	"command hook timeout notice": {"*shared.SystemMessage", "system", checkSystem("informational", "warning", "hook_no_verdict")},
	"hook heartbeat": {"*shared.ToolProgressMessage", "tool_progress", func(t *testing.T, m shared.Message) {
		if p := m.(*shared.ToolProgressMessage); !p.Heartbeat || p.ToolName != "PreToolUse" || p.ElapsedTimeSeconds != 30 || p.ParentToolUseID == nil || *p.ParentToolUseID != "toolu_01" {
			t.Errorf("ToolProgressMessage = %+v", p)
		}
	}},
	"hook_started": {"*shared.SystemMessage", "system", func(t *testing.T, m shared.Message) {
		s := m.(*shared.SystemMessage)
		if s.Subtype != "hook_started" || s.HookEvent != "SessionStart" || s.HookName != "SessionStart:startup" || s.HookID == "" {
			t.Errorf("hook_started = %+v", s)
		}
	}},
	"hook_response": {"*shared.SystemMessage", "system", func(t *testing.T, m shared.Message) {
		s := m.(*shared.SystemMessage)
		if s.Subtype != "hook_response" || s.HookEvent != "PreToolUse" || s.Outcome != "error" || s.ExitCode == nil || *s.ExitCode != 3 {
			t.Errorf("hook_response = %+v", s)
		}
	}},
	"stream_event": {"*shared.StreamEvent", "stream_event", func(t *testing.T, m shared.Message) {
		e := m.(*shared.StreamEvent)
		var ev struct {
			Type string `json:"type"`
		}
		if err := jsonv2.Unmarshal(e.Event, &ev); err != nil || ev.Type != "message_start" {
			t.Errorf("Event = %s (%v)", e.Event, err)
		}
		if e.SessionID != "c88d5553-32fa-454d-9000-c5a18e2cd002" || e.ParentToolUseID != nil {
			t.Errorf("StreamEvent = %+v", e)
		}
	}},
	"system/status": {"*shared.StatusMessage", "system", func(t *testing.T, m shared.Message) {
		if s := m.(*shared.StatusMessage); s.Status != "requesting" || s.Subtype != "status" {
			t.Errorf("StatusMessage = %+v", s)
		}
	}},
	"UPS block notice":       {"*shared.SystemMessage", "system", checkSystem("informational", "warning", "")},
	"result after UPS block": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "success", Result: "UserPromptSubmit operation blocked by hook:\nprompt blocked\n\nOriginal prompt: go"})},
	"Stop-hook feedback user message": {"*shared.UserMessage", "user", func(t *testing.T, m shared.Message) {
		u := m.(*shared.UserMessage)
		if string(u.Message.Content) != `"go"` || u.Blocks != nil || u.Message.Role != "user" {
			t.Errorf("Content = %s, Blocks = %v", u.Message.Content, u.Blocks)
		}
	}},
	"permission_denied": {"*shared.PermissionDeniedMessage", "system", func(t *testing.T, m shared.Message) {
		if p := m.(*shared.PermissionDeniedMessage); p.ToolName != "Bash" || p.ToolUseID != "toolu_01" || p.DecisionReasonType != "hook" || p.Message != "please ask" {
			t.Errorf("PermissionDeniedMessage = %+v", p)
		}
	}},
	"systemMessage notice":        {"*shared.SystemMessage", "system", checkSystem("informational", "notice", "")},
	"result after continue:false": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "success", StopReason: "tool_use", TerminalReason: "hook_stopped", NumTurns: 2})},
	"result after defer":          {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "success", StopReason: "tool_deferred", TerminalReason: "tool_deferred", NumTurns: 1, HasDeferred: true})},
	"result after API 400":        {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "success", IsError: true, Result: "API Error: 400 fake error", StopReason: "stop_sequence", TerminalReason: "api_error", NumTurns: 1})},
	"result after can_use_tool deny+interrupt": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "error_during_execution", IsError: true, StopReason: "tool_use", TerminalReason: "aborted_tools", NumTurns: 3,
		Errors: []string{"[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use"}})},
	"result after interrupt": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "error_during_execution", IsError: true, TerminalReason: "aborted_streaming", NumTurns: 2,
		Errors: []string{"[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"}})},
	"result when PostToolBatch callback times out (crash)": {"*shared.ResultMessage", "result", checkResult(resultFields{Subtype: "error_during_execution", IsError: true,
		Errors: []string{"", "[session_crash] error_name=AbortError api_error_status=none cause_name=none"}})},
	"conversation_reset": {"*shared.ConversationResetMessage", "conversation_reset", func(t *testing.T, m shared.Message) {
		if c := m.(*shared.ConversationResetMessage); c.Trigger != "clear" || c.NewConversationID != "6a321792-a231-4296-9092-6feab101854f" {
			t.Errorf("ConversationResetMessage = %+v", c)
		}
	}},
	"compact_boundary": {"*shared.CompactBoundaryMessage", "system", func(t *testing.T, m shared.Message) {
		if c := m.(*shared.CompactBoundaryMessage); c.CompactMetadata.Trigger != "manual" || c.CompactMetadata.PreTokens != 10 || c.CompactMetadata.PostTokens != 2534 {
			t.Errorf("CompactBoundaryMessage = %+v", c)
		}
	}},
	"task_notification": {"*shared.TaskNotificationMessage", "system", func(t *testing.T, m shared.Message) {
		if n := m.(*shared.TaskNotificationMessage); n.TaskID != "a3c50f50f409065bc" || n.Status != "completed" || n.Summary != "subagent result 2" || n.Usage == nil || n.Usage.ToolUses != 1 {
			t.Errorf("TaskNotificationMessage = %+v", n)
		}
	}},
	"replayed user message": {"*shared.UserMessage", "user", func(t *testing.T, m shared.Message) {
		if u := m.(*shared.UserMessage); !u.IsReplay || string(u.Message.Content) != `"go"` {
			t.Errorf("IsReplay = %v, Content = %s", u.IsReplay, u.Message.Content)
		}
	}},
	"mcp_message (CLI->SDK)": {"*parser.ControlRequest", "control_request", func(t *testing.T, m shared.Message) {
		r := m.(*parser.ControlRequest)
		if r.Subtype != "mcp_message" || r.HookCallback != nil || r.CanUseTool != nil || r.RequestID != "746c0ae8-4b91-46a2-a52b-387005961b2a" {
			t.Errorf("ControlRequest = %+v", r)
		}
		var req struct {
			ServerName string `json:"server_name"`
		}
		if err := jsonv2.Unmarshal(r.Request, &req); err != nil || req.ServerName != "my-srv" {
			t.Errorf("Request = %.100s (%v)", r.Request, err)
		}
	}},
}

func checkResult(want resultFields) func(*testing.T, shared.Message) {
	return func(t *testing.T, m shared.Message) {
		r := m.(*shared.ResultMessage)
		got := resultFields{Subtype: r.Subtype, Result: r.Result, StopReason: r.StopReason, TerminalReason: r.TerminalReason,
			IsError: r.IsError, NumTurns: r.NumTurns, Errors: r.Errors, HasDeferred: len(r.DeferredToolUse) > 0}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("result mismatch (-want +got):\n%s", diff)
		}
		if r.SessionID == "" || r.DurationMS < 0 || len(r.Usage) == 0 {
			t.Errorf("SessionID = %q, DurationMS = %d, Usage = %s", r.SessionID, r.DurationMS, r.Usage)
		}
	}
}

func checkSystem(subtype, level, tag string) func(*testing.T, shared.Message) {
	return func(t *testing.T, m shared.Message) {
		s := m.(*shared.SystemMessage)
		if s.Subtype != subtype || s.Level != level || s.Tag != tag || s.SessionID == "" {
			t.Errorf("SystemMessage{Subtype: %q, Level: %q, Tag: %q, SessionID: %q}, want {%q, %q, %q, non-empty}",
				s.Subtype, s.Level, s.Tag, s.SessionID, subtype, level, tag)
		}
		if subtype == "informational" && s.Content == "" {
			t.Errorf("informational without Content")
		}
	}
}

// rawOf returns the Raw field of a decoded message.
func rawOf(m shared.Message) jsontext.Value {
	switch v := m.(type) {
	case *shared.SystemMessage:
		return v.Raw
	case *shared.AssistantMessage:
		return v.Raw
	case *shared.UserMessage:
		return v.Raw
	case *shared.ResultMessage:
		return v.Raw
	case *shared.StreamEvent:
		return v.Raw
	case *parser.ControlRequest:
		return v.Raw
	case *parser.ControlResponse:
		return v.Raw
	case *parser.ControlCancel:
		return v.Raw
	case *parser.HookEventLine:
		return v.Raw
	case *parser.HookResponseLine:
		return v.Raw
	case *shared.RawMessage:
		return v.Raw
	}
	if f := reflect.ValueOf(m).Elem().FieldByName("Raw"); f.IsValid() { // the typed kinds
		return f.Bytes()
	}
	return nil
}

func TestParseStreamSamples(t *testing.T) {
	samples := loadStreamSamples(t)
	seen := map[string]bool{}
	for _, s := range samples {
		t.Run(s.Label, func(t *testing.T) {
			seen[s.Label] = true
			g, ok := streamGolden[s.Label]
			if !ok {
				t.Fatalf("no golden for label %q", s.Label)
			}
			m, err := parser.Parse(s.Msg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := fmt.Sprintf("%T", m); got != g.goType {
				t.Fatalf("Parse gave %s, want %s", got, g.goType)
			}
			if m.Type() != g.msgType {
				t.Errorf("Type() = %q, want %q", m.Type(), g.msgType)
			}
			if !bytes.Equal(rawOf(m), s.Msg) {
				t.Errorf("Raw is not the line")
			}
			g.check(t, m)
		})
	}
	for label := range streamGolden {
		if !seen[label] {
			t.Errorf("golden %q has no sample", label)
		}
	}
}

func TestParseMessages(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		check func(t *testing.T, m shared.Message)
	}{
		{"assistant", `{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"text","text":"hel"},{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"command":"ls"}},{"type":"text","text":"lo"}],"stop_reason":"tool_use"},"parent_tool_use_id":"toolu_00","session_id":"s"}`,
			func(t *testing.T, m shared.Message) {
				a := m.(*shared.AssistantMessage)
				if a.Text() != "hello" || a.Message.StopReason != "tool_use" || a.ParentToolUseID == nil || *a.ParentToolUseID != "toolu_00" {
					t.Errorf("assistant = %+v", a)
				}
				tu := a.Message.Content[1]
				if tu.Type != "tool_use" || tu.ID != "toolu_01" || tu.Name != "Bash" || string(tu.Input) != `{"command":"ls"}` {
					t.Errorf("tool_use block = %+v", tu)
				}
			}},
		{"user with tool_result blocks", `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]},"parent_tool_use_id":null}`,
			func(t *testing.T, m shared.Message) {
				u := m.(*shared.UserMessage)
				if len(u.Blocks) != 1 || u.Blocks[0].ContentText() != "ab" {
					t.Errorf("Blocks = %+v", u.Blocks)
				}
			}},
		{"system with unknown subtype", `{"type":"system","subtype":"brand_new","x":1}`,
			func(t *testing.T, m shared.Message) {
				if s := m.(*shared.SystemMessage); s.Subtype != "brand_new" {
					t.Errorf("Subtype = %q", s.Subtype)
				}
			}},
		{"type not first", `{"session_id":"s","subtype":"success","is_error":false,"result":"ok","num_turns":1,"type":"result"}`,
			func(t *testing.T, m shared.Message) {
				if r := m.(*shared.ResultMessage); r.Result != "ok" || r.NumTurns != 1 {
					t.Errorf("result = %+v", r)
				}
			}},
		{"control_response error", `{"type":"control_response","response":{"subtype":"error","request_id":"req_1","error":"Model switch blocked","error_code":"blocked_by_hook","model":"x"}}`,
			func(t *testing.T, m shared.Message) {
				r := m.(*parser.ControlResponse)
				want := parser.ControlResponse{RequestID: "req_1", Subtype: "error", Error: "Model switch blocked", ErrorCode: "blocked_by_hook"}
				if diff := cmp.Diff(want, *r, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Raw" }, cmp.Ignore())); diff != "" {
					t.Errorf("ControlResponse (-want +got):\n%s", diff)
				}
			}},
		{"control_response without inner response", `{"type":"control_response","response":{"subtype":"success","request_id":"r"}}`,
			func(t *testing.T, m shared.Message) {
				if r := m.(*parser.ControlResponse); r.Response != nil || r.RequestID != "r" {
					t.Errorf("Response = %s, RequestID = %q", r.Response, r.RequestID)
				}
			}},
		{"control_response with null response", `{"type":"control_response","response":{"subtype":"success","request_id":"r","response":null}}`,
			func(t *testing.T, m shared.Message) {
				if r := m.(*parser.ControlResponse); string(r.Response) != "null" {
					t.Errorf("Response = %s, want null", r.Response)
				}
			}},
		{"unknown type", `{"type":"brand_new_thing","subtype":"x","a":[1]}`,
			func(t *testing.T, m shared.Message) {
				if r := m.(*shared.RawMessage); r.MessageType != "brand_new_thing" || r.Subtype != "x" || r.Type() != "brand_new_thing" {
					t.Errorf("RawMessage = %+v", r)
				}
			}},
		{"no type", `{"a":1}`,
			func(t *testing.T, m shared.Message) {
				if r := m.(*shared.RawMessage); r.MessageType != "" || r.Type() != "" {
					t.Errorf("RawMessage = %+v", r)
				}
			}},
		{"surrounding whitespace", " \t{\"type\":\"control_cancel_request\",\"request_id\":\"x\"} ",
			func(t *testing.T, m shared.Message) {
				if r := m.(*parser.ControlCancel); r.RequestID != "x" {
					t.Errorf("RequestID = %q", r.RequestID)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.Parse([]byte(tc.line))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !bytes.Equal(rawOf(m), []byte(tc.line)) {
				t.Errorf("Raw = %s, want the line", rawOf(m))
			}
			tc.check(t, m)
		})
	}
}

func TestParseHookEvent(t *testing.T) {
	line := `{"type":"hook_event","hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/etc/passwd"},"tool_use_id":"t1","request_id":"r1"}`
	m, err := parser.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	ev, ok := m.(*parser.HookEventLine)
	if !ok {
		t.Fatalf("Parse gave %T, want *parser.HookEventLine", m)
	}
	if ev.RequestID != "r1" || ev.ToolUseID != "t1" || ev.Type() != "hook_event" || string(ev.Raw) != line {
		t.Errorf("HookEventMessage{RequestID: %q, ToolUseID: %q}", ev.RequestID, ev.ToolUseID)
	}
	in, ok := ev.Input.(*shared.PreToolUseHookInput)
	if !ok {
		t.Fatalf("Input is %T, want *shared.PreToolUseHookInput", ev.Input)
	}
	want := &shared.PreToolUseHookInput{
		BaseHookInput:  shared.BaseHookInput{SessionID: "s", Cwd: "/p", HookEventName: "PreToolUse", Raw: jsontext.Value(line)},
		ToolCallFields: shared.ToolCallFields{ToolName: "Write", ToolInput: shared.ToolInput{"file_path": "/etc/passwd"}, ToolUseID: "t1"},
	}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("input mismatch (-want +got):\n%s", diff)
	}

	tests := []struct {
		name, line    string
		wantRequestID string
		wantExtra     map[string]jsontext.Value
	}{
		{"id instead of request_id", `{"type":"hook_event","id":"7","hook_event_name":"Stop","session_id":"s","cwd":"/p","stop_hook_active":true}`, "7", nil},
		{"framing tool_use_id of a non-tool event", `{"type":"hook_event","request_id":"r","hook_event_name":"Stop","session_id":"s","cwd":"/p","tool_use_id":"u1"}`, "r", nil},
		{"no id", `{"type":"hook_event","hook_event_name":"SessionStart","session_id":"s","cwd":"/p","source":"startup"}`, "", nil},
		{"unknown fields kept", `{"type":"hook_event","request_id":"r","hook_event_name":"Stop","session_id":"s","cwd":"/p","new_field":[1]}`, "r",
			map[string]jsontext.Value{"new_field": jsontext.Value("[1]")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.Parse([]byte(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			ev := m.(*parser.HookEventLine)
			if ev.RequestID != tc.wantRequestID {
				t.Errorf("RequestID = %q, want %q", ev.RequestID, tc.wantRequestID)
			}
			if diff := cmp.Diff(tc.wantExtra, ev.Input.Base().Extra); diff != "" {
				t.Errorf("Extra mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := parser.Parse([]byte(`{"type":"hook_event","request_id":"r","session_id":"s"}`)); err == nil {
		t.Errorf("hook_event without hook_event_name: no error")
	}
}

func TestParseHookResponse(t *testing.T) {
	line := `{"type":"hook_response","request_id":"r1","tool_use_id":"t1","hook_event_name":"PreToolUse","continue":false,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`
	m, err := parser.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := m.(*parser.HookResponseLine)
	if !ok {
		t.Fatalf("Parse gave %T, want *parser.HookResponseLine", m)
	}
	if r.RequestID != "r1" || r.ToolUseID != "t1" || r.HookEventName != shared.HookEventPreToolUse || r.Type() != "hook_response" || string(r.Raw) != line {
		t.Errorf("HookResponseMessage = %+v", r)
	}
	var w hooks.Answer
	if err := jsonv2.Unmarshal(r.Output, &w); err != nil {
		t.Fatal(err)
	}
	if w.Continue == nil || *w.Continue {
		t.Errorf("Output continue = %v, want false", w.Continue)
	}
	if diff := jsonDiff(t, []byte(`{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}`), mustJSON(t, w.HookSpecificOutput)); diff != "" {
		t.Errorf("hookSpecificOutput (-want +got):\n%s", diff)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseNotJSON(t *testing.T) {
	for _, line := range []string{
		"", " ", "not json", "Error: something on stdout", `[{"type":"result"}]`, `[]`, `null`, `"result"`, `42`, `true`,
		`{"type":"result","subtype":"success"`, `{"type":"res`, `{"type":"result"}}`, `{"type":"result"} {"type":"result"}`,
		`{"a":1,}`, `{'type':'result'}`, "{\"type\":\"result\"}\x00",
	} {
		t.Run(line, func(t *testing.T) {
			m, err := parser.Parse([]byte(line))
			if !errors.Is(err, parser.ErrNotJSON) || m != nil {
				t.Errorf("Parse(%q) = %v, %v; want nil, ErrNotJSON", line, m, err)
			}
		})
	}
}

func TestParseDecodeErrors(t *testing.T) {
	tests := []struct {
		name             string
		line             string
		wantType         string
		wantSubtype      string
		wantInput        bool // the cause is a *parser.InputError
		wantInputEvent   shared.HookEvent
		wantReasonSubstr string
	}{
		{"hook_callback without hook_event_name", hookCallback(`{"session_id":"s","cwd":"/p","tool_name":"Bash"}`), "control_request", "hook_callback", true, "", "hook_event_name"},
		{"hook_callback with empty hook_event_name", hookCallback(`{"hook_event_name":"","tool_name":"Bash"}`), "control_request", "hook_callback", true, "", "hook_event_name"},
		{"hook_callback with numeric hook_event_name", hookCallback(`{"hook_event_name":5}`), "control_request", "hook_callback", true, "", "hook_event_name"},
		{"tool_name is a number", hookCallback(`{"hook_event_name":"PreToolUse","tool_name":42,"tool_input":{}}`), "control_request", "hook_callback", true, "PreToolUse", "tool_name"},
		{"tool_input is a string", hookCallback(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`), "control_request", "hook_callback", true, "PreToolUse", "tool_input"},
		{"stop_hook_active is a string", hookCallback(`{"hook_event_name":"Stop","stop_hook_active":"yes"}`), "control_request", "hook_callback", true, "Stop", "stop_hook_active"},
		{"session_id is an object", hookCallback(`{"hook_event_name":"Stop","session_id":{}}`), "control_request", "hook_callback", true, "Stop", "session_id"},
		{"tool event without tool_name", hookCallback(`{"hook_event_name":"PostToolUse","tool_input":{}}`), "control_request", "hook_callback", true, "PostToolUse", "tool_name"},
		{"input not an object", `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","input":"x"}}`, "control_request", "hook_callback", false, "", "input"},
		{"control_request without request_id", `{"type":"control_request","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{}}}`, "control_request", "can_use_tool", false, "", "request_id"},
		{"control_request with numeric request_id", `{"type":"control_request","request_id":7,"request":{"subtype":"interrupt"}}`, "control_request", "interrupt", false, "", "request_id"},
		{"control_request without request", `{"type":"control_request","request_id":"r"}`, "control_request", "", false, "", "request"},
		{"can_use_tool with bad input", `{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":[1]}}`, "control_request", "can_use_tool", false, "", ""},
		{"control_response without response", `{"type":"control_response","request_id":"r"}`, "control_response", "", false, "", "response"},
		{"control_cancel_request without request_id", `{"type":"control_cancel_request"}`, "control_cancel_request", "", false, "", "request_id"},
		{"system with tools as a string", `{"type":"system","subtype":"init","tools":"Bash"}`, "system", "init", false, "", ""},
		{"user with bad blocks", `{"type":"user","message":{"role":"user","content":[1,2]}}`, "user", "", false, "", ""},
		{"result with string num_turns", `{"type":"result","subtype":"success","num_turns":"2"}`, "result", "success", false, "", ""},
		{"hook_event with a bad field", `{"type":"hook_event","hook_event_name":"PreToolUse","tool_name":1}`, "hook_event", "", true, "PreToolUse", "tool_name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.Parse([]byte(tc.line))
			var de *parser.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Parse = %v, %v; want a *parser.DecodeError", m, err)
			}
			if m != nil {
				t.Errorf("Parse returned a message with its error: %T", m)
			}
			if errors.Is(err, parser.ErrNotJSON) {
				t.Errorf("a decode error is also ErrNotJSON")
			}
			if de.Type != tc.wantType || de.Subtype != tc.wantSubtype {
				t.Errorf("DecodeError{Type: %q, Subtype: %q}, want {%q, %q}", de.Type, de.Subtype, tc.wantType, tc.wantSubtype)
			}
			if de.Unwrap() == nil {
				t.Errorf("DecodeError wraps nothing")
			}
			var ie *parser.InputError
			if got := errors.As(err, &ie); got != tc.wantInput {
				t.Fatalf("errors.As(err, *InputError) = %v, want %v (err: %v)", got, tc.wantInput, err)
			}
			if ie != nil && ie.Event != tc.wantInputEvent {
				t.Errorf("InputError.Event = %q, want %q", ie.Event, tc.wantInputEvent)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "parser: decoding "+tc.wantType) || !strings.Contains(msg, tc.wantReasonSubstr) {
				t.Errorf("Error() = %q, want the prefix %q and %q", msg, "parser: decoding "+tc.wantType, tc.wantReasonSubstr)
			}
		})
	}
}

func hookCallback(input string) string {
	return `{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","callback_id":"cb","input":` + input + `,"tool_use_id":"u"}}`
}

// Parse is safe for concurrent use (run with -race).
func TestParseConcurrent(t *testing.T) {
	var lines [][]byte
	for _, s := range loadStreamSamples(t) {
		lines = append(lines, s.Msg)
	}
	for _, h := range loadHookCallbacks(t) {
		lines = append(lines, h.Line)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(lines))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, l := range lines {
				if _, err := parser.Parse(l); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Request and the hook input's Raw may share the line's memory, but appending to them must not
// write into the line.
func TestParseSubslicesDoNotAlias(t *testing.T) {
	line := []byte(hookCallback(`{"hook_event_name":"Stop","session_id":"s","cwd":"/p","x":{"y":1}}`))
	orig := string(line)
	m, err := parser.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	r := m.(*parser.ControlRequest)
	b := r.HookCallback.Input.Base()
	_ = append(r.Request, "XXXXXXXX"...)
	_ = append(b.Raw, "YYYYYYYY"...)
	_ = append(b.Extra["x"], "ZZZZZZZZ"...)
	if string(line) != orig {
		t.Errorf("appending to a decoded field changed the line:\n%s\nwas\n%s", line, orig)
	}
	if string(b.Extra["x"]) != `{"y":1}` {
		t.Errorf("Extra[x] = %s", b.Extra["x"])
	}
}
