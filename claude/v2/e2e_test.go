package v2_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The real-CLI suite: each test drives the pinned Claude CLI against the fake Messages API and
// asserts an effect (a file made or not, what the model was sent), so that it fails when the SDK
// or the CLI stops doing what it claims. Tests in e2e_*_test.go.

func TestRealCLI_PreToolUseDenyStopsTool(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/ran.txt")), claudetest.TextReply("done")}
	})
	var pre recorder[*shared.PreToolUseHookInput]
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: pre.handler(func(*shared.PreToolUseHookInput) shared.HookOutput {
			return shared.Deny("no touching in tests")
		})}},
	}))
	res, err := s.Run(testCtx(t), "touch the file")
	if !errors.Is(err, v2.ErrPermissionDenied) {
		t.Fatalf("Run: %v, want v2.ErrPermissionDenied (the turn's only call was denied)", err)
	}
	if res.Result != "done" {
		t.Errorf("result = %q", res.Result)
	}
	seen := pre.all()
	if len(seen) != 1 || !strings.Contains(seen[0].ToolInput.String("command"), "touch") || seen[0].ToolUseID != "toolu_01" {
		t.Errorf("hook saw %d calls: %+v", len(seen), seen)
	}
	if env.exists("ran.txt") {
		t.Errorf("the denied command ran")
	}
	reqs := env.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if tr, ok := reqs[1].LastToolResult(); !ok || !tr.IsError || !strings.Contains(tr.ContentText(), "no touching in tests") {
		t.Errorf("the model did not receive the denial reason as an error tool_result: %+v", tr)
	}
	d := denials(t, res)
	if len(d) != 1 || d[0].ToolName != "Bash" || d[0].ToolUseID != "toolu_01" || !strings.Contains(d[0].ToolInput["command"].(string), "ran.txt") {
		t.Errorf("permission_denials = %s", res.PermissionDenials)
	}
}
