package v2_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// PreToolUse allow with updatedInput: the CLI runs the rewritten command, not the model's, and
// skips the permission prompt that `touch` would need (no WithAllowedTools here).
func TestRealCLI_PreToolUseAllowRewritesInput(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("done")}
	})
	var pre recorder[*shared.PreToolUseHookInput]
	var post recorder[*shared.PostToolUseHookInput]
	s := env.session(t, v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: pre.handler(func(in *shared.PreToolUseHookInput) shared.HookOutput {
			in2 := in.ToolInput.Clone()
			in2["command"] = strings.Replace(in.ToolInput.String("command"), "a.txt", "b.txt", 1)
			return shared.AllowWithInput(in2)
		})}},
		shared.HookEventPostToolUse: {{Handler: post.handler(nil)}},
	}))
	res := run(t, s, "touch a")
	if res.IsError {
		t.Fatalf("result: %+v", res)
	}
	if env.exists("a.txt") {
		t.Error("the original command ran")
	}
	if !env.exists("b.txt") {
		t.Error("the rewritten command did not run")
	}
	if p := post.all(); len(p) != 1 || !strings.HasSuffix(p[0].ToolInput.String("command"), "/b.txt") {
		t.Errorf("PostToolUse saw %+v, want the rewritten input", p)
	}
	if d := denials(t, res); len(d) != 0 {
		t.Errorf("permission_denials = %s", res.PermissionDenials)
	}
}

// PostToolUse sees the tool's real output; additionalContext from PostToolUse and from
// UserPromptSubmit reaches the next model request.
func TestRealCLI_PostToolUseOutputAndAdditionalContext(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo hi-from-bash")), claudetest.TextReply("done")}
	})
	var post recorder[*shared.PostToolUseHookInput]
	var ups recorder[*shared.UserPromptSubmitHookInput]
	s := env.session(t, v2.WithHooks(shared.Hooks{
		shared.HookEventPostToolUse: {{Matcher: "Bash", Handler: post.handler(func(*shared.PostToolUseHookInput) shared.HookOutput {
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "POST-CTX-4711"}}
		})}},
		shared.HookEventUserPromptSubmit: {{Handler: ups.handler(func(*shared.UserPromptSubmitHookInput) shared.HookOutput {
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.UserPromptSubmitOutput{AdditionalContext: "UPS-CTX-0815"}}
		})}},
	}))
	run(t, s, "say hi")

	p := post.all()
	if len(p) != 1 {
		t.Fatalf("PostToolUse ran %d times", len(p))
	}
	var resp struct {
		Stdout string `json:"stdout"`
	}
	if err := json.Unmarshal(p[0].ToolResponse, &resp); err != nil || strings.TrimSpace(resp.Stdout) != "hi-from-bash" {
		t.Errorf("tool_response = %s (%v)", p[0].ToolResponse, err)
	}
	if u := ups.all(); len(u) != 1 || u[0].Prompt != "say hi" {
		t.Errorf("UserPromptSubmit saw %+v", u)
	}
	reqs := env.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if !reqs[0].Contains("UPS-CTX-0815") {
		t.Error("UserPromptSubmit additionalContext is not in the first request")
	}
	if reqs[0].Contains("POST-CTX-4711") || !reqs[1].Contains("POST-CTX-4711") {
		t.Error("PostToolUse additionalContext did not reach (only) the request after the tool")
	}
}

