package temporalagent_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

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

// approvalTurn is an approval test's set-up: the Temporal server, the workflow's worker, an
// activity worker guarding Bash with bashGuarded(keepAlive), and a turn that asks for one Bash
// call, started and waited for until its approval is pending.
type approvalTurn struct {
	c        client.Client
	ts       *temporaltest.TestServer
	env      *claudetest.Env
	cfg      workerConfig
	actQueue string
	worker   worker.Worker // the activity worker
	run      client.WorkflowRun
	pending  temporalagent.Approval
}

// startApprovalTurn starts an approvalTurn; ctx bounds the workflow calls.
func startApprovalTurn(ctx context.Context, t *testing.T, keepAlive time.Duration) *approvalTurn {
	a := &approvalTurn{ts: server(t), actQueue: "act-" + t.Name()}
	a.c = a.ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, a.ts)
	a.env = claudetest.NewEnv(t, approvalModel)
	a.cfg = workerConfig{cli: claudetest.RequireCLI(t), home: a.env.Home, modelURL: a.env.Model.URL(), project: a.env.Project, tag: randomTag()}
	a.worker = startActivityWorker(t, a.ts, a.actQueue, a.cfg, bashGuarded(keepAlive))
	run, err := a.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, a.actQueue,
		temporalagent.TurnInput{Prompt: "say ok", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.run = run
	var pending []temporalagent.Approval
	waitFor(t, "a pending approval", func() bool {
		v, err := a.c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
		return err == nil && v.Get(&pending) == nil && len(pending) == 1
	})
	a.pending = pending[0]
	return a
}

// decide signals d for the pending approval and returns the turn's result.
func (a *approvalTurn) decide(ctx context.Context, t *testing.T, d temporalagent.Decision) temporalagent.TurnResult {
	t.Helper()
	d.ApprovalID = a.pending.ID
	if err := a.c.SignalWorkflow(ctx, a.run.GetID(), "", temporalagent.SignalDecide, d); err != nil {
		t.Fatal(err)
	}
	var res temporalagent.TurnResult
	if err := a.run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	return res
}

// An approved call across a worker restart: the turn asks, ends (no keep-alive), the worker is
// stopped; a new worker resumes the session once the signal approves, and the call runs once.
func TestApprovalAcrossWorkerRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	a := startApprovalTurn(ctx, t, -1)
	if a.pending.ToolName != "Bash" || !strings.Contains(string(a.pending.Input), "approved.txt") {
		t.Errorf("pending = %+v, want the Bash call", a.pending)
	}
	a.worker.Stop()
	if _, err := os.Stat(a.env.Path("approved.txt")); !os.IsNotExist(err) {
		t.Fatalf("approved.txt before the approval: %v", err)
	}
	startActivityWorker(t, a.ts, a.actQueue, a.cfg, bashGuarded(-1))
	res := a.decide(ctx, t, temporalagent.Decision{Approve: true, By: "alice"})
	if b, _ := os.ReadFile(a.env.Path("approved.txt")); string(b) != "ok\n" {
		t.Errorf("approved.txt = %q, want the call run once", b)
	}
	if !strings.HasPrefix(res.Result, "finished: (Bash completed") {
		t.Errorf("result = %q, want the model to have seen the call's result", res.Result)
	}
}

// A rejection while the CLI waits (keep-alive): the call is refused in the same session, the file
// is untouched, and the model is told why.
func TestApprovalRejectedWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	a := startApprovalTurn(ctx, t, 2*time.Minute)
	a.decide(ctx, t, temporalagent.Decision{Reason: "not on Fridays", By: "bob"})
	if _, err := os.Stat(a.env.Path("approved.txt")); !os.IsNotExist(err) {
		t.Errorf("approved.txt after a rejection: %v", err)
	}
	last, _ := a.env.Model.LastRequest()
	got, ok := last.LastToolResult()
	if !ok || !got.IsError || !strings.Contains(got.ContentText(), "rejected by bob: not on Fridays") {
		t.Errorf("the model got %+v, want an error naming the rejection", got)
	}
	if n := len(a.env.Model.Requests()); n != 2 {
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
