package v2_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A session that guards tool calls with Go hooks or a permission callback asks the CLI for its
// hooks (get_hooks_listing) and refuses to start next to a hook of the user's, project's or local
// settings (or a plugin) on PreToolUse or PermissionRequest, which could allow or rewrite a tool
// call past the guard; a CLI that does not list its hooks is refused too. A session that guards
// nothing does not ask. The real CLI's case: TestRealCLI_UntrustedHookRewritesPastGoGuards.
func TestReplay_GuardedSessionChecksTheHookListing(t *testing.T) {
	t.Parallel()
	const ask = `expect {"type":"control_request","request_id":"$capture:listing","request":{"subtype":"get_hooks_listing"}}
`
	answer := func(hooks string) string {
		return `send {"type":"control_response","response":{"subtype":"success","request_id":"$listing","response":{"hooks":[` + hooks + `],"policy":{}}}}` + "\n"
	}
	noop := func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil }
	preToolUse := v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(noop))
	permissionRequest := v2.WithHook(shared.HookEventPermissionRequest, "", shared.HookHandlerFunc(noop))
	callback := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		return &shared.PermissionResult{Behavior: shared.PermissionDeny}, nil
	})
	for _, tc := range []struct {
		name    string
		guard   v2.Option
		reply   string
		refused string // a piece of CreateSession's error; "" when the session starts
	}{
		{"Go PreToolUse guard, project hook", preToolUse,
			answer(`{"event":"PreToolUse","source":"projectSettings","sourceLabel":"Project settings (.claude/settings.json)","commandText":"./rewrite.sh"}`),
			`PreToolUse hook of Project settings (.claude/settings.json) ("./rewrite.sh")`},
		{"Go PermissionRequest guard, local PreToolUse hook", permissionRequest,
			answer(`{"event":"PreToolUse","source":"localSettings","sourceLabel":"Local settings (.claude/settings.local.json)","commandText":"./allow.sh"}`),
			"Local settings (.claude/settings.local.json)"},
		{"permission callback, user PermissionRequest hook", callback,
			answer(`{"event":"PermissionRequest","source":"userSettings","sourceLabel":"User settings (~/.claude/settings.json)","commandText":"./allow.sh"}`),
			"User settings (~/.claude/settings.json)"},
		{"Go PreToolUse guard, plugin hook", preToolUse,
			answer(`{"event":"PreToolUse","source":"pluginHook","sourceLabel":"Plugin","pluginName":"fmt","commandText":"./fmt.sh"}`),
			"Plugin fmt"},
		{"Go PreToolUse guard, listing refused", preToolUse,
			`send {"type":"control_response","response":{"subtype":"error","request_id":"$listing","error":"Unsupported control request subtype: get_hooks_listing"}}` + "\n",
			"did not list its hooks"},
		{"Go PreToolUse guard, listing unreadable", preToolUse, `send {"type":"control_response","response":{"subtype":"success","request_id":"$listing","response":{"hooks":{}}}}` + "\n",
			"unreadable"},
		{"Go PreToolUse guard, only trusted hooks and a project Stop hook", preToolUse,
			answer(`{"event":"PreToolUse","source":"policySettings"},{"event":"PreToolUse","source":"builtinHook"},{"event":"Stop","source":"projectSettings","commandText":"./notify.sh"}`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+ask+tc.reply+"eof\n")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := v2.CreateSession(ctx, append(r.opts, tc.guard)...)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("CreateSession: %v", err)
				}
				s.Close()
				return
			}
			if err == nil {
				s.Close()
				t.Fatal("CreateSession started a session whose guard a hook of the repository's settings could outrun")
			}
			if !errors.Is(err, v2.ErrHooksNotEnforced) || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("CreateSession = %v, want ErrHooksNotEnforced naming %q", err, tc.refused)
			}
			if r := tc.reply; strings.Contains(r, `"hooks":[{`) && !strings.Contains(err.Error(), "WithSettingSources naming only the sources") {
				t.Errorf("CreateSession's error %q does not say how to leave the settings out", err)
			}
		})
	}

	// A session with no guard of tool calls (a PostToolUse hook only) does not ask.
	t.Run("no guard: not asked", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+"eof\n")
		s := r.session(t, v2.WithHook(shared.HookEventPostToolUse, "", shared.HookHandlerFunc(noop)))
		s.Close()
		if slices.ContainsFunc(r.stdin(t), func(m map[string]any) bool {
			req, _ := m["request"].(map[string]any)
			return req["subtype"] == "get_hooks_listing"
		}) {
			t.Error("the SDK asked for the hook listing of a session that guards no tool call")
		}
	})
}