// A Stop hook that blocks once forces exactly one more model turn, and the second Stop says
// stop_hook_active.
func TestRealCLI_StopBlockForcesOneMoreTurn(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.TextReply("first"), claudetest.TextReply("second"), claudetest.TextReply("third")}
	})
	var stop recorder[*shared.StopHookInput]
	s := env.session(t, v2.WithHooks(shared.Hooks{
		shared.HookEventStop: {{Handler: stop.handler(func(in *shared.StopHookInput) shared.HookOutput {
			if in.StopHookActive {
				return nil
			}
			return shared.Block("keep going please")
		})}},
	}))
	res := run(t, s, "go")
	if res.Result != "second" || res.IsError {
		t.Errorf("result %q (is_error %v), want second", res.Result, res.IsError)
	}
	st := stop.all()
	if len(st) != 2 || st[0].StopHookActive || !st[1].StopHookActive {
		t.Fatalf("Stop calls: %d, stop_hook_active %v", len(st), func() (a []bool) {
			for _, s := range st {
				a = append(a, s.StopHookActive)
			}
			return
		}())
	}
	if st[0].LastAssistantMessage != "first" || st[1].LastAssistantMessage != "second" {
		t.Errorf("last_assistant_message %q, %q", st[0].LastAssistantMessage, st[1].LastAssistantMessage)
	}
	reqs := env.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if !reqs[1].Contains("keep going please") {
		t.Error("the block reason did not reach the model")
	}
}

// continue:false from Stop or PostToolUse ends the agent loop.
func TestRealCLI_ContinueFalseEndsLoop(t *testing.T) {
	t.Parallel()
	t.Run("Stop", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.TextReply("first"), claudetest.TextReply("never")}
		})
		var stop recorder[*shared.StopHookInput]
		s := env.session(t, v2.WithHook(shared.HookEventStop, "", stop.handler(func(*shared.StopHookInput) shared.HookOutput {
			return shared.Stop("enough")
		})))
		res := run(t, s, "go")
		if res.TerminalReason != "stop_hook_prevented" || stop.len() != 1 || len(env.api.Requests()) != 1 {
			t.Errorf("terminal_reason %q, %d Stop calls, %d requests", res.TerminalReason, stop.len(), len(env.api.Requests()))
		}
	})
	t.Run("PostToolUse", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo x > "+p+"/ran.txt")), claudetest.TextReply("never")}
		})
		var post recorder[*shared.PostToolUseHookInput]
		s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPostToolUse, "Bash", post.handler(func(*shared.PostToolUseHookInput) shared.HookOutput {
			return shared.Stop("enough")
		})))
		res := run(t, s, "go")
		if res.TerminalReason != "hook_stopped" || post.len() != 1 || len(env.api.Requests()) != 1 {
			t.Errorf("terminal_reason %q, %d PostToolUse calls, %d requests", res.TerminalReason, post.len(), len(env.api.Requests()))
		}
		if !env.exists("ran.txt") {
			t.Error("the tool did not run")
		}
	})
}

// Three tool_use blocks in one model message: three PreToolUse requests, each answered on its own.
func TestRealCLI_ThreeToolsOneMessage(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		var uses []claudetest.ToolUse
		for i := 1; i <= 3; i++ {
			uses = append(uses, claudetest.ToolUse{ID: fmt.Sprintf("toolu_0%d", i), Name: "Bash", Input: bash(fmt.Sprintf("touch %s/f%d.txt", p, i))})
		}
		return []claudetest.Reply{claudetest.ToolsReply(uses...), claudetest.TextReply("done")}
	})
	var pre recorder[*shared.PreToolUseHookInput]
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPreToolUse, "Bash", pre.handler(func(in *shared.PreToolUseHookInput) shared.HookOutput {
		if in.ToolUseID == "toolu_02" {
			return shared.Deny("not the second")
		}
		return shared.Allow()
	})))
	msgs, res := query(t, s, "touch three")
	if n := pre.len(); n != 3 {
		t.Errorf("PreToolUse ran %d times, want 3", n)
	}
	for i, want := range []bool{true, false, true} {
		if got := env.exists(fmt.Sprintf("f%d.txt", i+1)); got != want {
			t.Errorf("f%d.txt exists = %v, want %v", i+1, got, want)
		}
	}
	trs := toolResults(msgs)
	if len(trs) != 3 || !trs["toolu_02"].IsError || trs["toolu_01"].IsError || trs["toolu_03"].IsError {
		t.Errorf("tool results: %+v", trs)
	}
	if d := denials(t, res); len(d) != 1 || d[0].ToolUseID != "toolu_02" {
		t.Errorf("permission_denials = %s", res.PermissionDenials)
	}
}
