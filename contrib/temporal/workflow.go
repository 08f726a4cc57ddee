package temporalagent

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Approvals is a workflow's registry of approvals: the ones waiting (query QueryPending), the
// decisions (signal SignalDecide, recorded in the workflow's history). Make one per workflow with
// NewApprovals, and pass it to every RunTurn.
type Approvals struct {
	timeout time.Duration
	order   []string // approval ids, as asked
	pending map[string]Approval
	decided map[string]Decision
	dorder  []string // approval ids, as decided
}

// NewApprovals registers the approval handlers on the workflow. A turn waits up to timeout for a
// decision, then the call is rejected (fail closed); 0 means 7 days.
func NewApprovals(ctx workflow.Context, timeout time.Duration) (*Approvals, error) {
	if timeout <= 0 {
		timeout = 7 * 24 * time.Hour
	}
	ap := &Approvals{timeout: timeout, pending: map[string]Approval{}, decided: map[string]Decision{}}
	if err := workflow.SetQueryHandler(ctx, QueryPending, ap.Pending); err != nil {
		return nil, fmt.Errorf("temporalagent: registering %s: %w", QueryPending, err)
	}
	err := workflow.SetQueryHandler(ctx, QueryDecision, func(id string) (DecisionLookup, error) {
		d, ok := ap.decided[id]
		return DecisionLookup{Decided: ok, Decision: d}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("temporalagent: registering %s: %w", QueryDecision, err)
	}
	requested := workflow.GetSignalChannel(ctx, SignalRequested)
	decide := workflow.GetSignalChannel(ctx, SignalDecide)
	workflow.Go(ctx, func(ctx workflow.Context) { // lives as long as the workflow
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(requested, func(c workflow.ReceiveChannel, _ bool) {
				var a Approval
				c.Receive(ctx, &a)
				ap.add(a)
			})
			sel.AddReceive(decide, func(c workflow.ReceiveChannel, _ bool) {
				var d Decision
				c.Receive(ctx, &d)
				ap.Decide(d)
			})
			sel.Select(ctx)
		}
	})
	return ap, nil
}

// Pending returns the approvals waiting for a decision, oldest first.
func (ap *Approvals) Pending() ([]Approval, error) {
	out := []Approval{}
	for _, id := range ap.order {
		if a, ok := ap.pending[id]; ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// Decide records d from workflow code (a person's decisions come by signal SignalDecide). The
// first decision on an approval counts.
func (ap *Approvals) Decide(d Decision) {
	if _, ok := ap.decided[d.ApprovalID]; ok {
		return
	}
	ap.decided[d.ApprovalID] = d
	ap.dorder = append(ap.dorder, d.ApprovalID)
	delete(ap.pending, d.ApprovalID)
}

func (ap *Approvals) add(a Approval) {
	if _, ok := ap.decided[a.ID]; ok {
		return
	}
	if _, ok := ap.pending[a.ID]; !ok {
		ap.order = append(ap.order, a.ID)
	}
	ap.pending[a.ID] = a
}

// decisions returns every decision so far, in the order they were taken.
func (ap *Approvals) decisions() []Decision {
	out := make([]Decision, 0, len(ap.dorder))
	for _, id := range ap.dorder {
		out = append(out, ap.decided[id])
	}
	return out
}

// TurnError is RunTurn's error for a turn that ended in error (max turns, budget, ...): Result
// holds what it did.
type TurnError struct {
	Result *TurnResult
}

func (e *TurnError) Error() string {
	return fmt.Sprintf("temporalagent: the turn ended in error (%s): %s", e.Result.Subtype, e.Result.Result)
}

// ErrNoApprovals is RunTurn's error for a turn that waits for an approval when RunTurn was given
// no Approvals.
var ErrNoApprovals = errors.New("temporalagent: the turn waits for an approval, but RunTurn has no Approvals (NewApprovals)")

// DefaultActivityOptions are the options RunTurn uses when ctx has no StartToCloseTimeout: two
// hours per attempt, a heartbeat timeout of one minute (a dead worker is noticed within it), five
// attempts, and WaitForCancellation so that a cancelled workflow waits for the CLI to be ended.
func DefaultActivityOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Hour,
		HeartbeatTimeout:    time.Minute,
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
	}
}

// RunTurn runs one turn in the activity (ActivityName) and returns its result. When the turn
// stops to wait for an approval, RunTurn waits for the decision (see Approvals), then resumes the
// session with it, until the turn ends. The activity options are ctx's (workflow.WithActivityOptions)
// or DefaultActivityOptions; WaitForCancellation is always set. A turn that ended in error comes
// with a *TurnError.
func RunTurn(ctx workflow.Context, ap *Approvals, in TurnInput) (*TurnResult, error) {
	ao := workflow.GetActivityOptions(ctx)
	if ao.StartToCloseTimeout == 0 && ao.ScheduleToCloseTimeout == 0 {
		ao = DefaultActivityOptions()
	}
	ao.WaitForCancellation = true
	ctx = workflow.WithActivityOptions(ctx, ao)
	resumes := 0
	for {
		if ap != nil {
			in.Decisions = ap.decisions()
		}
		var res TurnResult
		if err := workflow.ExecuteActivity(ctx, ActivityName, in).Get(ctx, &res); err != nil {
			return nil, err
		}
		res.Resumes += resumes
		if res.Pending == nil {
			if res.IsError {
				return &res, &TurnError{Result: &res}
			}
			return &res, nil
		}
		if ap == nil || res.Next == nil {
			return &res, ErrNoApprovals
		}
		id := res.Pending.ID
		ap.add(*res.Pending)
		ok, err := workflow.AwaitWithTimeout(ctx, ap.timeout, func() bool { _, ok := ap.decided[id]; return ok })
		if err != nil {
			return &res, err
		}
		if !ok {
			ap.Decide(Decision{ApprovalID: id, Reason: fmt.Sprintf("no decision within %s", ap.timeout), By: "temporalagent"})
		}
		resumes = res.Resumes
		in = *res.Next
	}
}
