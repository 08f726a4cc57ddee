package v2_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// projectSkills are the project skills of TestRealCLI_Skills, by name: each SKILL.md's
// description and body carry markers the test looks for in the model's requests. "tooly" has
// allowed-tools, which makes CLI 2.1.330 ask before running it; the others run unasked.
var projectSkills = map[string]string{
	"greet": "---\nname: greet\ndescription: Greets GREET-DESC\n---\nGREET-BODY say hello\n",
	"other": "---\nname: other\ndescription: Other OTHER-DESC\n---\nOTHER-BODY\n",
	"tooly": "---\nname: tooly\ndescription: Echoes TOOLY-DESC\nallowed-tools: Bash(echo *)\n---\nTOOLY-BODY\n",
}

// skillMarker is the marker of a skill of TestRealCLI_Skills: its name without a plugin, upper
// case.
func skillMarker(name string) string {
	_, n, found := strings.Cut(name, ":")
	if !found {
		n = name
	}
	return strings.ToUpper(n)
}

// WithSkills and WithAllSkills against the real CLI: the model calls the Skill tool for one
// project skill (.claude/skills/<name>/SKILL.md). An enabled skill runs and its SKILL.md body
// reaches the next model request; one WithSkills leaves out is not listed to the model and the
// CLI's Skill tool refuses it with an error result ("not in this session's skills allowlist");
// without the option every skill is listed and one that asks for permission (allowed-tools) is
// denied, which WithSkills's and WithAllSkills's allow rules prevent. A plugin's skill
// (WithPluginDirs) is named "plugin:skill".
func TestRealCLI_Skills(t *testing.T) {
	t.Parallel()
	pluginDir := filepath.Join(t.TempDir(), "probe")
	writeFile(t, filepath.Join(pluginDir, ".claude-plugin", "plugin.json"), `{"name":"probe","version":"1.0.0","description":"test plugin"}`)
	writeFile(t, filepath.Join(pluginDir, "skills", "pskill", "SKILL.md"), "---\nname: pskill\ndescription: Plugin PSKILL-DESC\n---\nPSKILL-BODY\n")
	type outcome struct {
		Listed  []string // the skills whose descriptions the first request lists
		Result  string   // the Skill tool's result, up to its first ':'
		Body    bool     // the called skill's body reached the next request
		Denials int      // the result's permission denials
	}
	for _, tc := range []struct {
		name string
		call string
		opts []v2.Option
		want outcome
	}{
		{"listed runs", "greet", []v2.Option{v2.WithSkills("greet", "tooly")},
			outcome{Listed: []string{"greet", "tooly"}, Result: "Launching skill", Body: true}},
		{"listed runs without a prompt", "tooly", []v2.Option{v2.WithSkills("tooly")},
			outcome{Listed: []string{"tooly"}, Result: "Launching skill", Body: true}},
		{"unlisted is refused", "other", []v2.Option{v2.WithSkills("greet")},
			outcome{Listed: []string{"greet"}, Result: "<tool_use_error>Skill other is not in this session's skills allowlist</tool_use_error>"}},
		{"none", "greet", []v2.Option{v2.WithSkills()},
			outcome{Result: "<tool_use_error>Skill greet is not in this session's skills allowlist</tool_use_error>"}},
		{"all", "tooly", []v2.Option{v2.WithAllSkills()},
			outcome{Listed: []string{"greet", "other", "tooly"}, Result: "Launching skill", Body: true}},
		{"default lists all, asks for tooly", "tooly", nil,
			outcome{Listed: []string{"greet", "other", "tooly"}, Result: "Execute skill", Denials: 1}},
		{"plugin skill", "probe:pskill", []v2.Option{v2.WithPluginDirs(pluginDir), v2.WithSkills("probe:pskill")},
			outcome{Listed: []string{"pskill"}, Result: "Launching skill", Body: true}},
		{"plugin skill without the plugin", "probe:pskill", []v2.Option{v2.WithSkills("probe:pskill")},
			outcome{Result: "<tool_use_error>Unknown skill: probe:pskill</tool_use_error>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
				if r.Index == 0 {
					return claudetest.ToolReply("toolu_sk1", "Skill", map[string]any{"skill": tc.call})
				}
				return claudetest.TextReply("done")
			})
			for name, md := range projectSkills {
				writeFile(t, filepath.Join(env.home, ".claude/skills/"+name+"/SKILL.md"), md)
			}
			msgs, res := query(t, env.session(t, tc.opts...), "use the skill")
			var got outcome
			reqs := env.api.Requests()
			for _, name := range []string{"greet", "other", "pskill", "tooly"} {
				if reqs[0].Contains(skillMarker(name) + "-DESC") {
					got.Listed = append(got.Listed, name)
				}
			}
			got.Result, _, _ = strings.Cut(toolResults(msgs)["toolu_sk1"].ContentText(), ":")
			if strings.HasPrefix(got.Result, "<tool_use_error>") {
				got.Result = toolResults(msgs)["toolu_sk1"].ContentText()
			}
			got.Body = len(reqs) > 1 && reqs[1].Contains(skillMarker(tc.call)+"-BODY")
			got.Denials = len(denials(t, res))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// AgentDefinition.Skills preloads skills into a subagent: the subagent's first model request
// carries the listed skill's body and not the other's, without any Skill tool call.
func TestRealCLI_AgentSkills(t *testing.T) {
	t.Parallel()
	env, _ := agentRun(t, v2.AgentDefinition{Skills: []string{"greet"}}, nil, func(env *realEnv) {
		for name, md := range projectSkills {
			writeFile(t, filepath.Join(env.home, ".claude/skills/"+name+"/SKILL.md"), md)
		}
	})
	first := firstSubRequest(t, env)
	if got := [2]bool{first.Contains("GREET-BODY"), first.Contains("OTHER-BODY")}; got != [2]bool{true, false} {
		t.Errorf("subagent's first request has greet's body, other's body = %v, want [true false]", got)
	}
}

// A skill's allowed-tools apply once it runs: with WithSkills("toucher"), whose SKILL.md has
// allowed-tools Bash(touch *), the model's touch command is denied before it calls the skill and
// runs after it, without any rule of the session's allowing it. A PreToolUse hook still decides:
// its deny holds after the skill too.
func TestRealCLI_SkillAllowedTools(t *testing.T) {
	t.Parallel()
	denyBash := v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("the hook says no"), nil
	}))
	for _, tc := range []struct {
		name      string
		callSkill bool
		opts      []v2.Option
		wantRan   bool
	}{
		{"without calling the skill", false, nil, false},
		{"after the skill", true, nil, true},
		{"after the skill, a hook denies", true, []v2.Option{denyBash}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnvHandler(t, func(p string, r claudetest.Request) claudetest.Reply {
				switch {
				case r.Index == 0 && tc.callSkill:
					return claudetest.ToolReply("toolu_sk1", "Skill", map[string]any{"skill": "toucher"})
				case r.Index == 0 || r.Index == 1 && tc.callSkill:
					return claudetest.ToolReply("toolu_b1", "Bash", bash("touch "+p+"/ran.txt"))
				}
				return claudetest.TextReply("done")
			})
			writeFile(t, filepath.Join(env.home, ".claude/skills/toucher/SKILL.md"), "---\nname: toucher\ndescription: Touches\nallowed-tools: Bash(touch *)\n---\nTOUCHER-BODY\n")
			_, res := query(t, env.session(t, append(tc.opts, v2.WithSkills("toucher"))...), "go")
			if got := env.exists("ran.txt"); got != tc.wantRan {
				t.Errorf("touch ran = %v, want %v; denials %s", got, tc.wantRan, res.PermissionDenials)
			}
		})
	}
}
