package v2_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Flag options of several topics: each value inside its flag's argument; the system prompt file
// replaces the empty --system-prompt= default.
func TestFlagOptionArgs(t *testing.T) {
	args, err := v2.ArgsFor(v2.WithoutSessionPersistence(), v2.WithManagedSettings(`{"permissions":{"deny":["Bash"]},"allowManagedMcpServersOnly":true,"disableSkillShellExecution":"disable"}`), v2.WithDebugFile("--dangerously-skip-permissions"),
		v2.WithSystemPromptFile("/p/prompt.md"), v2.WithThinkingDisplay(v2.ThinkingDisplaySummarized))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--no-session-persistence", "--debug-file=--dangerously-skip-permissions", "--system-prompt-file=/p/prompt.md", "--thinking-display=summarized",
		`--managed-settings={"permissions":{"deny":["Bash"]},"allowManagedMcpServersOnly":true,"disableSkillShellExecution":"disable"}`} {
		if !slices.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--system-prompt=") }) {
		t.Errorf("args %q: --system-prompt= with a system prompt file", args)
	}
}

// Options that exclude others or take a constrained value are checked by CreateSession.
func TestValidateConstraints(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"no persistence with a store", []v2.Option{v2.WithoutSessionPersistence(), v2.WithSessionStore(sessions.FileStore{Dir: sessions.Dir(t.TempDir())})}, "exclude each other"},
		{"prompt file and prompt", []v2.Option{v2.WithSystemPromptFile("/p"), v2.WithSystemPrompt("x")}, "WithSystemPromptFile excludes"},
		{"prompt file and preset", []v2.Option{v2.WithSystemPromptFile("/p"), v2.WithClaudeCodeSystemPrompt()}, "WithSystemPromptFile excludes"},
		{"display", []v2.Option{v2.WithThinkingDisplay("loud")}, "unknown display mode"},
		{"display without thinking", []v2.Option{v2.WithThinkingDisplay(v2.ThinkingDisplaySummarized), v2.WithThinking(v2.ThinkingDisabled)}, "exclude each other"},
		{"alias empty", []v2.Option{v2.WithToolAliases(map[string]string{"Shell": ""})}, "empty name"},
		{"alias of itself", []v2.Option{v2.WithToolAliases(map[string]string{"Bash": "Bash"})}, "an alias of itself"},
		{"alias chain", []v2.Option{v2.WithToolAliases(map[string]string{"A": "B", "B": "Bash"})}, "one hop only"},
		{"drops turn without resume at", []v2.Option{v2.WithResumeDropsTurn("3c1036ec-6c17-4461-b654-a256aa7b1122")}, "needs WithResumeAt"},
		{"drops turn not a UUID", []v2.Option{v2.WithResume("3c1036ec-6c17-4461-b654-a256aa7b1122"), v2.WithResumeAt("3c1036ec-6c17-4461-b654-a256aa7b1123"), v2.WithResumeDropsTurn("--x")}, "WithResumeDropsTurn"},
		{"config root relative", []v2.Option{v2.WithProjectConfigRoot("repo")}, "not an absolute path"},
		{"managed not an object", []v2.Option{v2.WithManagedSettings(`["x"]`)}, "not a JSON object"},
		{"managed allow", []v2.Option{v2.WithManagedSettings(`{"permissions":{"allow":["Bash"]}}`)}, "permissions.allow: not a restrictive key"},
		{"managed model", []v2.Option{v2.WithManagedSettings(`{"model":"x"}`)}, "model: not a restrictive setting"},
		{"managed disable false", []v2.Option{v2.WithManagedSettings(`{"disableSkillShellExecution":false}`)}, "disableSkillShellExecution: not a restrictive setting"},
		// The policy tier outranks the session's own settings hooks: these would switch them off.
		{"managed disableAllHooks", []v2.Option{v2.WithManagedSettings(`{"disableAllHooks":true}`)}, "disableAllHooks: it would switch off the session's own settings hooks"},
		{"managed disableAllHooks string", []v2.Option{v2.WithManagedSettings(`{"disableAllHooks":"disable"}`)}, "disableAllHooks: it would switch off"},
		{"managed allowManagedHooksOnly", []v2.Option{v2.WithManagedSettings(`{"allowManagedHooksOnly":true}`)}, "allowManagedHooksOnly: it would switch off"},
		{"managed strictPluginOnlyCustomization", []v2.Option{v2.WithManagedSettings(`{"strictPluginOnlyCustomization":["hooks"]}`)}, "strictPluginOnlyCustomization: it would switch off"},
		{"no prompts and can use tool", []v2.Option{v2.WithoutPermissionPrompts(), v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil })}, "WithoutPermissionPrompts excludes"},
		{"dynamic sections without the preset", []v2.Option{v2.WithExcludeDynamicSections()}, "needs the CLI's own system prompt"},
		{"dynamic sections with a prompt", []v2.Option{v2.WithExcludeDynamicSections(), v2.WithAppendSystemPrompt("a"), v2.WithSystemPrompt("x")}, "needs the CLI's own system prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
