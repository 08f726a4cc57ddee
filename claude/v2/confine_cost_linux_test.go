package v2_test

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestConfinementStartCost measures what confinement adds to a session's start: from
// CreateSession to the first tool_use the CLI reports, with a Confined policy, confined (Landlock)
// and not (WithoutOSConfinement, the policy deciding alike), interleaved, AGENT_SDK_CONFINE_RUNS
// runs each (set it to run: it is a measurement, not a check). docs/CONFINEMENT.md has the figures.
//
//	AGENT_SDK_CONFINE_RUNS=15 go test -run TestConfinementStartCost -v ./claude/v2/
func TestConfinementStartCost(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("AGENT_SDK_CONFINE_RUNS"))
	if n <= 0 {
		t.Skip("a measurement: set AGENT_SDK_CONFINE_RUNS")
	}
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
		if len(r.ToolResults()) == 0 {
			return claudetest.ToolReply("toolu_c", "Bash", bash("true"))
		}
		return claudetest.TextReply("done")
	})
	p := policy.Confined(env.project).WithKernelConfinement()
	modes := map[string][]v2.Option{
		"landlock":   {v2.WithPolicy(p), v2.WithAllowedTools("Bash")},
		"unconfined": {v2.WithPolicy(p), v2.WithAllowedTools("Bash"), v2.WithoutOSConfinement()},
	}
	if _, err := exec.LookPath("bwrap"); err == nil {
		modes["bubblewrap"] = []v2.Option{v2.WithPolicy(p), v2.WithAllowedTools("Bash"), v2.WithSandbox(v2.PolicySandbox(p))}
		modes["sandbox only"] = []v2.Option{v2.WithPolicy(p), v2.WithAllowedTools("Bash"), v2.WithSandbox(v2.PolicySandbox(p)), v2.WithoutOSConfinement()}
	}
	names := slices.Sorted(maps.Keys(modes))
	times := map[string][]time.Duration{}
	for i := 0; i < n; i++ {
		for _, name := range names {
			times[name] = append(times[name], firstToolUse(t, env, modes[name]))
		}
	}
	// Paired: each confined run against the unconfined run of its own round, which ran next to it
	// under the same load.
	for _, pair := range [][2]string{{"landlock", "unconfined"}, {"bubblewrap", "sandbox only"}} {
		a, b := times[pair[0]], times[pair[1]]
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		var diff []time.Duration
		for i := range a {
			diff = append(diff, a[i]-b[i])
		}
		slices.Sort(diff)
		t.Logf("%s - %s, paired: p50 %v (min %v, max %v)", pair[0], pair[1], diff[len(diff)/2].Round(time.Millisecond/10),
			diff[0].Round(time.Millisecond/10), diff[len(diff)-1].Round(time.Millisecond/10))
	}
	for _, name := range names {
		d := slices.Clone(times[name])
		slices.Sort(d)
		t.Logf("%-13s n=%d  min %v  p50 %v  p90 %v", name, len(d), d[0].Round(time.Millisecond/10),
			d[len(d)/2].Round(time.Millisecond/10), d[len(d)*9/10].Round(time.Millisecond/10))
	}
}

// firstToolUse starts a session with opts, sends a prompt and returns the time from the start to
// the first assistant message with a tool_use block.
func firstToolUse(t *testing.T, env *realEnv, opts []v2.Option) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	s, err := v2.CreateSession(ctx, append(slices.Clone(env.opts), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var took time.Duration
	for m, err := range s.Query(ctx, "go") {
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := m.(*shared.AssistantMessage); ok && took == 0 && slices.ContainsFunc(a.Message.Content, func(b shared.ContentBlock) bool { return b.Type == "tool_use" }) {
			took = time.Since(start)
		}
	}
	if took == 0 {
		t.Fatal("no tool_use")
	}
	return took
}
