package v2_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// TestRealCLI_PermissionUpdates: the CLI's suggestions arrive typed, and an allowing answer with
// an addRules update for the session makes the CLI allow the same command without asking again;
// without the update it asks for each call.
func TestRealCLI_PermissionUpdates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		update    bool
		wantAsked int
	}{
		{"addRules to session", true, 1},
		{"no update", false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var cmd string
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				cmd = "touch " + p + "/a.txt"
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_01", "Bash", bash(cmd)),
					claudetest.ToolReply("toolu_02", "Bash", bash(cmd)),
					claudetest.TextReply("done"),
				}
			})
			var log permissionLog
			s := env.session(t, log.callback(func(req *shared.CanUseTool) *shared.PermissionResult {
				r := &shared.PermissionResult{Behavior: shared.PermissionAllow}
				if tc.update {
					r.UpdatedPermissions = []shared.PermissionUpdate{{
						Type:        shared.PermissionAddRules,
						Rules:       []shared.PermissionRuleValue{{ToolName: "Bash", RuleContent: req.Input.String("command")}},
						Behavior:    shared.PermissionAllow,
						Destination: shared.PermissionToSession,
					}}
				}
				return r
			}))
			res := run(t, s, "touch a twice")
			reqs := log.all()
			if len(reqs) != tc.wantAsked || res.IsError || !env.exists("a.txt") {
				t.Fatalf("asked %d times (want %d), is_error %v, a.txt exists %v", len(reqs), tc.wantAsked, res.IsError, env.exists("a.txt"))
			}
			// The CLI's own suggestion for the command, typed.
			var found bool
			for _, u := range reqs[0].PermissionSuggestions {
				if u.Type == shared.PermissionAddRules && u.Behavior == shared.PermissionAllow && len(u.Rules) == 1 && u.Rules[0].ToolName == "Bash" && u.Rules[0].RuleContent == cmd {
					found = true
				}
			}
			if !found {
				t.Errorf("no addRules suggestion for %q in %+v", cmd, reqs[0].PermissionSuggestions)
			}
			if tr, ok := env.api.Requests()[2].LastToolResult(); !ok || tr.IsError {
				t.Errorf("the second call's result: %+v", tr)
			}
		})
	}
}
