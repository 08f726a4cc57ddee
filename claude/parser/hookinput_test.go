package parser_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// hookGolden is, for each real hook_callback, what the typed input must hold beyond the common
// checks: the keys the type has no field for (Extra), the match value, and a few fields.
var hookGolden = map[shared.HookEvent]struct {
	extra      []string
	matchValue string
	check      func(t *testing.T, in shared.HookInput)
}{
	"UserPromptSubmit": {nil, "", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.UserPromptSubmitHookInput); v.Prompt != "run echo" || v.PermissionMode != "default" {
			t.Errorf("%+v", v)
		}
	}},
	"PreToolUse": {nil, "Bash", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PreToolUseHookInput)
		want := shared.ToolCallFields{ToolName: "Bash", ToolInput: shared.ToolInput{"command": "echo hi", "description": "probe"}, ToolUseID: "toolu_01"}
		if diff := cmp.Diff(want, v.ToolCallFields); diff != "" {
			t.Errorf("tool call (-want +got):\n%s", diff)
		}
		if v.Effort == nil || v.Effort.Level != "medium" || v.PromptID != "10e976b6-0f5a-4107-b56a-feb2221b544b" {
			t.Errorf("Effort = %v, PromptID = %q", v.Effort, v.PromptID)
		}
	}},
	"PostToolUse": {nil, "Bash", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PostToolUseHookInput)
		if v.DurationMS != 28 || gjson.GetBytes(v.ToolResponse, "stdout").String() != "hi" || v.ToolUseID != "toolu_01" {
			t.Errorf("DurationMS = %d, ToolResponse = %s", v.DurationMS, v.ToolResponse)
		}
	}},
	"PostToolBatch": {nil, "", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PostToolBatchHookInput)
		if len(v.ToolCalls) != 1 || v.ToolCalls[0].ToolName != "Bash" || v.ToolCalls[0].ToolUseID != "toolu_01" || string(v.ToolCalls[0].ToolResponse) != `"hi"` {
			t.Errorf("ToolCalls = %+v", v.ToolCalls)
		}
	}},
	"MessageDisplay": {nil, "", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.MessageDisplayHookInput)
		if !v.Final || v.Delta != "done" || v.Index != 0 || v.MessageID != "cf8be6c7-3f1e-48ba-a4fc-176a1cbeba3d" || v.TurnID == "" {
			t.Errorf("%+v", v)
		}
	}},
	"Stop": {nil, "", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.StopHookInput)
		if v.StopHookActive || v.LastAssistantMessage != "done" || string(v.BackgroundTasks) != "[]" || string(v.SessionCrons) != "[]" {
			t.Errorf("%+v", v)
		}
	}},
	"PostToolUseFailure": {nil, "Bash", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PostToolUseFailureHookInput)
		if v.Error != "Exit code 3" || v.IsInterrupt || v.DurationMS != 34 || v.ToolInput.String("command") != "exit 3" {
			t.Errorf("%+v", v)
		}
	}},
	"PermissionRequest": {nil, "Bash", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PermissionRequestHookInput)
		// Not in the input: filled from the request's tool_use_id.
		if v.ToolUseID != "toolu_01" {
			t.Errorf("ToolUseID = %q, want toolu_01 from the request", v.ToolUseID)
		}
		want := []shared.PermissionUpdate{
			{Type: shared.PermissionAddRules, Rules: []shared.PermissionRuleValue{{ToolName: "Bash", RuleContent: "touch /home/user/project/touched.txt && echo touched"}}, Behavior: shared.PermissionAllow, Destination: shared.PermissionToLocalSettings},
			{Type: shared.PermissionAddDirectories, Directories: []string{"/home/user/project"}, Destination: shared.PermissionToSession},
			{Type: shared.PermissionSetMode, Mode: "acceptEdits", Destination: shared.PermissionToSession},
		}
		if d := cmp.Diff(want, v.PermissionSuggestions); d != "" {
			t.Errorf("PermissionSuggestions (-want +got):\n%s", d)
		}
		if gjson.GetBytes(v.Raw, "tool_use_id").Exists() {
			t.Errorf("Raw was modified: it has a tool_use_id")
		}
	}},
	"PermissionDenied": {nil, "Bash", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.PermissionDeniedHookInput); v.Reason != "Classifier unavailable" || v.PermissionMode != "plan" {
			t.Errorf("%+v", v)
		}
	}},
	"SubagentStart": {nil, "general-purpose", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.SubagentStartHookInput); v.AgentID != "a3c50f50f409065bc" {
			t.Errorf("%+v", v)
		}
	}},
	"SubagentStop": {nil, "general-purpose", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.SubagentStopHookInput); v.LastAssistantMessage != "subagent result 2" || v.AgentTranscriptPath == "" || v.AgentID != "a3c50f50f409065bc" {
			t.Errorf("%+v", v)
		}
	}},
	"PreCompact": {nil, "manual", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.PreCompactHookInput); v.CustomInstructions != "keep it short" {
			t.Errorf("%+v", v)
		}
	}},
	"SessionStart": {nil, "compact", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.SessionStartHookInput); v.Model != "claude-opus-5-5" {
			t.Errorf("%+v", v)
		}
	}},
	"PostCompact": {nil, "manual", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.PostCompactHookInput); v.CompactSummary != "<summary>SUMMARY TEXT</summary>" {
			t.Errorf("%+v", v)
		}
	}},
	"UserPromptExpansion": {nil, "greet", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.UserPromptExpansionHookInput)
		want := shared.UserPromptExpansionHookInput{ExpansionType: "slash_command", CommandName: "greet", CommandArgs: "Bob", CommandSource: "projectSettings", Prompt: "/greet Bob"}
		if diff := cmp.Diff(want, *v, cmpopts.IgnoreFields(shared.UserPromptExpansionHookInput{}, "BaseHookInput")); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}},
	"PreModelSwitch": {[]string{"cache_ttl", "estimated_cache_write_usd", "pricing", "prompt_cache_warm"}, "claude-sonnet-4-5", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.PreModelSwitchHookInput)
		want := shared.ModelSwitchFields{FromModel: "claude-opus-5-5", ToModel: "claude-sonnet-4-5", RequestedModel: "claude-sonnet-4-5", Source: "sdk", ContextTokens: 10}
		if diff := cmp.Diff(want, v.ModelSwitchFields); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if string(v.Extra["cache_ttl"]) != `"5m"` || string(v.Extra["prompt_cache_warm"]) != "true" {
			t.Errorf("Extra = %v", v.Extra)
		}
	}},
	"PostModelSwitch": {[]string{"cache_ttl", "estimated_cache_write_usd", "pricing", "prompt_cache_warm"}, "claude-sonnet-4-5", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.PostModelSwitchHookInput); v.FromModel != "claude-opus-5-5" {
			t.Errorf("%+v", v)
		}
	}},
	"SessionEnd": {nil, "clear", nil},
	"StopFailure": {nil, "unknown", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.StopFailureHookInput); v.LastAssistantMessage != "API Error: 400 fake error" {
			t.Errorf("%+v", v)
		}
	}},
	"Notification": {nil, "permission_prompt", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.NotificationHookInput); v.Message != "Claude needs your permission to use Bash" {
			t.Errorf("%+v", v)
		}
	}},
	"InstructionsLoaded": {nil, "nested_traversal", func(t *testing.T, in shared.HookInput) {
		v := in.(*shared.InstructionsLoadedHookInput)
		if v.FilePath != "/home/user/project2/sub/CLAUDE.md" || v.MemoryType != "Project" || v.TriggerFilePath != "/home/user/project2/sub/x.txt" {
			t.Errorf("%+v", v)
		}
	}},
	"ConfigChange": {nil, "local_settings", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.ConfigChangeHookInput); v.FilePath != "/home/user/project2/.claude/settings.local.json" {
			t.Errorf("%+v", v)
		}
	}},
	"FileChanged": {nil, "watched.txt", func(t *testing.T, in shared.HookInput) {
		if v := in.(*shared.FileChangedHookInput); v.Event != "change" || v.FilePath != "/home/user/project2/watched.txt" {
			t.Errorf("%+v", v)
		}
	}},
}

