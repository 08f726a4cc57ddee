package v2_test

import (
	"strings"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// categoryTokens returns the tokens of the ContextUsage category named name, 0 when absent.
func categoryTokens(u *v2.ContextUsage, name string) int {
	for _, c := range u.Categories {
		if c.Name == name {
			return c.Tokens
		}
	}
	return 0
}

// ContextUsage reports what the session holds: a prompt of some 54,000 characters (over 10,000
// tokens by any count) grows the Messages category and the total by at least 10,000 tokens, and
// WithSkills() (no skill) empties the Skills category that the CLI's own skills fill by default.
func TestRealCLI_ContextUsage(t *testing.T) {
	t.Parallel()
	t.Run("messages", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		s := env.session(t)
		before, err := s.ContextUsage(testCtx(t), v2.ContextUsageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		run(t, s, strings.Repeat("lorem ipsum dolor sit amet ", 2000))
		after, err := s.ContextUsage(testCtx(t), v2.ContextUsageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d := categoryTokens(after, "Messages") - categoryTokens(before, "Messages"); d < 10_000 {
			t.Errorf("Messages grew by %d tokens: before %+v, after %+v", d, before.Categories, after.Categories)
		}
		if d := after.TotalTokens - before.TotalTokens; d < 10_000 {
			t.Errorf("total grew by %d tokens (%d -> %d)", d, before.TotalTokens, after.TotalTokens)
		}
	})
	t.Run("skills", func(t *testing.T) {
		t.Parallel()
		var got [2]int
		for i, opts := range [][]v2.Option{nil, {v2.WithSkills()}} {
			u, err := textEnv(t, "ok").session(t, opts...).ContextUsage(testCtx(t), v2.ContextUsageOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got[i] = categoryTokens(u, "Skills")
		}
		if got[0] == 0 || got[1] != 0 {
			t.Errorf("Skills category: %d tokens by default, %d with WithSkills(); want some, then none", got[0], got[1])
		}
	})
}
