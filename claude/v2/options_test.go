package v2_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// untrustedDefaults are the arguments that keep the repository's settings and MCP servers out.
var untrustedDefaults = []string{"--strict-mcp-config", "--setting-sources=user"}

// withoutUntrustedDefaults checks that args hold untrustedDefaults unless an option changed one
// (a --setting-sources in want), and returns args without them, for the argv tables.
func withoutUntrustedDefaults(t *testing.T, args, want []string) []string {
	t.Helper()
	changed := slices.ContainsFunc(want, func(a string) bool { return strings.HasPrefix(a, "--setting-sources") })
	for _, d := range untrustedDefaults {
		if !slices.Contains(args, d) && !(changed && strings.HasPrefix(d, "--setting-sources")) {
			t.Errorf("args %q lack %s", args, d)
		}
	}
	return slices.DeleteFunc(slices.Clone(args), func(a string) bool { return slices.Contains(untrustedDefaults, a) && !slices.Contains(want, a) })
}

func TestArgs(t *testing.T) {
	base := []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json"}
	canUse := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil })
	const id = "11111111-2222-4333-8444-555555555555"
	const bypass = "--dangerously-skip-permissions"
	cases := []struct {
		name string
		opts []v2.Option
		want []string
	}{
		{"defaults", nil, []string{"--system-prompt="}},
		{"model", []v2.Option{v2.WithModel("claude-sonnet-4-5")}, []string{"--model=claude-sonnet-4-5", "--system-prompt="}},
		{"model that looks like a flag", []v2.Option{v2.WithModel(bypass)}, []string{"--model=" + bypass, "--system-prompt="}},
		{"system prompt", []v2.Option{v2.WithSystemPrompt("be brief")}, []string{"--system-prompt=be brief"}},
		{"system prompt that looks like a flag", []v2.Option{v2.WithSystemPrompt(bypass)}, []string{"--system-prompt=" + bypass}},
		{"empty system prompt", []v2.Option{v2.WithSystemPrompt("")}, []string{"--system-prompt="}},
		{"the CLI's system prompt", []v2.Option{v2.WithClaudeCodeSystemPrompt()}, nil},
		{"the CLI's system prompt, appended to", []v2.Option{v2.WithClaudeCodeSystemPrompt(), v2.WithAppendSystemPrompt("x")}, []string{"--append-system-prompt=x"}},
		{"a system prompt, appended to", []v2.Option{v2.WithSystemPrompt("s"), v2.WithAppendSystemPrompt("x")}, []string{"--system-prompt=s", "--append-system-prompt=x"}},
		{"append system prompt", []v2.Option{v2.WithAppendSystemPrompt("-p more")}, []string{"--append-system-prompt=-p more"}},
		{"allowed tools", []v2.Option{v2.WithAllowedTools("Bash", "Read"), v2.WithAllowedTools("Bash(git *)")}, []string{"--system-prompt=", "--allowedTools=Bash,Read,Bash(git *)"}},
		{"allowed tools that look like a flag", []v2.Option{v2.WithAllowedTools(bypass)}, []string{"--system-prompt=", "--allowedTools=" + bypass}},
		{"disallowed tools", []v2.Option{v2.WithDisallowedTools("--x", "Write")}, []string{"--system-prompt=", "--disallowedTools=--x,Write"}},
		{"permission mode", []v2.Option{v2.WithPermissionMode(v2.PermissionModeDontAsk)}, []string{"--system-prompt=", "--permission-mode=dontAsk"}},
		{"max turns", []v2.Option{v2.WithMaxTurns(3)}, []string{"--system-prompt=", "--max-turns=3"}},
		{"max turns zero", []v2.Option{v2.WithMaxTurns(0)}, []string{"--system-prompt="}},
		{"add dirs", []v2.Option{v2.WithAdditionalDirs("/a", bypass, "/c=d")}, []string{"--system-prompt=", "--add-dir=/a", "--add-dir=" + bypass, "--add-dir=/c=d"}},
		{"resume", []v2.Option{v2.WithResume(id)}, []string{"--system-prompt=", "--resume=" + id}},
		{"resume with a system prompt", []v2.Option{v2.WithResume(id), v2.WithAppendSystemPrompt("x")},
			[]string{"--append-system-prompt=x", "--system-prompt-snapshot=off", "--resume=" + id}},
		{"continue", []v2.Option{v2.WithContinue()}, []string{"--system-prompt=", "--continue"}},
		{"fork", []v2.Option{v2.WithContinue(), v2.WithForkSession(), v2.WithSessionID(id)}, []string{"--system-prompt=", "--continue", "--fork-session", "--session-id=" + id}},
		{"session id", []v2.Option{v2.WithSessionID(id)}, []string{"--system-prompt=", "--session-id=" + id}},
		{"settings", []v2.Option{v2.WithSettings(`{"env":{"A":"b"}}`)}, []string{"--system-prompt=", `--settings={"env":{"A":"b"}}`}},
		{"settings that look like a flag", []v2.Option{v2.WithSettings(bypass)}, []string{"--system-prompt=", "--settings=" + bypass}},
		{"partial messages", []v2.Option{v2.WithIncludePartialMessages()}, []string{"--system-prompt=", "--include-partial-messages"}},
		{"hook events", []v2.Option{v2.WithHookEvents()}, []string{"--system-prompt=", "--include-hook-events"}},
		{"can use tool", []v2.Option{canUse}, []string{"--system-prompt=", "--permission-prompt-tool=stdio"}},
		{"extra args last, as given", []v2.Option{v2.WithExtraArgs("--effort", "low"), v2.WithModel("m")}, []string{"--model=m", "--system-prompt=", "--effort", "low"}},
		{"env is not an arg", []v2.Option{v2.WithEnv("A=b"), v2.WithCwd("/tmp")}, []string{"--system-prompt="}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v2.ArgsFor(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got = withoutUntrustedDefaults(t, got, tc.want)
			if diff := cmp.Diff(append(append([]string{}, base...), tc.want...), got); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOptionsValidation(t *testing.T) {
	const okID = "11111111-2222-4333-8444-555555555555"
	nop := shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })
	cases := []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"permission mode", []v2.Option{v2.WithPermissionMode("yolo")}, `unknown permission mode "yolo"`},
		{"resume and continue", []v2.Option{v2.WithResume(okID), v2.WithContinue()}, "exclude each other"},
		{"session id on resume", []v2.Option{v2.WithResume(okID), v2.WithSessionID(okID)}, "WithSessionID needs a new session"},
		{"fork alone", []v2.Option{v2.WithForkSession()}, "WithForkSession needs WithResume or WithContinue"},
		{"max turns", []v2.Option{v2.WithMaxTurns(-1)}, "WithMaxTurns: negative"},
		{"hook timeout", []v2.Option{v2.WithHookTimeout(0)}, "WithHookTimeout: must be positive"},
		{"bad matcher", []v2.Option{v2.WithHook(shared.HookEventPreToolUse, "Bash(", nop)}, "PreToolUse[0]"},
		{"nil handler", []v2.Option{v2.WithHook(shared.HookEventStop, "", nil)}, "nil handler"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v2.ArgsFor(tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			// CreateSession rejects them before looking for the CLI.
			if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v", err)
			}
		})
	}
	var re *shared.RegistrationError
	if _, err := v2.ArgsFor(v2.WithHook(shared.HookEventPreToolUse, "Bash(", nop)); !errors.As(err, &re) {
		t.Errorf("bad matcher error %T, want *shared.RegistrationError", err)
	}
}

