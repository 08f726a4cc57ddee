package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Real-CLI tests of the hook kinds beyond Go callbacks: settings command and prompt hooks, the
// Go-side command hook, scoped and subagent hooks, async hooks, hook events, context injection.

// writeScript writes an executable shell script into dir and returns its path.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A settings command hook runs next to a Go hook for the same call: the CLI runs both (in
// parallel) and a deny from either side wins. The user's own settings (a hook of theirs, an env
// key) are kept.
func TestRealCLI_SettingsCommandHookNextToGoHook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		cmd        string // the settings command hook's body
		goDenies   bool
		wantReason string
	}{
		{"command hook exit 2 denies, Go hook allows", `echo "cmd hook says no" >&2; exit 2`, false, "cmd hook says no"},
		{"command hook JSON allows, Go hook denies", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`, true, "go hook says no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/ran.txt")), claudetest.TextReply("done")}
			})
			marks := t.TempDir()
			ours := writeScript(t, marks, "ours.sh", `cat > "`+marks+`/ours.json"; echo "$FROM_USER_SETTINGS" > "`+marks+`/env.txt"; `+tc.cmd)
			theirs := writeScript(t, marks, "theirs.sh", `cat > "`+marks+`/theirs.json"`)
			var pre recorder[*shared.PreToolUseHookInput]
			s := env.session(t, v2.WithAllowedTools("Bash"),
				v2.WithSettings(`{"env":{"FROM_USER_SETTINGS":"kept"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+theirs+`"}]}]}}`),
				v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventPreToolUse: {{Matcher: "Bash", Command: ours, Timeout: 10 * time.Second}}}),
				v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: pre.handler(func(*shared.PreToolUseHookInput) shared.HookOutput {
					if tc.goDenies {
						return shared.Deny("go hook says no")
					}
					return shared.Allow()
				})}}}))
			msgs, _ := query(t, s, "touch it")
			if env.exists("ran.txt") {
				t.Error("the tool ran although one side denied it")
			}
			if pre.len() != 1 {
				t.Errorf("Go hook ran %d times", pre.len())
			}
			for _, f := range []string{"ours.json", "theirs.json"} {
				if b, err := os.ReadFile(filepath.Join(marks, f)); err != nil || !strings.Contains(string(b), `"tool_name":"Bash"`) {
					t.Errorf("%s: the command hook did not get the input: %q %v", f, b, err)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(marks, "env.txt")); strings.TrimSpace(string(b)) != "kept" {
				t.Errorf("the user's settings env did not reach the hook: %q", b)
			}
			if tr := toolResults(msgs)["toolu_01"]; !tr.IsError || !strings.Contains(tr.ContentText(), tc.wantReason) {
				t.Errorf("tool result %q (error %v), want the denial %q", tr.ContentText(), tr.IsError, tc.wantReason)
			}
		})
	}
}

// A settings prompt hook: the CLI asks the model in a side request; {"ok":false} blocks the tool,
// {"ok":true} lets it run.
func TestRealCLI_SettingsPromptHook(t *testing.T) {
	t.Parallel()
	for _, ok := range []bool{false, true} {
		name := map[bool]string{false: "ok false blocks", true: "ok true runs"}[ok]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/ran.txt")), claudetest.TextReply("done")}
			})
			env.api.SetSideHandler(func(r claudetest.Request) claudetest.Reply {
				if !strings.Contains(r.System, "evaluating a hook") {
					return claudetest.TextReply(claudetest.SideText)
				}
				if ok {
					return claudetest.TextReply(`{"ok":true,"reason":"fine"}`)
				}
				return claudetest.TextReply(`{"ok":false,"reason":"prompt hook says no"}`)
			})
			s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithPromptHooks(map[shared.HookEvent][]v2.SettingsPromptHook{
				shared.HookEventPreToolUse: {{Matcher: "Bash", Prompt: "Is this command safe? $ARGUMENTS", Timeout: 30 * time.Second}},
			}))
			msgs, _ := query(t, s, "touch it")
			var asked bool
			for _, r := range env.api.SideRequests() {
				if strings.Contains(r.System, "evaluating a hook") && r.Contains("Is this command safe?") && r.Contains("ran.txt") {
					asked = true
				}
			}
			if !asked {
				t.Error("no side request carried the prompt hook's question with the event's input")
			}
			if env.exists("ran.txt") != ok {
				t.Errorf("ran.txt exists %v, want %v", env.exists("ran.txt"), ok)
			}
			if tr := toolResults(msgs)["toolu_01"]; !ok && !strings.Contains(tr.ContentText(), "prompt hook says no") {
				t.Errorf("tool result %q, want the prompt hook's reason", tr.ContentText())
			}
		})
	}
}

