package v2_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithSettingSources loads exactly the settings files it names: each of the three files denies
// one tool (user: Edit, project: Write, local .claude/settings.local.json: Bash), and a denied
// tool is gone from the model's request. By default only the user's file applies (the
// repository's are left out); WithTrustedProject loads all three.
func TestRealCLI_SettingSources(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want []string // the tools of Edit, Write and Bash still offered
	}{
		{"default: the user's only", nil, []string{"Bash", "Write"}},
		{"trusted project: all three", []v2.Option{v2.WithTrustedProject()}, nil},
		{"none", []v2.Option{v2.WithSettingSources()}, []string{"Bash", "Edit", "Write"}},
		{"user", []v2.Option{v2.WithSettingSources(v2.SettingSourceUser)}, []string{"Bash", "Write"}},
		{"project", []v2.Option{v2.WithSettingSources(v2.SettingSourceProject)}, []string{"Bash", "Edit"}},
		{"local", []v2.Option{v2.WithSettingSources(v2.SettingSourceLocal)}, []string{"Edit", "Write"}},
		{"project and local", []v2.Option{v2.WithSettingSources(v2.SettingSourceProject, v2.SettingSourceLocal)}, []string{"Edit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			writeFile(t, filepath.Join(env.home, ".claude/settings.json"), `{"permissions":{"deny":["Edit"]}}`)
			writeFile(t, env.path(".claude/settings.json"), `{"permissions":{"deny":["Write"]}}`)
			writeFile(t, env.path(".claude/settings.local.json"), `{"permissions":{"deny":["Bash"]}}`)
			run(t, env.session(t, tc.opts...), "hi")
			var got []string
			for _, tool := range []string{"Bash", "Edit", "Write"} {
				if containsString(firstRequest(t, env).Tools, tool) {
					got = append(got, tool)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tools offered (-want +got):\n%s", diff)
			}
		})
	}
}

// WithTrustedProjectMemory: the project's CLAUDE.md, .claude/CLAUDE.md and rules reach the model as the
// SDK read them (an import stays text), while the default session sends none of them; the CLI
// itself reads no memory file of the project either way.
func TestRealCLI_ProjectMemory(t *testing.T) {
	t.Parallel()
	for _, memory := range []bool{false, true} {
		t.Run(fmt.Sprint("WithTrustedProjectMemory=", memory), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			secret := filepath.Join(t.TempDir(), "id_rsa")
			writeFile(t, secret, "SECRET-MARK-32\n")
			writeFile(t, env.path("CLAUDE.md"), "ROOT-MEMORY-MARK\n@"+secret+"\n")
			writeFile(t, env.path(".claude/CLAUDE.md"), "ALT-MEMORY-MARK\n")
			writeFile(t, env.path(".claude/rules/style.md"), "RULE-MEMORY-MARK\n")
			var opts []v2.Option
			if memory {
				opts = append(opts, v2.WithTrustedProjectMemory())
			}
			run(t, env.session(t, opts...), "hi")
			r := firstRequest(t, env)
			for _, mark := range []string{"ROOT-MEMORY-MARK", "ALT-MEMORY-MARK", "RULE-MEMORY-MARK"} {
				if got := r.Contains(mark); got != memory {
					t.Errorf("the request has %s = %v, want %v", mark, got, memory)
				}
			}
			if r.Contains("SECRET-MARK-32") {
				t.Error("the request carries the imported file outside the project")
			}
		})
	}
}