// WithResume and WithSessionID take a UUID and nothing else: a value that the CLI could read as a
// flag, a session name or a search term is a *v2.SessionIDError from CreateSession, before any
// CLI starts.
func TestSessionIDValidation(t *testing.T) {
	cases := []struct {
		name   string
		opt    v2.Option
		option string
		ok     bool
	}{
		{"resume uuid", v2.WithResume("11111111-2222-4333-8444-555555555555"), "WithResume", true},
		{"resume upper-case uuid", v2.WithResume("ABCDEF01-2222-4333-8444-555555555555"), "WithResume", true},
		{"resume flag", v2.WithResume("--dangerously-skip-permissions"), "WithResume", false},
		{"resume short flag", v2.WithResume("-p"), "WithResume", false},
		{"resume name", v2.WithResume("my session"), "WithResume", false},
		{"resume uuid with a tail", v2.WithResume("11111111-2222-4333-8444-555555555555 --x"), "WithResume", false},
		{"resume no dashes", v2.WithResume("11111111222243338444555555555555"), "WithResume", false},
		{"resume non-hex", v2.WithResume("1111111g-2222-4333-8444-555555555555"), "WithResume", false},
		{"session id uuid", v2.WithSessionID("11111111-2222-4333-8444-555555555555"), "WithSessionID", true},
		{"session id flag", v2.WithSessionID("--dangerously-skip-permissions"), "WithSessionID", false},
		{"session id short", v2.WithSessionID("1234"), "WithSessionID", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v2.ArgsFor(tc.opt)
			if tc.ok {
				if err != nil {
					t.Fatalf("ArgsFor: %v", err)
				}
				return
			}
			var se *v2.SessionIDError
			if !errors.As(err, &se) || se.Option != tc.option {
				t.Fatalf("ArgsFor: %v, want a *v2.SessionIDError for %s", err, tc.option)
			}
			_, err = v2.CreateSession(context.Background(), tc.opt, v2.WithCLIPath("/nonexistent/claude"))
			if !errors.As(err, &se) {
				t.Errorf("CreateSession: %v, want a *v2.SessionIDError", err)
			}
		})
	}
}

