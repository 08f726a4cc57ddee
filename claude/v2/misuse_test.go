package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// optionNames are the option names a message mentions ("WithCwd", ...), sorted, once each.
func optionNames(msg string) []string {
	names := regexp.MustCompile(`\bWith(?:out)?[A-Z][A-Za-z]*\b`).FindAllString(msg, -1)
	slices.Sort(names)
	return slices.Compact(names)
}

// Every misuse is caught by CreateSession, before a CLI starts, and its message names the options
// to fix: exactly those (a message that names others sends the user the wrong way).
func TestCreateSession_MisuseNamesTheOption(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	pre := shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) { return nil, nil })
	store := sessions.FileStore{Dir: sessions.Dir(t.TempDir())}
	cases := []struct {
		name string
		opts []v2.Option
		want []string
	}{
		{"working directory missing", []v2.Option{v2.WithCwd(missing)}, []string{"WithCwd"}},
		{"working directory is a file", []v2.Option{v2.WithCwd(file)}, []string{"WithCwd"}},
		{"additional directory missing", []v2.Option{v2.WithAdditionalDirs(dir, missing)}, []string{"WithAdditionalDirs"}},
		{"CLI path missing", []v2.Option{v2.WithCLIPath(missing)}, []string{"WithCLIPath"}},
		{"CLI path is a directory", []v2.Option{v2.WithCLIPath(dir)}, []string{"WithCLIPath"}},
		{"CLI path not executable", []v2.Option{v2.WithCLIPath(file)}, []string{"WithCLIPath"}},
		{"CLI path blank", []v2.Option{v2.WithCLIPath("  ")}, []string{"WithCLIPath"}},
		{"nil session store", []v2.Option{v2.WithSessionStore(nil)}, []string{"WithSessionStore"}},
		{"typed nil session store", []v2.Option{v2.WithSessionStore((*sessions.FileStore)(nil))}, []string{"WithSessionStore"}},
		{"no persistence with a store", []v2.Option{v2.WithoutSessionPersistence(), v2.WithSessionStore(store)}, []string{"WithSessionStore", "WithoutSessionPersistence"}},
		{"tool allowed and disallowed", []v2.Option{v2.WithAllowedTools("Read", "Bash"), v2.WithDisallowedTools("Bash")}, []string{"WithAllowedTools", "WithDisallowedTools"}},
		{"empty allowed tool", []v2.Option{v2.WithAllowedTools("")}, []string{"WithAllowedTools"}},
		{"blank disallowed tool", []v2.Option{v2.WithDisallowedTools(" ")}, []string{"WithDisallowedTools"}},
		{"typed hook under another event", []v2.Option{v2.WithHook(shared.HookEventPostToolUse, "Bash", pre)}, []string{"WithHook", "WithHooks"}},
		{"nil hook handler", []v2.Option{v2.WithHook(shared.HookEventPreToolUse, "Bash", nil)}, []string{"WithHook", "WithHooks"}},
		{"bad hook matcher", []v2.Option{v2.WithHook(shared.HookEventPreToolUse, "(", pre)}, []string{"WithHook", "WithHooks"}},
		{"unknown hook event", []v2.Option{v2.WithHook("PreToolUze", "", pre)}, []string{"WithHook", "WithHooks"}},
		{"matcher on an event without one", []v2.Option{v2.WithHook(shared.HookEventUserPromptSubmit, "Bash", shared.OnUserPromptSubmit(
			func(context.Context, *shared.UserPromptSubmitHookInput) (shared.HookOutput, error) { return nil, nil }))}, []string{"WithHook", "WithHooks"}},
		{"environment entry without =", []v2.Option{v2.WithEnv("FOO")}, []string{"WithEnv"}},
		{"base environment entry without a key", []v2.Option{v2.WithBaseEnv("=x")}, []string{"WithBaseEnv"}},
		{"model name with blanks", []v2.Option{v2.WithModel(" sonnet")}, []string{"WithModel"}},
		{"extra args set the output format", []v2.Option{v2.WithExtraArgs("--output-format=text")}, []string{"WithExtraArgs"}},
		{"extra args set the model", []v2.Option{v2.WithExtraArgs("--model", "x")}, []string{"WithExtraArgs", "WithModel"}},
		{"extra args skip permissions", []v2.Option{v2.WithExtraArgs("--dangerously-skip-permissions")}, []string{"WithExtraArgs", "WithPermissionMode"}},
		{"negative max turns", []v2.Option{v2.WithMaxTurns(-1)}, []string{"WithMaxTurns"}},
		{"zero hook timeout", []v2.Option{v2.WithHookTimeout(0)}, []string{"WithHookTimeout"}},
		{"negative permission timeout", []v2.Option{v2.WithPermissionTimeout(-1)}, []string{"WithPermissionTimeout"}},
		{"negative request timeout", []v2.Option{v2.WithRequestTimeout(-1)}, []string{"WithRequestTimeout"}},
		{"negative close grace", []v2.Option{v2.WithCloseGrace(-1)}, []string{"WithCloseGrace"}},
		{"negative max line size", []v2.Option{v2.WithMaxLineSize(-1)}, []string{"WithMaxLineSize"}},
		{"unknown permission mode", []v2.Option{v2.WithPermissionMode("yolo")}, []string{"WithPermissionMode"}},
		{"strict and unenforced hooks", []v2.Option{v2.WithStrictHooks(), v2.WithAllowUnenforcedHooks()}, []string{"WithAllowUnenforcedHooks", "WithStrictHooks"}},
		{"resume and continue", []v2.Option{v2.WithResume("3f1c2a9e-0b7d-4c55-9a1e-2d6f8b4c7e10"), v2.WithContinue()}, []string{"WithContinue", "WithResume"}},
		{"fork without a session", []v2.Option{v2.WithForkSession()}, []string{"WithContinue", "WithForkSession", "WithResume"}},
		{"resume id not a UUID", []v2.Option{v2.WithResume("my session")}, []string{"WithResume"}},
		{"session id not a UUID", []v2.Option{v2.WithSessionID("abc")}, []string{"WithSessionID"}},
		{"resume at without resume", []v2.Option{v2.WithResumeAt("3f1c2a9e-0b7d-4c55-9a1e-2d6f8b4c7e10")}, []string{"WithResume", "WithResumeAt"}},
		{"two system prompts", []v2.Option{v2.WithClaudeCodeSystemPrompt(), v2.WithSystemPrompt("x")}, []string{"WithClaudeCodeSystemPrompt", "WithSystemPrompt"}},
		{"prompt tool and callback", []v2.Option{v2.WithPermissionPromptTool("mcp__p__ok"), v2.WithCanUseTool(
			func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil })}, []string{"WithCanUseTool", "WithPermissionPromptTool"}},
		{"negative budget", []v2.Option{v2.WithMaxBudgetUSD(-1)}, []string{"WithMaxBudgetUSD"}},
		{"unknown effort", []v2.Option{v2.WithEffort("huge")}, []string{"WithEffort"}},
		{"skills and all skills", []v2.Option{v2.WithSkills("a"), v2.WithAllSkills()}, []string{"WithAllSkills", "WithSkills"}},
		{"schema not an object", []v2.Option{v2.WithJSONSchema([]byte(`[]`))}, []string{"WithJSONSchema"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// A CLI path that cannot start guards against a misuse that is not caught: the
			// session would fail on WithCLIPath instead, which the diff shows.
			opts := append([]v2.Option{v2.WithDefaults(v2.WithCLIPath(missing))}, c.opts...)
			s, err := v2.CreateSession(t.Context(), opts...)
			if err == nil {
				s.Close()
				t.Fatal("CreateSession accepted the misuse")
			}
			if diff := cmp.Diff(c.want, optionNames(err.Error())); diff != "" {
				t.Errorf("CreateSession: %v\noption names in the message (-want +got):\n%s", err, diff)
			}
		})
	}
	if len(cases) < 25 {
		t.Errorf("%d misuses, want at least 25", len(cases))
	}
}
