package v2_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// An observer sees each Go hook run as a HookFinished with the verdict the CLI got: an allow, a
// deny with its reason, and a failed hook as the SDK's fail-closed deny. It comes between the
// call's ToolStarted and ToolFinished, and needs no WithHookEvents.
func TestRealCLI_ObserverSeesHookDecisions(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_1", "Bash", bash("echo ok")),
			claudetest.ToolReply("toolu_2", "Bash", bash("rm -rf build")),
			claudetest.ToolReply("toolu_3", "Bash", bash("echo boom")),
			claudetest.TextReply("done"),
		}
	})
	policy := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		cmd, _ := in.ToolInput["command"].(string)
		switch {
		case strings.HasPrefix(cmd, "rm "):
			return shared.Deny("rm is not allowed"), nil
		case strings.Contains(cmd, "boom"):
			return nil, errors.New("policy store unreachable")
		}
		return shared.Allow(), nil
	})
	var obs obsRecorder
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithObserver(&obs),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Name: "policy", Handler: policy}}}))
	if res := run(t, s, "go"); res.Result != "done" {
		t.Fatalf("result %+v", res)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	type verdict struct {
		ID, Name, Event, Outcome, Decision, Reason string
		Err                                        bool
	}
	var got []verdict
	order := map[string][]string{}
	for _, o := range obs.all() {
		switch v := o.(type) {
		case *v2.ToolStarted:
			order[v.ToolUseID] = append(order[v.ToolUseID], "started")
		case *v2.HookFinished:
			got = append(got, verdict{v.ToolUseID, v.HookName, string(v.Event), string(v.Outcome), string(v.Decision), v.Reason, v.Err != nil})
			order[v.ToolUseID] = append(order[v.ToolUseID], "hook")
			if v.Duration < 0 || v.At.Before(v.Started) || v.Source != shared.HookSourceSDK {
				t.Errorf("%s: started %v, at %v, duration %v, source %q", v.ToolUseID, v.Started, v.At, v.Duration, v.Source)
			}
		case *v2.ToolFinished:
			order[v.ToolUseID] = append(order[v.ToolUseID], "finished")
		}
	}
	want := []verdict{
		{"toolu_1", "policy", "PreToolUse", "success", "allow", "", false},
		{"toolu_2", "policy", "PreToolUse", "success", "deny", "rm is not allowed", false},
		{"toolu_3", "policy", "PreToolUse", "error", "deny", "hook failed, denied by the SDK (fail-closed)", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hook runs (-want +got):\n%s", diff)
	}
	for _, id := range []string{"toolu_1", "toolu_2", "toolu_3"} {
		if diff := cmp.Diff([]string{"started", "hook", "finished"}, order[id]); diff != "" {
			t.Errorf("%s: observation order (-want +got):\n%s", id, diff)
		}
	}
}