// The Go-side command hook (v2.CommandHandler) with the real CLI: exit 0 with JSON, exit 2, exit
// 1 (PreToolUse fails closed), exit 0 with plain text, no output; a PostToolUse command hook that
// exits 1 does not stop anything (fail open).
func TestRealCLI_CommandHandlerExitCodes(t *testing.T) {
	t.Parallel()
	names := []string{"json-deny", "exit2", "exit1", "plain", "silent"}
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		var rs []claudetest.Reply
		for i, n := range names {
			rs = append(rs, claudetest.ToolReply("toolu_0"+string(rune('1'+i)), "Bash", bash("touch "+p+"/"+n+".txt")))
		}
		return append(rs, claudetest.TextReply("done"))
	})
	script := writeScript(t, t.TempDir(), "guard.sh", `case "$HOOK_TOOL_INPUT" in
*json-deny*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}';;
*exit2*) echo "exit 2 says no" >&2; exit 2;;
*exit1*) echo "broken guard" >&2; exit 1;;
*plain*) echo "plain words";;
esac`)
	var post recorder[*shared.PostToolUseHookInput]
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: v2.CommandHandler(script, shared.CommandHookOptions{})}},
		shared.HookEventPostToolUse: {
			{Handler: v2.CommandHandler("echo post hook broken >&2; exit 1", shared.CommandHookOptions{})},
			{Handler: post.handler(nil)},
		},
	}))
	msgs, res := query(t, s, "touch five files")
	results := toolResults(msgs)
	for i, tc := range []struct {
		ran    bool
		reason string
	}{
		{false, "json says no"},
		{false, "exit 2 says no"},
		{false, "exited with code 1: broken guard"},
		{true, ""},
		{true, ""},
	} {
		n := names[i]
		if env.exists(n+".txt") != tc.ran {
			t.Errorf("%s: file made %v, want %v", n, env.exists(n+".txt"), tc.ran)
		}
		tr := results["toolu_0"+string(rune('1'+i))]
		if !tc.ran && (!tr.IsError || !strings.Contains(tr.ContentText(), tc.reason)) {
			t.Errorf("%s: tool result %q, want the reason %q", n, tr.ContentText(), tc.reason)
		}
	}
	if post.len() != 2 {
		t.Errorf("after the failing PostToolUse command hook, the next handler ran %d times, want 2 (fail open)", post.len())
	}
	if len(denials(t, res)) != 3 {
		t.Errorf("permission_denials %s, want 3", res.PermissionDenials)
	}
}

// A scoped hook registered on a running session fires only between RegisterScoped and
// UnregisterScoped; the session tells the CLI about the new event with a second initialize.
func TestRealCLI_ScopedHook(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("one"),
			claudetest.ToolReply("toolu_02", "Bash", bash("touch "+p+"/b.txt")), claudetest.TextReply("two"),
			claudetest.ToolReply("toolu_03", "Bash", bash("touch "+p+"/c.txt")), claudetest.TextReply("three"),
		}
	})
	var ups recorder[*shared.UserPromptSubmitHookInput]
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHooks(shared.Hooks{shared.HookEventUserPromptSubmit: {{Handler: ups.handler(nil)}}}))
	run(t, s, "first")
	var scoped recorder[*shared.PreToolUseHookInput]
	if err := s.RegisterScoped(testCtx(t), "no-touch", shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: scoped.handler(func(*shared.PreToolUseHookInput) shared.HookOutput {
		return shared.Deny("scoped: no touching")
	})}}}); err != nil {
		t.Fatalf("RegisterScoped: %v", err)
	}
	msgs, _ := query(t, s, "second")
	if !s.UnregisterScoped("no-touch") {
		t.Fatal("UnregisterScoped: not registered")
	}
	run(t, s, "third")
	if !env.exists("a.txt") || env.exists("b.txt") || !env.exists("c.txt") {
		t.Errorf("files a %v b %v c %v, want a and c only", env.exists("a.txt"), env.exists("b.txt"), env.exists("c.txt"))
	}
	if tr := toolResults(msgs)["toolu_02"]; !strings.Contains(tr.ContentText(), "scoped: no touching") {
		t.Errorf("tool result %q", tr.ContentText())
	}
	if scoped.len() != 1 || ups.len() != 3 {
		t.Errorf("scoped hook ran %d times (want 1), base hook %d (want 3)", scoped.len(), ups.len())
	}
}

