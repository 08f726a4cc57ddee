package temporalagent_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
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

// twoSessions runs the same turn twice, each in a new session, in one workflow with one
// Approvals, and returns the two results.
func twoSessions(ctx workflow.Context, queue string, in temporalagent.TurnInput) ([]*temporalagent.TurnResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: queue, HeartbeatTimeout: testHeartbeatTimeout, RetryPolicy: &temporalRetry})
	ap, err := temporalagent.NewApprovals(ctx, time.Hour)
	if err != nil {
		return nil, err
	}
	var out []*temporalagent.TurnResult
	for range 2 {
		res, err := temporalagent.RunTurn(ctx, ap, in)
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
	return out, nil
}

// With ApprovalRule.PerSession, a decision holds in the session that asked for it only: the same
// Bash call in a second session of the workflow asks again (workflow-wide, the second session
// would run it on the first one's approval). The CLI waits for each decision (KeepAlive) longer
// than the sessions' hook timeout.
func TestApprovalPerSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute) // only catches a hang
	defer cancel()
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + randomTag()
	env := claudetest.NewEnv(t, approvalModel)
	cfg := workerConfig{cli: claudetest.RequireCLI(t), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	startActivityWorker(t, ts, actQueue, cfg, temporalagent.WithApprovals(temporalagent.ApprovalRule{
		Match:      func(in *shared.PreToolUseHookInput) bool { return in.ToolName == "Bash" },
		KeepAlive:  2 * time.Minute,
		Poll:       50 * time.Millisecond,
		PerSession: true,
	}),
		// The sessions' default hook timeout is shorter than anyone takes to decide: the approval
		// hook waits up to KeepAlive all the same (with v2's default of 5 s, a decision that took
		// longer refused the call: "hook timed out").
		temporalagent.WithSessionOptions(v2.WithHookTimeout(200*time.Millisecond)))
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, twoSessions, actQueue,
		temporalagent.TurnInput{Prompt: "say ok", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	pending := func() []temporalagent.Approval {
		var p []temporalagent.Approval
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
		if err != nil || v.Get(&p) != nil {
			return nil
		}
		return p
	}
	ran := func() string { b, _ := os.ReadFile(env.Path("approved.txt")); return string(b) }
	var first, second temporalagent.Approval
	waitFor(t, "the first session's approval", func() bool {
		p := pending()
		if len(p) == 1 {
			first = p[0]
		}
		return len(p) == 1
	})
	decide := func(a temporalagent.Approval, by string) {
		t.Helper()
		if err := c.SignalWorkflow(ctx, run.GetID(), "", temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: a.ID, Approve: true, By: by}); err != nil {
			t.Fatal(err)
		}
	}
	decide(first, "alice")
	waitFor(t, "the second session to ask (or to run the call without asking)", func() bool {
		p := pending()
		if len(p) == 1 && p[0].ID != first.ID {
			second = p[0]
			return true
		}
		return ran() == "ok\nok\n"
	})
	if second.ID == "" {
		t.Fatalf("the second session ran the call on the first session's approval (approved.txt %q)", ran())
	}
	decide(second, "carol")
	var res []*temporalagent.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	if len(res) != 2 || res[0].SessionID == res[1].SessionID || first.SessionID != res[0].SessionID || second.SessionID != res[1].SessionID {
		t.Errorf("approvals asked in sessions %s and %s, turns ran in %+v; want one approval per session", first.SessionID, second.SessionID, res)
	}
	if got := ran(); got != "ok\nok\n" {
		t.Errorf("approved.txt = %q, want the call run once per session", got)
	}
}
