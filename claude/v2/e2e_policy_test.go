package v2_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// bashAndWrite is a fake model that runs Bash to write bash.txt, then Write to write write.txt,
// in the project.
func bashAndWrite(p string) []claudetest.Reply {
	return []claudetest.Reply{
		claudetest.ToolReply("toolu_pb", "Bash", bash("echo b > "+p+"/bash.txt")),
		claudetest.ToolReply("toolu_pw", "Write", map[string]any{"file_path": p + "/write.txt", "content": "w"}),
		claudetest.TextReply("done"),
	}
}

// WithProjectConfigRoot: the project settings come from the trusted root (which denies Bash), not
// from the working directory (whose own settings deny Write, and apply with WithTrustedProject).
func TestRealCLI_ProjectConfigRoot(t *testing.T) {
	t.Parallel()
	for _, useRoot := range []bool{false, true} {
		t.Run(fmt.Sprintf("root=%v", useRoot), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".claude", "settings.json"), `{"permissions":{"deny":["Bash"]}}`)
			writeFile(t, env.path(".claude/settings.json"), `{"permissions":{"deny":["Write"]}}`)
			opts := []v2.Option{v2.WithAllowedTools("Bash", "Write")}
			if useRoot {
				opts = append(opts, v2.WithProjectConfigRoot(root))
			} else {
				opts = append(opts, v2.WithTrustedProject())
			}
			run(t, env.session(t, opts...), "go")
			if got := [2]bool{env.exists("bash.txt"), env.exists("write.txt")}; got != [2]bool{!useRoot, useRoot} {
				t.Errorf("root %v: bash.txt, write.txt written = %v", useRoot, got)
			}
		})
	}
}

// WithManagedSettings: a policy deny rule holds against WithAllowedTools and WithSettings allow
// rules. An allow rule at that tier, which WithManagedSettings refuses (passed here with
// WithExtraArgs), is applied by CLI 2.1.330: the reason the option takes restrictive keys only.
func TestRealCLI_ManagedSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		opts    []v2.Option
		written [2]bool // bash.txt, write.txt
	}{
		{"none", []v2.Option{v2.WithAllowedTools("Bash", "Write")}, [2]bool{true, true}},
		{"deny Bash", []v2.Option{v2.WithAllowedTools("Bash", "Write"), v2.WithSettings(`{"permissions":{"allow":["Bash"]}}`),
			v2.WithManagedSettings(`{"permissions":{"deny":["Bash"]}}`)}, [2]bool{false, true}},
		{"allow, raw", []v2.Option{v2.WithExtraArgs(`--managed-settings={"permissions":{"allow":["Bash","Write"]}}`)}, [2]bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			run(t, env.session(t, tc.opts...), "go")
			if got := [2]bool{env.exists("bash.txt"), env.exists("write.txt")}; got != tc.written {
				t.Errorf("bash.txt, write.txt written = %v, want %v", got, tc.written)
			}
		})
	}
}

// WithoutPermissionPrompts: a command that would prompt is denied, and the model is told why.
func TestRealCLI_NoPermissionPrompts(t *testing.T) {
	t.Parallel()
	for _, none := range []bool{false, true} {
		t.Run(fmt.Sprintf("none=%v", none), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			var opts []v2.Option
			if none {
				opts = append(opts, v2.WithoutPermissionPrompts())
			}
			msgs, _ := query(t, env.session(t, opts...), "go")
			tr := toolResults(msgs)["toolu_pb"]
			if env.exists("bash.txt") || !tr.IsError {
				t.Errorf("none %v: the command ran", none)
			}
			if got := strings.Contains(tr.ContentText(), "no approval surface"); got != none {
				t.Errorf("none %v: the model is told there is no approval surface: %v; %.200q", none, got, tr.ContentText())
			}
		})
	}
}

// WithPolicy with a policy that cannot judge fails CreateSession before the CLI starts, with an
// *OptionError wrapping the *policy.ConfigError that names the fix: nil (before: a panic at the
// first tool call), a relative root (before: resolved against the process's directory, not
// WithCwd's), a root that does not exist (before: a session that denied every call).
func TestRealCLI_PolicyMisconfigured(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("done")} })
	for name, p := range map[string]*policy.Policy{
		"nil":           nil,
		"relative root": policy.Confined("project"),
		"missing root":  policy.Confined(filepath.Join(env.project, "missing")),
	} {
		s, err := env.create(t, v2.WithPolicy(p))
		var oe *v2.OptionError
		var ce *policy.ConfigError
		if s != nil || !errors.As(err, &oe) || oe.Option != "WithPolicy" || !errors.As(err, &ce) || !errors.Is(err, policy.ErrInvalid) {
			t.Errorf("%s: CreateSession = %v, %v; want an *OptionError of WithPolicy wrapping a *policy.ConfigError", name, s, err)
		}
	}
	if n := len(env.api.Requests()); n != 0 {
		t.Errorf("the CLI reached the model %d times; want no CLI started", n)
	}
}

