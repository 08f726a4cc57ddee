package temporalagent

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Approvals is a workflow's registry of approvals: the ones waiting (query QueryPending), the
// decisions (signal SignalDecide, recorded in the workflow's history). Make one per workflow with
// NewApprovals (or NewApprovalsFrom, after a continue-as-new), and pass it to every RunTurn.
type Approvals struct {
	timeout   time.Duration
	order     []string // approval ids, as asked
	pending   map[string]Approval
	decided   map[string]Decision
	dorder    []string // approval ids, as decided
	requested workflow.ReceiveChannel
	decide    workflow.ReceiveChannel
}

// ApprovalsState is what an Approvals holds, to carry over a continue-as-new: pass
// Approvals.State to the next run (workflow.NewContinueAsNewError) and NewApprovalsFrom there.
// It is serializable with the workflow's data converter.
type ApprovalsState struct {
	// Timeout is how long a turn waits for a decision.
	Timeout time.Duration
	// Pending are the approvals waiting, oldest first.
	Pending []Approval `json:",omitempty"`
	// Decided are the decisions, in the order they were taken. Drop the ones no session will ask
	// again to keep the next run's input small.
	Decided []Decision `json:",omitempty"`
}

// NewApprovals registers the approval handlers on the workflow. A turn waits up to timeout for a
// decision, then the call is rejected (fail closed); 0 means 7 days.
func NewApprovals(ctx workflow.Context, timeout time.Duration) (*Approvals, error) {
	return NewApprovalsFrom(ctx, ApprovalsState{Timeout: timeout})
}

// NewApprovalsFrom is NewApprovals with the state an earlier run carried over (Approvals.State):
// its pending approvals and decisions.
func NewApprovalsFrom(ctx workflow.Context, st ApprovalsState) (*Approvals, error) {
	if st.Timeout <= 0 {
		st.Timeout = 7 * 24 * time.Hour
	}
	ap := &Approvals{timeout: st.Timeout, pending: map[string]Approval{}, decided: map[string]Decision{}}
	for _, d := range st.Decided {
		ap.Decide(d)
	}
	for _, a := range st.Pending {
		ap.add(a)
	}
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
	ap.requested = workflow.GetSignalChannel(ctx, SignalRequested)
	ap.decide = workflow.GetSignalChannel(ctx, SignalDecide)
	workflow.Go(ctx, func(ctx workflow.Context) { // lives as long as the workflow
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(ap.requested, func(c workflow.ReceiveChannel, _ bool) {
				var a Approval
				c.Receive(ctx, &a)
				ap.add(a)
			})
			sel.AddReceive(ap.decide, func(c workflow.ReceiveChannel, _ bool) {
				var d Decision
				c.Receive(ctx, &d)
				ap.Decide(d)
			})
			sel.Select(ctx)
		}
	})
	return ap, nil
}

// State returns what the registry holds, after taking the signals already delivered and not yet
// read (so that none is lost to a continue-as-new). Call it between turns, as the run's last step.
//
// It first lets the registry's signal goroutine run once: a signal delivered while that goroutine
// waited in its selector is in the goroutine's hands, not in the channel, until it runs (on a
// real server a decision that came with the signal that ended the run was lost that way:
// TestApprovalsCrossAContinueAsNew).
func (ap *Approvals) State(ctx workflow.Context) ApprovalsState {
	yielded := false
	_ = workflow.Await(ctx, func() bool { // false once: the other coroutines run before it returns
		done := yielded
		yielded = true
		return done
	})
	for {
		var a Approval
		if ok := ap.requested.ReceiveAsync(&a); !ok {
			break
		}
		ap.add(a)
	}
	for {
		var d Decision
		if ok := ap.decide.ReceiveAsync(&d); !ok {
			break
		}
		ap.Decide(d)
	}
	pending, _ := ap.Pending()
	return ApprovalsState{Timeout: ap.timeout, Pending: pending, Decided: ap.decisions()}
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

// await lists a and waits for its decision, up to the registry's timeout (then it is a
// rejection).
func (ap *Approvals) await(ctx workflow.Context, a Approval) (Decision, error) {
	ap.add(a)
	ok, err := workflow.AwaitWithTimeout(ctx, ap.timeout, func() bool { _, ok := ap.decided[a.ID]; return ok })
	if err != nil {
		return Decision{}, err
	}
	if !ok {
		ap.Decide(Decision{ApprovalID: a.ID, Reason: fmt.Sprintf("no decision within %s", ap.timeout), By: "temporalagent"})
	}
	return ap.decided[a.ID], nil
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

// DefaultActivityOptions are the options RunTurn starts from: two hours per attempt, a heartbeat
// timeout of one minute (a dead worker is noticed within it), five attempts, and
// WaitForCancellation so that a cancelled workflow waits for the CLI to be ended.
func DefaultActivityOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Hour,
		HeartbeatTimeout:    time.Minute,
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
	}
}