// Hooks scoped to a real subagent (the CLI's Agent tool): WithSubagentHooks registers them at
// its SubagentStart; they fire for the subagent's own tool call only, not for the main agent's
// before or after, and they end at its SubagentStop.
func TestRealCLI_SubagentScopedHooks(t *testing.T) {
	t.Parallel()
	env := newRealEnvHandler(t, func(p string, r claudetest.Request) claudetest.Reply {
		all := ""
		for _, m := range r.Messages {
			all += textOf(m)
		}
		if strings.Contains(textOf(r.Messages[0]), "SUBAGENT-PROMPT") {
			if strings.Contains(all, "tool_result:toolu_s1") {
				return claudetest.TextReply("sub done")
			}
			return claudetest.ToolReply("toolu_s1", "Bash", bash("touch "+p+"/sub.txt"))
		}
		switch {
		case strings.Contains(all, "tool_result:toolu_03"):
			return claudetest.TextReply("done")
		case strings.Contains(all, "tool_result:toolu_02"):
			return claudetest.ToolReply("toolu_03", "Bash", bash("touch "+p+"/main-after.txt"))
		case strings.Contains(all, "tool_result:toolu_01"):
			return claudetest.ToolReply("toolu_02", "Agent", map[string]any{"description": "probe", "prompt": "SUBAGENT-PROMPT touch a file",
				"subagent_type": "general-purpose", "run_in_background": false})
		}
		return claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/main-before.txt"))
	})
	var mu sync.Mutex
	var started []*shared.SubagentStartHookInput
	var scopedSaw []string
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithSubagentHooks(func(in *shared.SubagentStartHookInput) shared.Hooks {
		mu.Lock()
		started = append(started, in)
		mu.Unlock()
		return shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			mu.Lock()
			scopedSaw = append(scopedSaw, in.AgentID+" "+in.ToolUseID)
			mu.Unlock()
			return shared.Deny("subagents may not touch files"), nil
		})}}}
	}))
	msgs, res := query(t, s, "go")
	if res.Result != "done" {
		t.Fatalf("result %q", res.Result)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(started) != 1 || started[0].AgentID == "" || started[0].AgentType != "general-purpose" {
		t.Fatalf("SubagentStart inputs %+v", started)
	}
	agent := started[0].AgentID
	if len(scopedSaw) != 1 || scopedSaw[0] != agent+" toolu_s1" {
		t.Errorf("the scoped hook saw %q, want only the subagent's call (%s toolu_s1)", scopedSaw, agent)
	}
	if !env.exists("main-before.txt") || !env.exists("main-after.txt") || env.exists("sub.txt") {
		t.Errorf("main-before %v, main-after %v, sub %v: want the main agent's files only",
			env.exists("main-before.txt"), env.exists("main-after.txt"), env.exists("sub.txt"))
	}
	if tr := toolResults(msgs)["toolu_s1"]; !strings.Contains(tr.ContentText(), "subagents may not touch files") {
		t.Errorf("subagent tool result %q", tr.ContentText())
	}
	if ids := s.Scopes(); len(ids) != 0 {
		t.Errorf("scopes after the subagent stopped: %q", ids)
	}
}

// An async hook: the CLI gets its answer at once (the turn ends while the work is still blocked),
// the work finishes in the background and its end is a HookResponse (Async) on the stream. For
// PreToolUse an async answer is refused: the tool does not run.
func TestRealCLI_AsyncHook(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/guarded.txt")),
			claudetest.ToolReply("toolu_02", "Bash", bash("touch "+p+"/free.txt")),
			claudetest.TextReply("done"),
		}
	})
	release := make(chan struct{})
	var audited []string
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHookEvents(), v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			if strings.Contains(in.ToolInput.String("command"), "guarded") {
				return shared.Async(time.Second, func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }), nil
			}
			return nil, nil
		})}},
		shared.HookEventPostToolUse: {{Name: "audit", Handler: shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
			cmd := in.ToolInput.String("command")
			return shared.Async(30*time.Second, func(ctx context.Context) (shared.HookOutput, error) {
				select {
				case <-release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				audited = append(audited, cmd) // read after the end event, which follows this return
				return nil, nil
			}), nil
		})}},
	}))
	msgs, res := query(t, s, "touch two files")
	if res.Result != "done" {
		t.Fatalf("result %q", res.Result)
	}
	if env.exists("guarded.txt") || !env.exists("free.txt") {
		t.Errorf("guarded %v free %v: the async PreToolUse must deny, the other call run", env.exists("guarded.txt"), env.exists("free.txt"))
	}
	if tr := toolResults(msgs)["toolu_01"]; !strings.Contains(tr.ContentText(), "async answer refused") {
		t.Errorf("guarded tool result %q", tr.ContentText())
	}
	// The turn ended while the audit work was blocked: the CLI did not wait for it.
	close(release)
	var end *shared.HookResponse
	for m, err := range s.Receive(testCtx(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if hr, ok := m.(*shared.HookResponse); ok && hr.Async {
			end = hr
			break
		}
	}
	if end == nil || end.HookName != "audit" || end.Outcome != shared.HookOutcomeSuccess || end.Duration <= 0 || end.ToolUseID != "toolu_02" {
		t.Fatalf("async end event %+v", end)
	}
	if len(audited) != 1 || !strings.Contains(audited[0], "free.txt") {
		t.Errorf("audited %q", audited)
	}
}

