package v2_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A result's typed fields, from the real CLI: ModelUsage holds the model's tokens as the API
// reported them, cumulative across turns, with the CLI's cost and context window; and
// Session.Usage's per-model usage is the same type. A turn the API refuses with a 400 ends in a
// result whose APIErrorStatus is 400; a turn that succeeds has none. (Origin of a turn the CLI
// started by itself: TestRealCLI_SecondResultFromBackgroundTask.)
func TestRealCLI_ResultFields(t *testing.T) {
	t.Parallel()
	t.Run("model usage", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{
				{Text: "one", InputTokens: 1200, OutputTokens: 34},
				{Text: "two", InputTokens: 1300, OutputTokens: 56},
			}
		})
		s := env.session(t, v2.WithModel("claude-sonnet-4-5"))
		r1 := run(t, s, "P1")
		r2 := run(t, s, "P2")
		for i, r := range []struct{ in, out int64 }{{1200, 34}, {2500, 90}} {
			res := []*shared.ResultMessage{r1, r2}[i]
			u, ok := res.ModelUsage["claude-sonnet-4-5"]
			if !ok || len(res.ModelUsage) != 1 {
				t.Fatalf("result %d: ModelUsage = %+v, want the one model claude-sonnet-4-5", i+1, res.ModelUsage)
			}
			if u.InputTokens != r.in || u.OutputTokens != r.out || u.CostUSD <= 0 || u.ContextWindow <= 0 || u.MaxOutputTokens <= 0 {
				t.Errorf("result %d: ModelUsage = %+v, want %d tokens in and %d out (cumulative), a cost, a context window", i+1, u, r.in, r.out)
			}
			if res.APIErrorStatus != nil {
				t.Errorf("result %d: APIErrorStatus = %d on a success", i+1, *res.APIErrorStatus)
			}
		}
		usage, err := s.Usage(testCtx(t), v2.UsageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if u := usage.Session.ModelUsage["claude-sonnet-4-5"]; u.OutputTokens != 90 {
			t.Errorf("Session.Usage's model usage = %+v, want 90 output tokens", usage.Session.ModelUsage)
		}
	})
	t.Run("api error status", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
			if r.Contains("REFUSED-PROMPT") {
				return claudetest.ErrorReply(400, "BAD-REQUEST-PROBE")
			}
			return claudetest.TextReply("fine")
		})
		s := env.session(t)
		r := run(t, s, "REFUSED-PROMPT")
		if r == nil || !r.IsError || r.APIErrorStatus == nil || *r.APIErrorStatus != 400 {
			t.Errorf("result = %+v, want an error result with APIErrorStatus 400", r)
		}
	})
}