// The initialize registration: exact-name lists are registered as their union (the CLI reads them
// the same way), anything else as "" with the SDK filtering locally; timeouts in seconds above the
// SDK's own; onFailure block for events that guard an action.
func TestHookRegistration(t *testing.T) {
	nop := shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })
	cfg := func(ms ...string) []shared.HookConfig {
		var c []shared.HookConfig
		for _, m := range ms {
			c = append(c, shared.HookConfig{Matcher: m, Handler: nop})
		}
		return c
	}
	cases := []struct {
		name  string
		hooks shared.Hooks
		want  string
	}{
		{"lists", shared.Hooks{shared.HookEventPreToolUse: cfg("Bash", "Bash|Read", "Read, Write")},
			`{"PreToolUse":[{"matcher":"Bash|Read|Write","hookCallbackIds":["hook_PreToolUse"],"timeout":6,"onFailure":"block"}]}`},
		{"a regex widens to all", shared.Hooks{shared.HookEventPostToolUse: cfg("Bash", "Edit.*")},
			`{"PostToolUse":[{"hookCallbackIds":["hook_PostToolUse"],"timeout":6}]}`},
		{"a glob widens to all", shared.Hooks{shared.HookEventPreToolUse: cfg("mcp__*")},
			`{"PreToolUse":[{"hookCallbackIds":["hook_PreToolUse"],"timeout":6,"onFailure":"block"}]}`},
		{"no matcher events", shared.Hooks{shared.HookEventStop: cfg("Bash"), shared.HookEventUserPromptSubmit: cfg("")},
			`{"Stop":[{"hookCallbackIds":["hook_Stop"],"timeout":6}],"UserPromptSubmit":[{"hookCallbackIds":["hook_UserPromptSubmit"],"timeout":6,"onFailure":"block"}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v2.HookRegistrationFor(tc.hooks, v2.WithHookTimeout(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("registration (-want +got):\n%s", diff)
			}
		})
	}
}
