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
// difference is the activity's overhead per turn (scheduling, heartbeats, the workflow's tasks).
//
//	GOTOOLCHAIN=go1.27.3 GOWORK=$PWD/go.work go test -run '^$' -bench Turn -benchtime 10x .
func BenchmarkTurn(b *testing.B) {
	env := claudetest.NewEnv(b, func(string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
			if _, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("done")
			}
			return claudetest.ToolReply("toolu_1", "Bash", map[string]any{"command": "true"})
		})
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, err := env.Run("go", v2.WithAllowedTools("Bash")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("activity", func(b *testing.B) {
		ts := server(b)
		c := ts.GetDefaultClient()
		wfQueue := startWorkflowWorker(b, ts)
		actQueue := "act-bench"
		cfg := workerConfig{cli: claudetest.RequireCLI(b), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
		startActivityWorker(b, ts, actQueue, cfg)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		for b.Loop() {
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
				temporalagent.TurnInput{Prompt: "go", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
			if err != nil {
				b.Fatal(err)
			}
			if err := run.Get(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
