package v2_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A skill's embedded shell command (!`...` in SKILL.md) runs when the skill loads; a
// PreSkillShellCommand hook sees it (the command, the skill's name) and its denial keeps the
// command from running, while the skill still loads. A CLI older than 2.1.332 never sends the
// event: there a PreSkillShellCommand guard fails CreateSession with ErrHooksNotEnforced (before,
// the session started and the skill's command ran past the guard).
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
			writeFile(t, filepath.Join(env.home, ".claude/skills/shelly/SKILL.md"),
				"---\nname: shelly\ndescription: Runs a command\nallowed-tools: Bash(touch *)\n---\nSHELLY-BODY !`touch shell-ran.txt`\n")
			var seen recorder[*shared.PreSkillShellCommandHookInput]
			opts := []v2.Option{v2.WithSkills("shelly")}
			if tc.deny {
				opts = append(opts, v2.WithHook(shared.HookEventPreSkillShellCommand, "Bash", seen.handler(func(*shared.PreSkillShellCommandHookInput) shared.HookOutput {
					return shared.Deny("no shell in skills")
				})))
			}
			s, err := env.create(t, opts...)
			if tc.deny && errors.Is(err, v2.ErrHooksNotEnforced) && strings.Contains(err.Error(), "predates the PreSkillShellCommand hook event") {
				// An older CLI (2.1.330) never sends the event: the guard cannot run, and the session
				// must not start. Check that this CLI is one of those.
				plain := env.session(t)
				if v := plain.Info().CLIVersion; !strings.HasPrefix(v, "2.1.330") && !strings.HasPrefix(v, "2.1.331") {
					t.Fatalf("CreateSession = %v with CLI %s, which sends PreSkillShellCommand", err, v)
				}
				return
			}
			if err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
			_, res := query(t, s, "go")
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
