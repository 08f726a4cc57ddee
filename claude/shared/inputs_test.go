package shared_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// wantInputType is the concrete type NewHookInput must return for each event, spelled out (not
// derived from the code under test).
var wantInputType = map[shared.HookEvent]string{
	"PreToolUse":           "*shared.PreToolUseHookInput",
	"PreSkillShellCommand": "*shared.PreSkillShellCommandHookInput",
	"PostToolUse":          "*shared.PostToolUseHookInput",
	"PostToolUseFailure":   "*shared.PostToolUseFailureHookInput",
	"PostToolBatch":        "*shared.PostToolBatchHookInput",
	"Notification":         "*shared.NotificationHookInput",
	"UserPromptSubmit":     "*shared.UserPromptSubmitHookInput",
	"UserPromptExpansion":  "*shared.UserPromptExpansionHookInput",
	"SessionStart":         "*shared.SessionStartHookInput",
	"SessionEnd":           "*shared.SessionEndHookInput",
	"Stop":                 "*shared.StopHookInput",
	"StopFailure":          "*shared.StopFailureHookInput",
	"SubagentStart":        "*shared.SubagentStartHookInput",
	"SubagentStop":         "*shared.SubagentStopHookInput",
	"PreCompact":           "*shared.PreCompactHookInput",
	"PostCompact":          "*shared.PostCompactHookInput",
	"PreModelSwitch":       "*shared.PreModelSwitchHookInput",
	"PostModelSwitch":      "*shared.PostModelSwitchHookInput",
	"PermissionRequest":    "*shared.PermissionRequestHookInput",
	"PermissionDenied":     "*shared.PermissionDeniedHookInput",
	"Setup":                "*shared.SetupHookInput",
	"TeammateIdle":         "*shared.GenericHookInput",
	"TaskCreated":          "*shared.GenericHookInput",
	"TaskCompleted":        "*shared.GenericHookInput",
	"Elicitation":          "*shared.ElicitationHookInput",
	"ElicitationResult":    "*shared.ElicitationResultHookInput",
	"ConfigChange":         "*shared.ConfigChangeHookInput",
	"WorktreeCreate":       "*shared.GenericHookInput",
	"WorktreeRemove":       "*shared.GenericHookInput",
	"InstructionsLoaded":   "*shared.InstructionsLoadedHookInput",
	"CwdChanged":           "*shared.GenericHookInput",
	"FileChanged":          "*shared.FileChangedHookInput",
	"DirectoryAdded":       "*shared.DirectoryAddedHookInput",
	"MessageDisplay":       "*shared.MessageDisplayHookInput",
}

func TestAllHookEvents(t *testing.T) {
	all := shared.AllHookEvents()
	if len(all) != 34 {
		t.Errorf("len(AllHookEvents()) = %d, want the CLI's 34", len(all))
	}
	seen := map[shared.HookEvent]bool{}
	for _, e := range all {
		if seen[e] {
			t.Errorf("%s listed twice", e)
		}
		seen[e] = true
		if !e.IsKnown() {
			t.Errorf("%s.IsKnown() = false", e)
		}
		if e.String() != string(e) {
			t.Errorf("%s.String() = %q", e, e.String())
		}
		if _, ok := wantInputType[e]; !ok {
			t.Errorf("%s has no entry in this test's table", e)
		}
	}
	if len(seen) != len(wantInputType) {
		t.Errorf("AllHookEvents has %d events, the table %d", len(seen), len(wantInputType))
	}
	all[0] = "Changed"
	if shared.AllHookEvents()[0] == "Changed" {
		t.Errorf("AllHookEvents returns a shared slice, want a fresh copy")
	}
	for _, e := range []shared.HookEvent{"", "Unknown", "pretooluse", "PreToolUse "} {
		if e.IsKnown() {
			t.Errorf("HookEvent(%q).IsKnown() = true", e)
		}
	}
}

