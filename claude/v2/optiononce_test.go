package v2

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Options given twice (issue 35 item 6): a single-valued option given twice with different
// values, or two options setting one value differently, is an error naming them; the same value
// again, options that add, and a default replaced by a later option are not.
func TestGivenTwice(t *testing.T) {
	t.Parallel()
	type schema struct {
		A string `json:"a"`
	}
	canUse := func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil }
	logger := slog.Default()
	cases := []struct {
		name string
		opts []Option
		want string // the error's option names; "" for none
	}{
		{"WithCwd twice", []Option{WithCwd("/a"), WithCwd("/b")}, "WithCwd"},
		{"WithCwd twice, the same", []Option{WithCwd("/a"), WithCwd("/a")}, ""},
		{"WithModel inside WithOptions, then again", []Option{WithOptions(WithModel("a")), WithModel("b")}, "WithModel"},
		{"WithBaseEnv replaces: twice", []Option{WithBaseEnv("A=1"), WithBaseEnv("A=2")}, "WithBaseEnv"},
		{"WithCanUseTool twice", []Option{WithCanUseTool(canUse), WithCanUseTool(canUse)}, "WithCanUseTool"},
		{"WithPermissionMode twice", []Option{WithPermissionMode(PermissionModePlan), WithPermissionMode(PermissionModeAcceptEdits)}, "WithPermissionMode"},
		{"WithJSONSchema and WithOutputSchemaFor", []Option{WithJSONSchema([]byte(`{"type":"object"}`)), WithOutputSchemaFor[schema]()}, "WithJSONSchema/WithOutputSchemaFor"},
		{"WithSystemPrompt twice, the same", []Option{WithSystemPrompt("x"), WithSystemPrompt("x")}, ""},
		{"WithLogger twice, the same", []Option{WithLogger(logger), WithLogger(logger)}, ""},
		{"WithAllowedTools adds", []Option{WithAllowedTools("Read"), WithAllowedTools("Grep")}, ""},
		{"WithEnv adds", []Option{WithEnv("A=1"), WithEnv("A=2")}, ""},
		{"a default replaced", []Option{WithDefaults(WithCwd("/a"), WithModel("m")), WithCwd("/b")}, ""},
		{"two defaults", []Option{WithDefaults(WithCwd("/a")), WithDefaults(WithCwd("/b"))}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := newConfig(c.opts).twice
			var oe *OptionError
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case c.want != "" && (!errors.As(err, &oe) || oe.Option != c.want):
				t.Fatalf("error %v, want an *OptionError of %s", err, c.want)
			}
		})
	}
	if got := newConfig([]Option{WithDefaults(WithCwd("/a")), WithCwd("/b")}).cwd; got != "/b" {
		t.Errorf("a default replaced: cwd %q, want /b", got)
	}
}

// WithPolicy given twice composes: both policies' hooks guard the session, in the order given,
// and it is no "given twice" error. (A policy session has one more PreToolUse hook, on Skill,
// which refuses skills on a CLI older than 2.1.332: policy.go's skillsOffHooks.)
func TestWithPolicyTwiceComposes(t *testing.T) {
	t.Parallel()
	a, b := policy.Confined(t.TempDir()), policy.Confined(t.TempDir())
	o := newConfig([]Option{WithPolicy(a), WithPolicy(b)})
	if o.twice != nil {
		t.Fatalf("WithPolicy twice: %v", o.twice)
	}
	want := len(a.Hooks()[shared.HookEventPreToolUse]) + len(b.Hooks()[shared.HookEventPreToolUse]) + 1
	if got := len(o.hooks[shared.HookEventPreToolUse]); got != want || want < 2 {
		t.Errorf("PreToolUse hooks %d, want both policies' and the skills hook: %d", got, want)
	}
}