// Hook events: a Go command hook's run as started, output lines in order, and end with a duration;
// the CLI's settings command hook as the same types with Source "cli".
func TestRealCLI_HookEvents(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo hi")), claudetest.TextReply("done")}
	})
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHookEvents(),
		v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventPostToolUse: {{Matcher: "Bash", Command: "echo from-cli-hook"}}}),
		v2.WithHooks(shared.Hooks{shared.HookEventPostToolUse: {{Name: "lint", Handler: v2.CommandHandler("echo step one; echo step two; echo warn >&2", shared.CommandHookOptions{})}}}))
	msgs, _ := query(t, s, "say hi")
	var sdk, cli []string
	var sdkEnd, cliEnd *shared.HookResponse
	for _, m := range msgs {
		switch v := m.(type) {
		case *shared.HookStarted:
			if v.Source == shared.HookSourceSDK {
				sdk = append(sdk, "started "+v.HookName+" "+v.ToolUseID)
			} else {
				cli = append(cli, "started "+v.HookName)
			}
		case *shared.HookProgress:
			if v.Source == shared.HookSourceSDK && v.Stream == "stdout" {
				sdk = append(sdk, "stdout "+v.Line)
			}
		case *shared.HookResponse:
			if v.Source == shared.HookSourceSDK {
				sdk, sdkEnd = append(sdk, "response "+string(v.Outcome)), v
			} else {
				cli, cliEnd = append(cli, "response "+v.HookName+" "+string(v.Outcome)), v
			}
		case *shared.SystemMessage:
			if strings.HasPrefix(v.Subtype, "hook_") {
				t.Errorf("a CLI hook line stayed a SystemMessage: %s", v.Raw)
			}
		}
	}
	wantSDK := []string{"started lint toolu_01", "stdout step one", "stdout step two", "response success"}
	if strings.Join(sdk, "|") != strings.Join(wantSDK, "|") {
		t.Errorf("Go hook events %q, want %q", sdk, wantSDK)
	}
	if sdkEnd == nil || sdkEnd.Duration <= 0 {
		t.Errorf("Go hook end %+v, want a duration", sdkEnd)
	}
	if strings.Join(cli, "|") != "started PostToolUse:Bash|response PostToolUse:Bash success" {
		t.Errorf("CLI hook events %q", cli)
	}
	if cliEnd == nil || cliEnd.ExitCode == nil || *cliEnd.ExitCode != 0 || !strings.Contains(cliEnd.Stdout, "from-cli-hook") || cliEnd.Duration <= 0 {
		t.Errorf("CLI hook end %+v", cliEnd)
	}
}

// additionalContext from a PostToolUse Go hook and from a settings command hook of the same call
// both reach the model's next request.
func TestRealCLI_ContextFromGoAndCommandHooks(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo hi")), claudetest.TextReply("done")}
	})
	s := env.session(t, v2.WithAllowedTools("Bash"),
		v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventPostToolUse: {{Matcher: "Bash",
			Command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CMD-CTX-2468"}}'`}}}),
		v2.WithHooks(shared.Hooks{shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.AddContext("GO-CTX-1357"), nil
		})}}}))
	run(t, s, "say hi")
	reqs := env.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if reqs[0].Contains("GO-CTX-1357") || reqs[0].Contains("CMD-CTX-2468") {
		t.Error("the context was in the request before the tool ran")
	}
	if !reqs[1].Contains("GO-CTX-1357") || !reqs[1].Contains("CMD-CTX-2468") {
		t.Errorf("next request has Go context %v, command context %v; want both", reqs[1].Contains("GO-CTX-1357"), reqs[1].Contains("CMD-CTX-2468"))
	}
}
