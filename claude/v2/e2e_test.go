package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/internal/fakeapi"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

func bash(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "test"} }

func TestRealCLI_PreToolUseDenyStopsTool(t *testing.T) {
	env := newRealEnv(t, func(p string) []fakeapi.Reply {
		return []fakeapi.Reply{fakeapi.ToolReply("toolu_01", "Bash", bash("touch "+filepath.Join(p, "ran.txt"))), fakeapi.TextReply("done")}
	})
	var seen []string
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			seen = append(seen, in.ToolInput.String("command"))
			return shared.Deny("no touching in tests"), nil
		})}},
	}))
	res, err := s.Run(testCtx(t), "touch the file")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Result != "done" {
		t.Errorf("result = %q", res.Result)
	}
	if len(seen) != 1 || !strings.Contains(seen[0], "touch") {
		t.Errorf("hook saw %q", seen)
	}
	if _, err := os.Stat(filepath.Join(env.project, "ran.txt")); err == nil {
		t.Errorf("the denied command ran")
	}
	reqs := env.api.Requests()
	if len(reqs) < 2 || !reqs[1].Contains("no touching in tests") {
		t.Errorf("the model did not receive the denial reason")
	}
}
