package v2_test

import (
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A skill's embedded shell command (!`...` in SKILL.md) runs when the skill loads; a
// PreSkillShellCommand hook sees it (the command, the skill's name) and its denial keeps the
// command from running, while the skill still loads.
func TestRealCLI_PreSkillShellCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		deny    bool
		wantRan bool
	}{
		{"without a hook the command runs", false, true},
		{"a denial stops it", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_sk", "Skill", map[string]any{"skill": "shelly"}),
					claudetest.TextReply("done"),
				}
			})
			writeFile(t, env.path(".claude/skills/shelly/SKILL.md"),
				"---\nname: shelly\ndescription: Runs a command\nallowed-tools: Bash(touch *)\n---\nSHELLY-BODY !`touch shell-ran.txt`\n")
			var seen recorder[*shared.PreSkillShellCommandHookInput]
			opts := []v2.Option{v2.WithSkills("shelly")}
			if tc.deny {
				opts = append(opts, v2.WithHook(shared.HookEventPreSkillShellCommand, "Bash", seen.handler(func(*shared.PreSkillShellCommandHookInput) shared.HookOutput {
					return shared.Deny("no shell in skills")
				})))
			}
			_, res := query(t, env.session(t, opts...), "go")
			if got := env.exists("shell-ran.txt"); got != tc.wantRan {
				t.Errorf("the skill's command ran = %v, want %v (result %+v)", got, tc.wantRan, res)
			}
			if !tc.deny {
				return
			}
			ins := seen.all()
			if len(ins) != 1 || !strings.Contains(ins[0].ToolInput.String("command"), "touch shell-ran.txt") || ins[0].CommandName != "shelly" || ins[0].ToolName != "Bash" {
				t.Errorf("the hook saw %+v, want one Bash command of shelly", ins)
			}
			if len(env.requestsContaining("SHELLY-BODY")) == 0 {
				t.Error("the skill did not load")
			}
		})
	}
}