func TestParseHookCallbacks(t *testing.T) {
	samples := loadHookCallbacks(t)
	seen := map[shared.HookEvent]bool{}
	for _, s := range samples {
		e := shared.HookEvent(s.Event)
		t.Run(s.Event, func(t *testing.T) {
			seen[e] = true
			g, ok := hookGolden[e]
			if !ok {
				t.Fatalf("no golden for %s", e)
			}
			m, err := parser.Parse(s.Line)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			req, ok := m.(*parser.ControlRequest)
			if !ok {
				t.Fatalf("Parse gave %T, want *parser.ControlRequest", m)
			}
			line := gjson.ParseBytes(s.Line)
			if req.RequestID != line.Get("request_id").Str || req.Subtype != "hook_callback" || req.CanUseTool != nil {
				t.Errorf("ControlRequest{RequestID: %q, Subtype: %q}", req.RequestID, req.Subtype)
			}
			if diff := jsonDiff(t, []byte(line.Get("request").Raw), req.Request); diff != "" {
				t.Errorf("Request (-want +got):\n%s", diff)
			}
			cb := req.HookCallback
			if cb == nil {
				t.Fatal("HookCallback is nil")
			}
			if cb.CallbackID != line.Get("request.callback_id").Str || cb.CallbackID == "" {
				t.Errorf("CallbackID = %q", cb.CallbackID)
			}
			if cb.ToolUseID != line.Get("request.tool_use_id").Str || cb.ToolUseID == "" {
				t.Errorf("ToolUseID = %q", cb.ToolUseID)
			}
			in := cb.Input
			if got, want := fmt.Sprintf("%T", in), fmt.Sprintf("%T", shared.NewHookInput(e)); got != want || want == "*shared.GenericHookInput" {
				t.Fatalf("Input is %s, want %s (not generic)", got, want)
			}
			b := in.Base()
			rawInput := []byte(line.Get("request.input").Raw)
			if diff := jsonDiff(t, rawInput, b.Raw); diff != "" {
				t.Errorf("Base().Raw is not the input (-want +got):\n%s", diff)
			}
			if b.HookEventName != e || b.SessionID == "" || b.Cwd == "" || b.TranscriptPath == "" {
				t.Errorf("base = {HookEventName: %q, SessionID: %q, Cwd: %q, TranscriptPath: %q}", b.HookEventName, b.SessionID, b.Cwd, b.TranscriptPath)
			}
			var extraKeys []string
			for k := range b.Extra {
				extraKeys = append(extraKeys, k)
			}
			if diff := cmp.Diff(g.extra, extraKeys, cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Extra keys (-want +got):\n%s", diff)
			}
			if len(g.extra) == 0 && b.Extra != nil {
				t.Errorf("Extra = %v, want nil when there are none", b.Extra)
			}
			for k, v := range b.Extra {
				if diff := jsonDiff(t, []byte(gjson.GetBytes(rawInput, k).Raw), v); diff != "" {
					t.Errorf("Extra[%q] (-want +got):\n%s", k, diff)
				}
			}
			if mv := in.MatchValue(); mv != g.matchValue {
				t.Errorf("MatchValue() = %q, want %q", mv, g.matchValue)
			}
			checkNothingLost(t, in, rawInput)
			if g.check != nil {
				g.check(t, in)
			}
		})
	}
	for e := range hookGolden {
		if !seen[e] {
			t.Errorf("golden %s has no sample", e)
		}
	}
}

