package v2_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithFallbackModels with several models: the fake API answers 529 (overloaded) to the main model
// and the first fallback, and the CLI, after retrying each, asks the second fallback, whose answer
// is the result; the next turn starts again with the main model. The recorded model names, each
// run of retries counted once, show the order.
func TestRealCLI_FallbackModels(t *testing.T) {
	t.Parallel()
	const main, first, second = "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5"
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
		if r.Model == main || r.Model == first {
			return claudetest.ErrorReply(529, "Overloaded")
		}
		return claudetest.TextReply("from " + r.Model)
	})
	s := env.session(t, v2.WithModel(main), v2.WithFallbackModels(first, second))
	for _, prompt := range []string{"one", "two"} {
		res, err := s.Run(testCtx(t), prompt)
		if err != nil {
			t.Fatalf("Run(%q): %v", prompt, err)
		}
		if res.Result != "from "+second {
			t.Errorf("Run(%q) = %q, want the second fallback's answer", prompt, res.Result)
		}
	}
	var models []string
	for _, r := range env.api.Requests() {
		models = append(models, r.Model)
	}
	want := []string{main, first, second, main, first, second}
	if diff := cmp.Diff(want, slices.Compact(models)); diff != "" {
		t.Errorf("models asked, retries counted once (-want +got):\n%s\nall: %q", diff, models)
	}
}
