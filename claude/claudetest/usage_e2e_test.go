package claudetest_test

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// The real CLI reports a reply's usage figures in its result, and counts the cache figures in its
// cost: the same answer costs more with them.
func TestUsageReachesResult(t *testing.T) {
	t.Parallel()
	run := func(r claudetest.Reply) (wireUsage, float64) {
		t.Helper()
		env := claudetest.NewEnv(t, func(string) *claudetest.Model { return claudetest.NewModel(r) })
		res, err := env.Run("hi")
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		var u wireUsage
		if err := json.Unmarshal(res.Usage, &u); err != nil {
			t.Fatalf("result usage %s: %v", res.Usage, err)
		}
		return u, res.TotalCostUSD
	}
	plain := claudetest.Reply{Text: "hi", InputTokens: 1000, OutputTokens: 500}
	cached := plain
	cached.CacheCreationInputTokens, cached.CacheReadInputTokens = 2000, 100000
	plainUsage, plainCost := run(plain)
	cachedUsage, cachedCost := run(cached)
	if diff := cmp.Diff([]wireUsage{{1000, 500, 0, 0}, {1000, 500, 2000, 100000}}, []wireUsage{plainUsage, cachedUsage}); diff != "" {
		t.Errorf("result usage (-want +got):\n%s", diff)
	}
	if !(plainCost > 0 && cachedCost > plainCost) {
		t.Errorf("total_cost_usd %v without cache, %v with: want 0 < first < second", plainCost, cachedCost)
	}
}