// checkNothingLost checks that every key of raw is either in Extra or decoded into a field: the
// typed input, marshalled again (JSON v2), holds the same value (or the key is omitted and the value
// is one that omitempty drops).
func checkNothingLost(t *testing.T, in shared.HookInput, raw []byte) {
	t.Helper()
	typed, err := jsonv2.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	gjson.ParseBytes(raw).ForEach(func(k, v gjson.Result) bool {
		if _, ok := in.Base().Extra[k.Str]; ok {
			return true
		}
		got := gjson.GetBytes(typed, gjson.Escape(k.Str))
		if !got.Exists() {
			// A zero or empty value may be left out by omitempty.
			var zero any
			_ = jsonv2.Unmarshal([]byte(v.Raw), &zero)
			if rv := reflect.ValueOf(zero); zero != nil && !rv.IsZero() && !((rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.Len() == 0) {
				t.Errorf("key %q (%s) is neither decoded nor in Extra", k.Str, v.Raw)
			}
			return true
		}
		if diff := jsonDiff(t, []byte(v.Raw), []byte(got.Raw)); diff != "" {
			t.Errorf("key %q decoded differently (-want +got):\n%s", k.Str, diff)
		}
		return true
	})
}

func TestDecodeHookInput(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		wantType  string
		wantEvent shared.HookEvent
		wantExtra map[string]jsontext.Value
	}{
		{"unknown event", `{"hook_event_name":"TeammateIdle","session_id":"s","cwd":"/p","teammate_name":"bob","team":{"a":1}}`,
			"*shared.GenericHookInput", "TeammateIdle",
			map[string]jsontext.Value{"teammate_name": jsontext.Value(`"bob"`), "team": jsontext.Value(`{"a":1}`)}},
		{"event this SDK does not know", `{"hook_event_name":"BrandNewEvent","session_id":"s","cwd":"/p","x":[1,2]}`,
			"*shared.GenericHookInput", "BrandNewEvent", map[string]jsontext.Value{"x": jsontext.Value(`[1,2]`)}},
		{"new field on a known event", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"future":null}`,
			"*shared.PreToolUseHookInput", "PreToolUse", map[string]jsontext.Value{"future": jsontext.Value(`null`)}},
		{"escaped key", `{"hook_event_name":"Stop","we\"ird":1}`,
			"*shared.StopHookInput", "Stop", map[string]jsontext.Value{`we"ird`: jsontext.Value(`1`)}},
		{"null tool_input", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":null}`,
			"*shared.PreToolUseHookInput", "PreToolUse", nil},
		{"names differing only in case are distinct", `{"hook_event_name":"PreToolUse","tool_name":"Bash","Tool_Name":"Write","tool_input":{"command":"ls","Command":"rm"}}`,
			"*shared.PreToolUseHookInput", "PreToolUse", map[string]jsontext.Value{"Tool_Name": jsontext.Value(`"Write"`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := parser.DecodeHookInput([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", in); got != tc.wantType {
				t.Errorf("type %s, want %s", got, tc.wantType)
			}
			b := in.Base()
			if b.HookEventName != tc.wantEvent {
				t.Errorf("HookEventName = %q, want %q", b.HookEventName, tc.wantEvent)
			}
			if got := fmt.Sprintf("%T", shared.NewHookInput(b.HookEventName)); got != tc.wantType {
				t.Errorf("HookEventName %q does not name the decoded type %s", b.HookEventName, tc.wantType)
			}
			if string(b.Raw) != tc.raw {
				t.Errorf("Raw = %s", b.Raw)
			}
			if diff := cmp.Diff(tc.wantExtra, b.Extra); diff != "" {
				t.Errorf("Extra (-want +got):\n%s", diff)
			}
		})
	}

	for _, raw := range []string{
		`{}`, `{"hook_event_name":null}`, `{"hook_event_name":["PreToolUse"]}`, `[]`, `not json`,
		// JSON.parse keeps the last of duplicate names, a first-wins reader the first: an error.
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","hook_event_name":"Stop"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"}}`,
		"{\"hook_event_name\":\"Stop\",\"x\":\"\xff\"}",
	} {
		t.Run("error/"+raw, func(t *testing.T) {
			in, err := parser.DecodeHookInput([]byte(raw))
			var ie *parser.InputError
			if !errors.As(err, &ie) || in != nil {
				t.Fatalf("DecodeHookInput(%s) = %v, %v; want an *InputError", raw, in, err)
			}
		})
	}
}

// Every event decodes into the type shared.NewHookInput makes for it: inputDecoders has a row for
// each event, of the right type.
func TestInputDecodersMatchNewHookInput(t *testing.T) {
	for _, e := range append(shared.AllHookEvents(), "SomeFutureEvent") {
		in, err := parser.DecodeHookInput([]byte(`{"hook_event_name":"` + string(e) + `","tool_name":"Bash","x":1}`))
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		if got, want := fmt.Sprintf("%T", in), fmt.Sprintf("%T", shared.NewHookInput(e)); got != want {
			t.Errorf("%s decodes into %s, want %s", e, got, want)
		}
		if _, ok := in.Base().Extra["x"]; !ok {
			t.Errorf("%s: Extra = %v, want the unknown member x", e, in.Base().Extra)
		}
	}
}
