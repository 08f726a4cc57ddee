package temporalagent_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// bashGuarded is the approval rule of the tests: every Bash call waits for a decision.
func bashGuarded(keepAlive time.Duration) temporalagent.Option {
	return temporalagent.WithApprovals(temporalagent.ApprovalRule{
		Match:     func(in *shared.PreToolUseHookInput) bool { return in.ToolName == "Bash" },
		KeepAlive: keepAlive,
		Poll:      50 * time.Millisecond,
	})
}

// approvalModel asks for one Bash call until it has a result, then reports it.
func approvalModel(string) *claudetest.Model {
	return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
		if res, ok := r.LastToolResult(); ok {
			return claudetest.TextReply("finished: " + res.ContentText())
		}
		return claudetest.ToolReply("toolu_"+itoa(r.Index), "Bash", map[string]any{"command": "echo ok >> approved.txt"})
	})
}

// An approved call across a worker restart: the turn asks, ends (no keep-alive), the worker is
// stopped; a new worker resumes the session once the signal approves, and the call runs once.
func TestApprovalAcrossWorkerRestart(t *testing.T) {
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + t.Name()
	env := claudetest.NewEnv(t, approvalModel)
	cfg := workerConfig{cli: claudetest.RequireCLI(t), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	first := startActivityWorker(t, ts, actQueue, cfg, bashGuarded(-1))

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
		temporalagent.TurnInput{Prompt: "say ok", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	var pending []temporalagent.Approval
	waitFor(t, "a pending approval", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
		return err == nil && v.Get(&pending) == nil && len(pending) == 1
	})
	if pending[0].ToolName != "Bash" || !strings.Contains(string(pending[0].Input), "approved.txt") {
		t.Errorf("pending = %+v, want the Bash call", pending[0])
	}
	first.Stop()
	if _, err := os.Stat(env.Path("approved.txt")); !os.IsNotExist(err) {
		t.Fatalf("approved.txt before the approval: %v", err)
	}
	startActivityWorker(t, ts, actQueue, cfg, bashGuarded(-1))
	if err := c.SignalWorkflow(ctx, run.GetID(), "", temporalagent.SignalDecide,
		temporalagent.Decision{ApprovalID: pending[0].ID, Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	var res temporalagent.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	if b, _ := os.ReadFile(env.Path("approved.txt")); string(b) != "ok\n" {
		t.Errorf("approved.txt = %q, want the call run once", b)
	}
	if !strings.HasPrefix(res.Result, "finished: (Bash completed") {
		t.Errorf("result = %q, want the model to have seen the call's result", res.Result)
	}
}

// A rejection while the CLI waits (keep-alive): the call is refused in the same session, the file
// is untouched, and the model is told why.
func TestApprovalRejectedWhileWaiting(t *testing.T) {
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + t.Name()
	env := claudetest.NewEnv(t, approvalModel)
	cfg := workerConfig{cli: claudetest.RequireCLI(t), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	startActivityWorker(t, ts, actQueue, cfg, bashGuarded(2*time.Minute))

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
		temporalagent.TurnInput{Prompt: "say ok", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	var pending []temporalagent.Approval
	waitFor(t, "a pending approval", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
		return err == nil && v.Get(&pending) == nil && len(pending) == 1
	})
	if err := c.SignalWorkflow(ctx, run.GetID(), "", temporalagent.SignalDecide,
		temporalagent.Decision{ApprovalID: pending[0].ID, Reason: "not on Fridays", By: "bob"}); err != nil {
		t.Fatal(err)
	}
	var res temporalagent.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	if _, err := os.Stat(env.Path("approved.txt")); !os.IsNotExist(err) {
		t.Errorf("approved.txt after a rejection: %v", err)
	}
	last, _ := env.Model.LastRequest()
	got, ok := last.LastToolResult()
	if !ok || !got.IsError || !strings.Contains(got.ContentText(), "rejected by bob: not on Fridays") {
		t.Errorf("the model got %+v, want an error naming the rejection", got)
	}
	if n := len(env.Model.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2 (one session, no resume)", n)
	}
}

// startActivityWorker runs the activities on queue in this process until stopped or cleanup.
func startActivityWorker(t testing.TB, ts interface {
	GetDefaultClient() client.Client
}, queue string, cfg workerConfig, more ...temporalagent.Option) worker.Worker {
	t.Helper()
	acts, err := cfg.activities(testLogger(t), more...)
	if err != nil {
		t.Fatal(err)
	}
	w := worker.New(ts.GetDefaultClient(), queue, activityWorkerOptions)
	acts.Register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}
