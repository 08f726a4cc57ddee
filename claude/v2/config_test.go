package v2_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The model options (options_model.go) and output.go's map to one "--flag=value" argument each.
func TestMoreArgs(t *testing.T) {
	base := []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json", "--system-prompt="}
	const bypass = "--dangerously-skip-permissions"
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want []string
	}{
		{"json schema", []v2.Option{v2.WithJSONSchema([]byte(`{"type":"object"}`))}, []string{`--json-schema={"type":"object"}`}},
		{"schema of a type", []v2.Option{v2.WithOutputSchemaFor[struct {
			A string `json:"a"`
		}]()}, []string{`--json-schema={"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`}},
		{"budget", []v2.Option{v2.WithMaxBudgetUSD(0.25)}, []string{"--max-budget-usd=0.25"}},
		{"fallback", []v2.Option{v2.WithFallbackModels("a", bypass)}, []string{"--fallback-model=a," + bypass}},
		{"effort", []v2.Option{v2.WithEffort(v2.EffortMax)}, []string{"--effort=max"}},
		{"thinking", []v2.Option{v2.WithThinking(v2.ThinkingDisabled)}, []string{"--thinking=disabled"}},
		{"thinking tokens", []v2.Option{v2.WithMaxThinkingTokens(1024)}, []string{"--max-thinking-tokens=1024"}},
		{"betas", []v2.Option{v2.WithBetas("x-1", "y-2")}, []string{"--betas=x-1,y-2"}},
		{"task budget", []v2.Option{v2.WithTaskBudget(9)}, []string{"--task-budget=9"}},
		{"tools", []v2.Option{v2.WithTools("Read", "Bash")}, []string{"--tools=Read,Bash"}},
		{"no tools", []v2.Option{v2.WithTools()}, []string{"--tools="}},
		{"setting sources", []v2.Option{v2.WithSettingSources(v2.SettingSourceUser, v2.SettingSourceLocal)}, []string{"--setting-sources=user,local"}},
		{"no setting sources", []v2.Option{v2.WithSettingSources()}, []string{"--setting-sources="}},
		{"agents are not args", []v2.Option{v2.WithAgents(map[string]v2.AgentDefinition{"a": {Description: "d", Prompt: "p"}})}, nil},
		{"main agent", []v2.Option{v2.WithMainAgent(bypass)}, []string{"--agent=" + bypass}},
		{"plugin dirs", []v2.Option{v2.WithPluginDirs("/p", bypass)}, []string{"--plugin-dir=/p", "--plugin-dir=" + bypass}},
		{"permission prompt tool", []v2.Option{v2.WithPermissionPromptTool("mcp__a__b")}, []string{"--permission-prompt-tool=mcp__a__b"}},
		{"wrapper is not an arg", []v2.Option{v2.WithWrapper("docker", "exec", "-i", "box")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v2.ArgsFor(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got = withoutUntrustedDefaults(t, got, tc.want)
			if diff := cmp.Diff(append(append([]string{}, base...), tc.want...), got); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

// CreateSession rejects what the CLI would misread or refuse, before starting anything.
func TestMoreOptionsValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"schema not an object", []v2.Option{v2.WithJSONSchema([]byte(`[1]`))}, "not a JSON object"},
		{"schema not JSON", []v2.Option{v2.WithJSONSchema([]byte(`{`))}, "not a JSON object"},
		{"schema of an array", []v2.Option{v2.WithOutputSchemaFor[[]string]()}, `type must be "object"`},
		{"schema without a type", []v2.Option{v2.WithJSONSchema([]byte(`{"properties":{}}`))}, `type must be "object"`},
		{"schema of a func", []v2.Option{v2.WithOutputSchemaFor[func()]()}, "output schema"},
		{"negative budget", []v2.Option{v2.WithMaxBudgetUSD(-1)}, "positive and finite"},
		{"NaN budget", []v2.Option{v2.WithMaxBudgetUSD(math.NaN())}, "positive and finite"},
		{"fallback with a comma", []v2.Option{v2.WithFallbackModels("a,b")}, "comma"},
		{"empty beta", []v2.Option{v2.WithBetas("")}, "empty"},
		{"tool with a comma", []v2.Option{v2.WithTools("Read,Write")}, "comma"},
		{"effort", []v2.Option{v2.WithEffort("extreme")}, "unknown effort"},
		{"thinking", []v2.Option{v2.WithThinking("on")}, "unknown thinking"},
		{"thinking both", []v2.Option{v2.WithThinking(v2.ThinkingAdaptive), v2.WithMaxThinkingTokens(5)}, "exclude each other"},
		{"negative thinking", []v2.Option{v2.WithMaxThinkingTokens(-5)}, "must be positive"},
		{"agent without prompt", []v2.Option{v2.WithAgents(map[string]v2.AgentDefinition{"a": {Description: "d"}})}, "needs a name"},
		{"setting source", []v2.Option{v2.WithSettingSources("global")}, "unknown source"},
		{"empty plugin dir", []v2.Option{v2.WithPluginDirs("")}, "empty path"},
		{"two permission answerers", []v2.Option{v2.WithPermissionPromptTool("mcp__a__b"), v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil })}, "exclude each other"},
		{"two system prompts", []v2.Option{v2.WithSystemPrompt("s"), v2.WithClaudeCodeSystemPrompt()}, "exclude each other"},
		{"empty wrapper", []v2.Option{v2.WithWrapper("")}, "empty command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := v2.ArgsFor(tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v", err)
			}
		})
	}
}