func TestHookEventClasses(t *testing.T) {
	tool := []shared.HookEvent{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
	guards := []shared.HookEvent{"PreToolUse", "PermissionRequest", "UserPromptSubmit", "UserPromptExpansion", "PreModelSwitch", "PreSkillShellCommand"}
	noMatcher := []shared.HookEvent{"UserPromptSubmit", "Stop", "PostToolBatch", "TeammateIdle", "TaskCreated", "TaskCompleted"}
	newer := map[shared.HookEvent]string{"PreSkillShellCommand": "2.1.332"}
	var gotTool, gotGuards, gotNoMatcher []shared.HookEvent
	gotNewer := map[shared.HookEvent]string{}
	for _, e := range shared.AllHookEvents() {
		if v := e.FirstCLIVersion(); v != "" {
			gotNewer[e] = v
		}
		if e.IsToolEvent() {
			gotTool = append(gotTool, e)
		}
		if e.GuardsAction() {
			gotGuards = append(gotGuards, e)
		}
		if !e.UsesMatcher() {
			gotNoMatcher = append(gotNoMatcher, e)
		}
	}
	sorted := cmpopts.SortSlices(func(a, b shared.HookEvent) bool { return a < b })
	if diff := cmp.Diff(tool, gotTool, sorted); diff != "" {
		t.Errorf("IsToolEvent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(guards, gotGuards, sorted); diff != "" {
		t.Errorf("GuardsAction (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(noMatcher, gotNoMatcher, sorted); diff != "" {
		t.Errorf("!UsesMatcher (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(newer, gotNewer); diff != "" {
		t.Errorf("FirstCLIVersion (-want +got):\n%s", diff)
	}
}

func TestNewHookInput(t *testing.T) {
	events := append(shared.AllHookEvents(), "", "SomeFutureEvent")
	for _, e := range events {
		t.Run(string(e), func(t *testing.T) {
			in := shared.NewHookInput(e)
			want, ok := wantInputType[e]
			if !ok {
				want = "*shared.GenericHookInput"
			}
			if got := fmt.Sprintf("%T", in); got != want {
				t.Fatalf("NewHookInput(%q) is %s, want %s", e, got, want)
			}
			// Base returns the embedded BaseHookInput, not a copy.
			v := reflect.ValueOf(in)
			if v.Kind() != reflect.Pointer || v.IsNil() {
				t.Fatalf("NewHookInput(%q) = %v, want a non-nil pointer", e, in)
			}
			emb := v.Elem().FieldByName("BaseHookInput")
			if !emb.IsValid() {
				t.Fatalf("%T does not embed BaseHookInput", in)
			}
			if got, want := in.Base(), emb.Addr().Interface().(*shared.BaseHookInput); got != want {
				t.Errorf("%T.Base() = %p, want the embedded base %p", in, got, want)
			}
			in.Base().SessionID = "s1"
			if emb.FieldByName("SessionID").String() != "s1" {
				t.Errorf("writing through Base() did not change the input")
			}
			// Empty inputs have no match value.
			if mv := in.MatchValue(); mv != "" {
				t.Errorf("%T{}.MatchValue() = %q, want \"\"", in, mv)
			}
			// Tool events, and only they, have tool-call fields.
			if got := shared.ToolCall(in) != nil; got != e.IsToolEvent() {
				t.Errorf("ToolCall(%T) != nil is %v, want %v", in, got, e.IsToolEvent())
			}
			// Every call returns a fresh value.
			if shared.NewHookInput(e) == in {
				t.Errorf("NewHookInput returned the same value twice")
			}
		})
	}
}

func TestMatchValue(t *testing.T) {
	tool := shared.ToolCallFields{ToolName: "mcp__my-srv__echo_tool", ToolInput: shared.ToolInput{"x": "y"}}
	base := shared.BaseHookInput{AgentType: "Explore", Cwd: "/p"}
	tests := []struct {
		name string
		in   shared.HookInput
		want string
	}{
		{"PreToolUse", &shared.PreToolUseHookInput{BaseHookInput: base, ToolCallFields: tool}, "mcp__my-srv__echo_tool"},
		{"PostToolUse", &shared.PostToolUseHookInput{ToolCallFields: shared.ToolCallFields{ToolName: "Bash"}}, "Bash"},
		{"PostToolUseFailure", &shared.PostToolUseFailureHookInput{ToolCallFields: shared.ToolCallFields{ToolName: "Bash"}, Error: "Exit code 3"}, "Bash"},
		{"PermissionRequest", &shared.PermissionRequestHookInput{ToolCallFields: shared.ToolCallFields{ToolName: "Write"}}, "Write"},
		{"PermissionDenied", &shared.PermissionDeniedHookInput{ToolCallFields: shared.ToolCallFields{ToolName: "Edit"}, Reason: "r"}, "Edit"},
		{"SessionStart", &shared.SessionStartHookInput{Source: "clear", Model: "m"}, "clear"},
		{"SessionEnd", &shared.SessionEndHookInput{Reason: "logout"}, "logout"},
		{"SubagentStart", &shared.SubagentStartHookInput{BaseHookInput: shared.BaseHookInput{AgentType: "general-purpose", AgentID: "a1"}}, "general-purpose"},
		{"SubagentStop", &shared.SubagentStopHookInput{BaseHookInput: shared.BaseHookInput{AgentType: "Explore"}}, "Explore"},
		{"PreCompact", &shared.PreCompactHookInput{Trigger: "manual", CustomInstructions: "x"}, "manual"},
		{"PostCompact", &shared.PostCompactHookInput{Trigger: "auto"}, "auto"},
		{"Setup", &shared.SetupHookInput{Trigger: "init"}, "init"},
		{"Notification", &shared.NotificationHookInput{Message: "m", NotificationType: "permission_prompt"}, "permission_prompt"},
		{"StopFailure", &shared.StopFailureHookInput{Error: "rate_limit"}, "rate_limit"},
		{"UserPromptExpansion", &shared.UserPromptExpansionHookInput{CommandName: "greet", Prompt: "/greet Bob"}, "greet"},
		{"PreModelSwitch", &shared.PreModelSwitchHookInput{ModelSwitchFields: shared.ModelSwitchFields{FromModel: "a", ToModel: "b"}}, "b"},
		{"PostModelSwitch", &shared.PostModelSwitchHookInput{ModelSwitchFields: shared.ModelSwitchFields{FromModel: "a", ToModel: "c"}}, "c"},
		{"InstructionsLoaded", &shared.InstructionsLoadedHookInput{FilePath: "/p/CLAUDE.md", LoadReason: "nested_traversal"}, "nested_traversal"},
		{"ConfigChange", &shared.ConfigChangeHookInput{Source: "local_settings", FilePath: "/p/x"}, "local_settings"},
		{"DirectoryAdded", &shared.DirectoryAddedHookInput{Source: "cli"}, "cli"},
		{"Elicitation", &shared.ElicitationHookInput{MCPServerName: "my-srv"}, "my-srv"},
		{"ElicitationResult", &shared.ElicitationResultHookInput{MCPServerName: "my-srv"}, "my-srv"},
		{"FileChanged basename", &shared.FileChangedHookInput{FilePath: "/home/user/project/.envrc"}, ".envrc"},
		{"FileChanged relative", &shared.FileChangedHookInput{FilePath: "dir/a.txt"}, "a.txt"},
		{"FileChanged bare", &shared.FileChangedHookInput{FilePath: "a.txt"}, "a.txt"},
		{"FileChanged trailing slash", &shared.FileChangedHookInput{FilePath: "/p/dir/"}, ""},
		// Events without a match value report "" whatever their fields hold.
		{"UserPromptSubmit", &shared.UserPromptSubmitHookInput{BaseHookInput: base, Prompt: "Bash"}, ""},
		{"Stop", &shared.StopHookInput{BaseHookInput: base, LastAssistantMessage: "Bash"}, ""},
		{"PostToolBatch", &shared.PostToolBatchHookInput{BaseHookInput: base, ToolCalls: []shared.BatchToolCall{{ToolName: "Bash"}}}, ""},
		{"MessageDisplay", &shared.MessageDisplayHookInput{Delta: "Bash"}, ""},
		{"Generic", &shared.GenericHookInput{BaseHookInput: base}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.MatchValue(); got != tc.want {
				t.Errorf("%T.MatchValue() = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestToolCall(t *testing.T) {
	in := &shared.PermissionRequestHookInput{ToolCallFields: shared.ToolCallFields{ToolName: "Bash"}}
	tc := shared.ToolCall(in)
	if tc == nil {
		t.Fatal("ToolCall(PermissionRequest) = nil")
	}
	tc.ToolUseID = "toolu_9"
	if in.ToolUseID != "toolu_9" {
		t.Errorf("ToolCall returned a copy, want a pointer into the input")
	}
	if shared.ToolCall(nil) != nil || shared.ToolCall(&shared.StopHookInput{}) != nil {
		t.Errorf("ToolCall of nil or Stop != nil")
	}
}

func TestHandlerFor(t *testing.T) {
	wantOut := shared.Deny("typed")
	var calls int
	var got *shared.PreToolUseHookInput
	h := shared.HandlerFor(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		calls++
		got = in
		return wantOut, nil
	})
	pre := &shared.PreToolUseHookInput{BaseHookInput: shared.BaseHookInput{HookEventName: "PreToolUse"}, ToolCallFields: shared.ToolCallFields{ToolName: "Bash"}}
	out, err := h.Handle(context.Background(), pre)
	if err != nil || out != shared.HookOutput(wantOut) || calls != 1 || got != pre {
		t.Fatalf("right type: out=%v err=%v calls=%d got=%p; want the handler's output, one call with %p", out, err, calls, got, pre)
	}

	tests := []struct {
		name      string
		in        shared.HookInput
		wantEvent shared.HookEvent
		wantGot   string
	}{
		{"other event", &shared.PostToolUseHookInput{BaseHookInput: shared.BaseHookInput{HookEventName: "PostToolUse"}}, "PostToolUse", "*shared.PostToolUseHookInput"},
		{"generic", &shared.GenericHookInput{BaseHookInput: shared.BaseHookInput{HookEventName: "PreToolUse"}}, "PreToolUse", "*shared.GenericHookInput"},
		{"nil", nil, "", "<nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls = 0
			out, err := h.Handle(context.Background(), tc.in)
			if calls != 0 {
				t.Errorf("handler called %d times for %T, want 0", calls, tc.in)
			}
			if out != nil {
				t.Errorf("output = %v, want nil", out)
			}
			var ite *shared.InputTypeError
			if !errors.As(err, &ite) {
				t.Fatalf("error = %v, want an *InputTypeError", err)
			}
			if ite.Want != "*shared.PreToolUseHookInput" || ite.Event != tc.wantEvent || fmt.Sprintf("%T", ite.Got) != tc.wantGot {
				t.Errorf("InputTypeError{Want: %q, Got: %T, Event: %q}, want {*shared.PreToolUseHookInput, %s, %q}", ite.Want, ite.Got, ite.Event, tc.wantGot, tc.wantEvent)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "shared: ") || !strings.Contains(msg, "PreToolUseHookInput") {
				t.Errorf("Error() = %q", msg)
			}
		})
	}
}

// Each typed adapter accepts its own input type and refuses another one.
func TestTypedAdapters(t *testing.T) {
	ctx := context.Background()
	ok := func(called *bool) shared.HookOutput { *called = true; return nil }
	tests := []struct {
		name  string
		make  func(called *bool) shared.HookHandler
		event shared.HookEvent
	}{
		{"OnPreToolUse", func(c *bool) shared.HookHandler {
			return shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "PreToolUse"},
		{"OnPostToolUse", func(c *bool) shared.HookHandler {
			return shared.OnPostToolUse(func(context.Context, *shared.PostToolUseHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "PostToolUse"},
		{"OnPostToolUseFailure", func(c *bool) shared.HookHandler {
			return shared.OnPostToolUseFailure(func(context.Context, *shared.PostToolUseFailureHookInput) (shared.HookOutput, error) {
				return ok(c), nil
			})
		}, "PostToolUseFailure"},
		{"OnUserPromptSubmit", func(c *bool) shared.HookHandler {
			return shared.OnUserPromptSubmit(func(context.Context, *shared.UserPromptSubmitHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "UserPromptSubmit"},
		{"OnStop", func(c *bool) shared.HookHandler {
			return shared.OnStop(func(context.Context, *shared.StopHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "Stop"},
		{"OnSubagentStart", func(c *bool) shared.HookHandler {
			return shared.OnSubagentStart(func(context.Context, *shared.SubagentStartHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "SubagentStart"},
		{"OnSubagentStop", func(c *bool) shared.HookHandler {
			return shared.OnSubagentStop(func(context.Context, *shared.SubagentStopHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "SubagentStop"},
		{"OnPreCompact", func(c *bool) shared.HookHandler {
			return shared.OnPreCompact(func(context.Context, *shared.PreCompactHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "PreCompact"},
		{"OnNotification", func(c *bool) shared.HookHandler {
			return shared.OnNotification(func(context.Context, *shared.NotificationHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "Notification"},
		{"OnSessionStart", func(c *bool) shared.HookHandler {
			return shared.OnSessionStart(func(context.Context, *shared.SessionStartHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "SessionStart"},
		{"OnSessionEnd", func(c *bool) shared.HookHandler {
			return shared.OnSessionEnd(func(context.Context, *shared.SessionEndHookInput) (shared.HookOutput, error) { return ok(c), nil })
		}, "SessionEnd"},
		{"OnPermissionRequest", func(c *bool) shared.HookHandler {
			return shared.OnPermissionRequest(func(context.Context, *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
				return ok(c), nil
			})
		}, "PermissionRequest"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var called bool
			h := tc.make(&called)
			if _, err := h.Handle(ctx, shared.NewHookInput(tc.event)); err != nil || !called {
				t.Errorf("own input: err=%v called=%v; want nil, true", err, called)
			}
			called = false
			other := shared.HookEvent("PostToolBatch")
			_, err := h.Handle(ctx, shared.NewHookInput(other))
			var ite *shared.InputTypeError
			if called || !errors.As(err, &ite) {
				t.Errorf("other input: err=%v called=%v; want an *InputTypeError and no call", err, called)
			}
		})
	}
}