// WithPolicy given twice guards with both: a write runs only if each policy allows it. Policy A
// confines to the project, policy B to a sibling directory: with A alone the project's file is
// written; with both, neither file is.
func TestRealCLI_PolicyTwiceComposes(t *testing.T) {
	t.Parallel()
	for _, twice := range []bool{false, true} {
		t.Run(fmt.Sprintf("twice=%v", twice), func(t *testing.T) {
			t.Parallel()
			other := t.TempDir()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_a", "Write", map[string]any{"file_path": p + "/a.txt", "content": "a"}),
					claudetest.ToolReply("toolu_b", "Write", map[string]any{"file_path": other + "/b.txt", "content": "b"}),
					claudetest.TextReply("done"),
				}
			})
			opts := []v2.Option{v2.WithPolicy(policy.Confined(env.project))}
			if twice {
				opts = append(opts, v2.WithPolicy(policy.Confined(other)))
			}
			run(t, env.session(t, opts...), "go")
			_, errB := os.Stat(filepath.Join(other, "b.txt"))
			if got := [2]bool{env.exists("a.txt"), errB == nil}; got != [2]bool{!twice, false} {
				t.Errorf("twice=%v: a.txt, b.txt written = %v", twice, got)
			}
		})
	}
}

// WithPolicy analyses a skill's embedded shell command (PreSkillShellCommand) as a Bash call: a
// command that writes a protected file of the project (.env.ran, which the CLI's own checks let
// through) runs without the policy and not with it; one that writes a plain file of the project
// runs; the skill loads either way; the same for a skill the prompt calls (/shelly) instead of the
// model. On a CLI older than 2.1.332, which never sends the event, the policy session starts with
// skills off instead: the Skill tool is denied and the prompt's /shelly blocked, so that neither
// command runs (without the policy both do), and Info's warning says why.
func TestRealCLI_PolicySkillShellCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		guarded bool
		typed   bool // the prompt is /shelly, not a Skill call of the model
		file    string
		wantRan bool // on a CLI that sends PreSkillShellCommand
	}{
		{"no policy: a protected file is written", false, false, ".env.ran", true},
		{"policy: a protected file is not", true, false, ".env.ran", false},
		{"policy: a plain file is", true, false, "ran.txt", true},
		{"typed, no policy: a plain file is written", false, true, "ran.txt", true},
		{"typed, policy: a protected file is not", true, true, ".env.ran", false},
		{"typed, policy: a plain file is", true, true, "ran.txt", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
				if !tc.typed && len(r.ToolResults()) == 0 {
					return claudetest.ToolReply("toolu_sk", "Skill", map[string]any{"skill": "shelly"})
				}
				return claudetest.TextReply("done")
			})
			writeFile(t, filepath.Join(env.home, ".claude/skills/shelly/SKILL.md"),
				"---\nname: shelly\ndescription: Runs a command\nallowed-tools: Bash(touch *)\n---\nSHELLY-BODY !`touch "+tc.file+"`\n")
			opts := []v2.Option{v2.WithSkills("shelly")}
			if tc.guarded {
				opts = append(opts, v2.WithPolicy(policy.Confined(env.project)))
			}
			s := env.session(t, opts...)
			prompt := "go"
			if tc.typed {
				prompt = "/shelly"
			}
			res, err := s.Run(testCtx(t), prompt)
			var re *v2.ResultError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("Run(%q): %v", prompt, err)
			}
			version := s.Info().CLIVersion
			skillsOff := tc.guarded && (strings.HasPrefix(version, "2.1.330") || strings.HasPrefix(version, "2.1.331"))
			warned := strings.Contains(strings.Join(s.Info().Warnings, "\n"), "skills and custom slash commands are off")
			if warned != skillsOff {
				t.Errorf("CLI %s: Info's warning about skills off = %v, want %v (warnings %q)", version, warned, skillsOff, s.Info().Warnings)
			}
			wantRan := tc.wantRan && !skillsOff
			if got := env.exists(tc.file); got != wantRan {
				t.Errorf("CLI %s: the skill's command wrote %s: %v, want %v (Run: %v, result %+v)", version, tc.file, got, wantRan, err, res)
			}
			if loaded := len(env.requestsContaining("SHELLY-BODY")) > 0; loaded == skillsOff {
				t.Errorf("CLI %s: the skill loaded = %v, want %v", version, loaded, !skillsOff)
			}
			if skillsOff && !tc.typed {
				if n := len(env.requestsContaining("predates the PreSkillShellCommand hook event")); n == 0 {
					t.Error("the Skill call's denial did not reach the model with its reason")
				}
			}
		})
	}
}
