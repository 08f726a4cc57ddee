package temporalagent_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// BenchmarkTurn compares one turn (a Bash call, then a text answer, on the fake API) in a plain
// session with the same turn as an activity of a workflow on the in-process server: the
// difference is the activity's overhead per turn (scheduling the workflow and the activity,
// heartbeats, the workflow's tasks). Each iteration runs one of each, alternately, so that both
// see the same load on a shared machine; it reports their mean times and the overhead:
//
//	GOTOOLCHAIN=go1.27.3 GOWORK=$PWD/go.work go test -race -run '^$' -bench Turn -benchtime 10x .
func BenchmarkTurn(b *testing.B) {
	env := claudetest.NewEnv(b, func(string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
			if _, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("done")
			}
			return claudetest.ToolReply("toolu_1", "Bash", map[string]any{"command": "true"})
		})
	})
	ts := server(b)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(b, ts)
	actQueue := "act-bench"
	cfg := workerConfig{cli: claudetest.RequireCLI(b), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	startActivityWorker(b, ts, actQueue, cfg)
	// Both turns run the same CLI with the same options: the activity's sessions get the worker's
	// (the CLI, its environment, the tag, a logger), the plain ones the same through env.Run.
	plainOpts := []v2.Option{v2.WithAllowedTools("Bash"), v2.WithEnv(workerTag + "=" + cfg.tag), v2.WithLogger(testLogger(b))}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var plain, act time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := env.Run("go", plainOpts...); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
			temporalagent.TurnInput{Prompt: "go", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
		if err != nil {
			b.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			b.Fatal(err)
		}
		plain, act = plain+mid.Sub(start), act+time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(plain.Milliseconds())/n, "plain-ms/turn")
	b.ReportMetric(float64(act.Milliseconds())/n, "activity-ms/turn")
	b.ReportMetric(100*(act.Seconds()-plain.Seconds())/plain.Seconds(), "overhead-%")
}
