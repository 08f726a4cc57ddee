package temporalagent_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// signalRoll asks rollOver's run to end: continue as new while runs are left, else return.
const signalRoll = "roll"

// rollOver keeps its approvals across continue-as-new: each run restores them from the state the
// last one handed on, waits for signalRoll, and hands them on (ApprovalsState) runsLeft times.
func rollOver(ctx workflow.Context, st temporalagent.ApprovalsState, runsLeft int) (temporalagent.ApprovalsState, error) {
	ap, err := temporalagent.NewApprovalsFrom(ctx, st)
	if err != nil {
		return st, err
	}
	workflow.GetSignalChannel(ctx, signalRoll).Receive(ctx, nil)
	if runsLeft > 0 {
		return st, workflow.NewContinueAsNewError(ctx, rollOver, ap.State(ctx), runsLeft-1)
	}
	return ap.State(ctx), nil
}

// On the real server, the approvals cross a continue-as-new: the next run (another run id)
// answers the queries from what the first one took by signal, a decision given to the next run
// joins them, and the last run's state holds both decisions. Without the state handed on, the
// next run would know of no approval. The decision and the signal that ends the first run come
// in one workflow task: before State let the signal goroutine run, that decision was lost.
func TestApprovalsCrossAContinueAsNew(t *testing.T) {
	ts := server(t)
	c := ts.GetDefaultClient()
	queue := "wf-" + t.Name()
	ts.NewWorker(queue, func(r worker.Registry) { r.RegisterWorkflow(rollOver) })
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // only catches a hang
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, rollOver, temporalagent.ApprovalsState{Timeout: time.Hour}, 1)
	if err != nil {
		t.Fatal(err)
	}
	signal := func(name string, arg any) {
		t.Helper()
		if err := c.SignalWorkflow(ctx, run.GetID(), "", name, arg); err != nil {
			t.Fatal(err)
		}
	}
	signal(temporalagent.SignalRequested, temporalagent.Approval{ID: "a1", ToolName: "Bash"})
	signal(temporalagent.SignalRequested, temporalagent.Approval{ID: "a2", ToolName: "Write"})
	signal(temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a1", Reason: "no", By: "bob"})
	signal(signalRoll, nil)

	// The next run: another run id, the same approvals.
	waitFor(t, "the next run to answer a1's decision", func() bool {
		d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
		if err != nil || d.GetWorkflowExecutionInfo().GetExecution().GetRunId() == run.GetRunID() {
			return false
		}
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryDecision, "a1")
		var l temporalagent.DecisionLookup
		return err == nil && v.Get(&l) == nil && l.Decided && l.Decision.By == "bob"
	})
	v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
	var pending []temporalagent.Approval
	if err != nil || v.Get(&pending) != nil {
		t.Fatalf("the next run's pending approvals: %v", err)
	}
	if diff := cmp.Diff([]temporalagent.Approval{{ID: "a2", ToolName: "Write"}}, pending, cmpopts.IgnoreFields(temporalagent.Approval{}, "Input")); diff != "" {
		t.Errorf("the next run's pending approvals (-want +got):\n%s", diff)
	}
	signal(temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a2", Approve: true, By: "alice"})
	signal(signalRoll, nil)

	var st temporalagent.ApprovalsState
	if err := run.Get(ctx, &st); err != nil { // follows the chain of runs
		t.Fatal(err)
	}
	want := temporalagent.ApprovalsState{Timeout: time.Hour, Pending: []temporalagent.Approval{},
		Decided: []temporalagent.Decision{{ApprovalID: "a1", Reason: "no", By: "bob"}, {ApprovalID: "a2", Approve: true, By: "alice"}}}
	if diff := cmp.Diff(want, st, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("the last run's state (-want +got):\n%s", diff)
	}
}