// MergeActivityOptions returns DefaultActivityOptions with every field that ao sets (non-zero)
// taken from ao: a task queue, each timeout, the retry policy (whole), the activity id, the
// summary, the priority, the versioning intent, DisableEagerExecution. WaitForCancellation is
// always set: a cancelled workflow waits for its CLI to be ended.
func MergeActivityOptions(ao workflow.ActivityOptions) workflow.ActivityOptions {
	d := DefaultActivityOptions()
	d.TaskQueue = cmp.Or(ao.TaskQueue, d.TaskQueue)
	d.ScheduleToCloseTimeout = cmp.Or(ao.ScheduleToCloseTimeout, d.ScheduleToCloseTimeout)
	d.ScheduleToStartTimeout = cmp.Or(ao.ScheduleToStartTimeout, d.ScheduleToStartTimeout)
	d.StartToCloseTimeout = cmp.Or(ao.StartToCloseTimeout, d.StartToCloseTimeout)
	d.HeartbeatTimeout = cmp.Or(ao.HeartbeatTimeout, d.HeartbeatTimeout)
	d.ActivityID = cmp.Or(ao.ActivityID, d.ActivityID)
	d.Summary = cmp.Or(ao.Summary, d.Summary)
	//lint:ignore SA1019 a caller's deprecated setting is kept, not dropped
	d.VersioningIntent = cmp.Or(ao.VersioningIntent, d.VersioningIntent)
	d.DisableEagerExecution = ao.DisableEagerExecution
	if ao.RetryPolicy != nil {
		d.RetryPolicy = ao.RetryPolicy
	}
	if ao.Priority != (temporal.Priority{}) {
		d.Priority = ao.Priority
	}
	return d
}

// The changes of RunTurn's commands, for workflow.GetVersion: a workflow that started on an older
// version of this module replays the way it ran.
const (
	// versionChange names RunTurn's change in workflow.GetVersion.
	versionChange = "temporalagent.RunTurn"
	// versionMerged: the caller's activity options merged field by field (before: replaced by
	// DefaultActivityOptions when they had no start-to-close or schedule-to-close timeout), and
	// the decisions passed once, to the turn that resumes for them (before: every decision so far,
	// to every turn).
	versionMerged workflow.Version = 1
)

// RunTurn runs one turn in the activity (ActivityName) and returns its result. When the turn
// stops to wait for an approval, RunTurn waits for the decision (see Approvals), then resumes the
// session with it, until the turn ends. The activity options are ctx's
// (workflow.WithActivityOptions) merged with DefaultActivityOptions (MergeActivityOptions). A turn
// that ended in error comes with a *TurnError; a cancelled workflow gets its cancellation once
// the CLI has ended.
func RunTurn(ctx workflow.Context, ap *Approvals, in TurnInput) (*TurnResult, error) {
	v := workflow.GetVersion(ctx, versionChange, workflow.DefaultVersion, versionMerged)
	ao := workflow.GetActivityOptions(ctx)
	switch {
	case v >= versionMerged:
		ao = MergeActivityOptions(ao)
	case ao.StartToCloseTimeout == 0 && ao.ScheduleToCloseTimeout == 0:
		ao = DefaultActivityOptions()
	}
	ao.WaitForCancellation = true
	ctx = workflow.WithActivityOptions(ctx, ao)
	resumes := 0
	for {
		if ap != nil && v < versionMerged {
			in.Decisions = ap.decisions()
		}
		var res TurnResult
		if err := workflow.ExecuteActivity(ctx, ActivityName, in).Get(ctx, &res); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
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
		d, err := ap.await(ctx, *res.Pending)
		if err != nil {
			return &res, err
		}
		resumes = res.Resumes
		in = *res.Next
		if v >= versionMerged {
			in.Decisions = []Decision{d}
		}
	}
}
