package temporalagent_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// MergeActivityOptions keeps every field the caller set and fills the others from the defaults.
func TestMergeActivityOptions(t *testing.T) {
	retry := &temporal.RetryPolicy{MaximumAttempts: 2}
	got := temporalagent.MergeActivityOptions(workflow.ActivityOptions{TaskQueue: "agents", HeartbeatTimeout: 20 * time.Second, RetryPolicy: retry})
	want := temporalagent.DefaultActivityOptions()
	want.TaskQueue, want.HeartbeatTimeout, want.RetryPolicy = "agents", 20*time.Second, retry
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged options (-want +got):\n%s", diff)
	}
	if got := temporalagent.MergeActivityOptions(workflow.ActivityOptions{}); !cmp.Equal(got, temporalagent.DefaultActivityOptions()) {
		t.Errorf("merged with nothing = %+v, want the defaults", got)
	}
}

// slowMachine keeps the test environment's deadlock detector (1 s of a workflow goroutine that
// does not yield, measured on the wall clock) from failing a test on a machine loaded far beyond
// its cores, with -race.
var slowMachine = worker.Options{DeadlockDetectionTimeout: time.Minute}

// twoTurns runs a turn under the caller's activity options (a queue and a heartbeat timeout, no
// start-to-close timeout), with approvals.
func twoTurns(ctx workflow.Context) (*temporalagent.TurnResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: "agents", HeartbeatTimeout: 7 * time.Second})
	ap, err := temporalagent.NewApprovals(ctx, time.Hour)
	if err != nil {
		return nil, err
	}
	return temporalagent.RunTurn(ctx, ap, temporalagent.TurnInput{Prompt: "go"})
}

// RunTurn runs the activity with the caller's queue and heartbeat timeout (merged, not replaced),
// and passes a decision once: to the turn that resumes for it, not to every turn.
func TestRunTurnMergesOptionsAndPassesDecisionsOnce(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(slowMachine)
	env.RegisterWorkflow(twoTurns)
	var mu sync.Mutex // the activities and the listener run on goroutines of their own
	var inputs []temporalagent.TurnInput
	var infos []activity.Info
	env.RegisterActivityWithOptions(func(_ context.Context, in temporalagent.TurnInput) (*temporalagent.TurnResult, error) {
		mu.Lock()
		defer mu.Unlock()
		inputs = append(inputs, in)
		if len(inputs) == 1 {
			next := temporalagent.TurnInput{Prompt: "go on"}
			return &temporalagent.TurnResult{Subtype: "success", Pending: &temporalagent.Approval{ID: "a1"}, Next: &next}, nil
		}
		return &temporalagent.TurnResult{Subtype: "success", Result: "done"}, nil
	}, activity.RegisterOptions{Name: temporalagent.ActivityName})
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		mu.Lock()
		defer mu.Unlock()
		infos = append(infos, *info)
	})
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a0", Approve: true}) // another call's
		env.SignalWorkflow(temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a1", Approve: true, By: "alice"})
	}, time.Minute)
	env.ExecuteWorkflow(twoTurns)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(infos) != 2 || infos[0].TaskQueue != "agents" || infos[0].HeartbeatTimeout != 7*time.Second {
		t.Fatalf("the activities ran with %+v, want queue \"agents\", heartbeat timeout 7s", infos)
	}
	want := [][]temporalagent.Decision{nil, {{ApprovalID: "a1", Approve: true, By: "alice"}}}
	if diff := cmp.Diff(want, [][]temporalagent.Decision{inputs[0].Decisions, inputs[1].Decisions}); diff != "" {
		t.Errorf("the turns' decisions (-want +got):\n%s", diff)
	}
}

// carry is a run of a long-lived workflow: it takes the approvals of the run before, lives an hour
// (signals come meanwhile), and hands them on.
func carry(ctx workflow.Context, st temporalagent.ApprovalsState) (temporalagent.ApprovalsState, error) {
	ap, err := temporalagent.NewApprovalsFrom(ctx, st)
	if err != nil {
		return st, err
	}
	if err := workflow.Sleep(ctx, time.Hour); err != nil {
		return st, err
	}
	return ap.State(ctx), nil
}

// The approvals' state crosses a continue-as-new: pending approvals and decisions; the next run
// answers the queries from it.
func TestApprovalsStateCarriesOver(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(slowMachine)
	env.RegisterWorkflow(carry)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporalagent.SignalRequested, temporalagent.Approval{ID: "a1", ToolName: "Bash"})
		env.SignalWorkflow(temporalagent.SignalRequested, temporalagent.Approval{ID: "a2", ToolName: "Write"})
		env.SignalWorkflow(temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a1", Reason: "no", By: "bob"})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporalagent.SignalRequested, temporalagent.Approval{ID: "a3", ToolName: "Edit"})
	}, 59*time.Minute)
	env.ExecuteWorkflow(carry, temporalagent.ApprovalsState{Timeout: 48 * time.Hour})
	var st temporalagent.ApprovalsState
	if err := env.GetWorkflowResult(&st); err != nil {
		t.Fatal(err)
	}
	want := temporalagent.ApprovalsState{Timeout: 48 * time.Hour,
		Pending: []temporalagent.Approval{{ID: "a2", ToolName: "Write"}, {ID: "a3", ToolName: "Edit"}},
		Decided: []temporalagent.Decision{{ApprovalID: "a1", Reason: "no", By: "bob"}}}
	if diff := cmp.Diff(want, st, cmpopts.IgnoreFields(temporalagent.Approval{}, "Input")); diff != "" {
		t.Fatalf("the state handed on (-want +got):\n%s", diff)
	}

	next := s.NewTestWorkflowEnvironment()
	next.SetWorkerOptions(slowMachine)
	next.RegisterWorkflow(carry)
	next.RegisterDelayedCallback(func() {
		v, err := next.QueryWorkflow(temporalagent.QueryPending)
		var pending []temporalagent.Approval
		if err != nil || v.Get(&pending) != nil || len(pending) != 2 {
			t.Errorf("the next run's pending approvals: %v, %v", pending, err)
		}
		v, err = next.QueryWorkflow(temporalagent.QueryDecision, "a1")
		var l temporalagent.DecisionLookup
		if err != nil || v.Get(&l) != nil || !l.Decided || l.Decision.By != "bob" {
			t.Errorf("the next run's decision on a1: %+v, %v", l, err)
		}
	}, time.Minute)
	next.ExecuteWorkflow(carry, st)
	if err := next.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
}
