package v2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithSkills and WithAllSkills add their allow rules to WithAllowedTools's.
func TestSkillsArgs(t *testing.T) {
	base := []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json", "--system-prompt="}
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want []string
	}{
		{"names", []v2.Option{v2.WithAllowedTools("Read"), v2.WithSkills("pdf", "my-plugin:docx")}, []string{"--allowedTools=Read,Skill(pdf),Skill(my-plugin:docx)"}},
		{"again adds", []v2.Option{v2.WithSkills("a"), v2.WithSkills("b")}, []string{"--allowedTools=Skill(a),Skill(b)"}},
		{"none: no rule", []v2.Option{v2.WithSkills()}, nil},
		{"all", []v2.Option{v2.WithAllSkills()}, []string{"--allowedTools=Skill"}},
		{"a name like a flag stays in the rule", []v2.Option{v2.WithSkills("--dangerously-skip-permissions")}, []string{"--allowedTools=Skill(--dangerously-skip-permissions)"}},
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

// CreateSession rejects a skill name that could never match a skill or would change the
// permission rule Skill(name), and WithSkills with WithAllSkills.
func TestSkillsValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"empty", []v2.Option{v2.WithSkills("")}, "empty name"},
		{"blank", []v2.Option{v2.WithSkills("  ")}, "empty name"},
		{"spaces", []v2.Option{v2.WithSkills(" pdf")}, "surrounding spaces"},
		{"star", []v2.Option{v2.WithSkills("*")}, "wildcards"},
		{"plugin star", []v2.Option{v2.WithSkills("p:*")}, "wildcards"},
		{"slash command", []v2.Option{v2.WithSkills("/pdf")}, "slash command"},
		{"comma", []v2.Option{v2.WithSkills("a,Bash")}, "permission rule"},
		{"parenthesis", []v2.Option{v2.WithSkills("a)")}, "permission rule"},
		{"backslash", []v2.Option{v2.WithSkills(`a\`)}, "permission rule"},
		{"control", []v2.Option{v2.WithSkills("a\nb")}, "control character"},
		{"both", []v2.Option{v2.WithSkills("a"), v2.WithAllSkills()}, "exclude each other"},
		{"none and all", []v2.Option{v2.WithSkills(), v2.WithAllSkills()}, "exclude each other"},
		{"agent skill", []v2.Option{v2.WithAgents(map[string]v2.AgentDefinition{"a": {Description: "d", Prompt: "p", Skills: []string{"x,y"}}})}, `agent "a": skill "x,y"`},
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
