package temporalagent

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// errCancelRequested is the turn's cancel cause when the watch saw the workflow cancel it.
var errCancelRequested = errors.New("temporalagent: the workflow cancelled the turn")

// watchCancel asks the server every `every` whether the activity's cancellation was requested
// (its pending activity's state), and ends the turn at once if so: the SDK learns of a
// cancellation only in the answer to a heartbeat, which it sends at most once per throttle
// interval (0.8 x the heartbeat timeout, 48 s with DefaultActivityOptions). It also ends the turn,
// as fenced, when the server no longer runs this attempt: its pending activity is another attempt
// (this one was taken for dead and retried, or the activity was reset), the activity is no
// longer pending (it timed out), or the workflow run has ended (terminated, reset, timed out).
// The goroutine is the turn's and ends with stop.
func watchCancel(ctx context.Context, cancel context.CancelCauseFunc, every time.Duration) (stop func()) {
	info := activity.GetInfo(ctx)
	c := activity.GetClient(ctx)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if cause := pendingState(ctx, c, info); cause != nil {
				cancel(cause)
				return
			}
		}
	}()
	return func() {
		select {
		case <-quit:
		default:
			close(quit)
		}
		<-done
	}
}

// pendingState returns why the turn must end, or nil: errCancelRequested, or a *FencedError when
// a later attempt of the activity is pending. An error asking is nil (the next tick asks again).
func pendingState(ctx context.Context, c client.Client, info activity.Info) error {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d, err := c.DescribeWorkflowExecution(rctx, info.WorkflowExecution.ID, info.WorkflowExecution.RunID)
	if err != nil {
		return nil
	}
	if st := d.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return &FencedError{Err: fmt.Errorf("the workflow run is no longer running (%s)", st)}
	}
	for _, pa := range d.GetPendingActivities() {
		if pa.GetActivityId() != info.ActivityID {
			continue
		}
		switch {
		case pa.GetState() == enumspb.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED:
			return errCancelRequested
		case pa.GetAttempt() != info.Attempt:
			return &FencedError{Err: fmt.Errorf("the server's attempt of the activity is %d, this is %d (retried, or reset)", pa.GetAttempt(), info.Attempt)}
		}
		return nil
	}
	return &FencedError{Err: errors.New("the server no longer runs the activity (it timed out, or the workflow's history was reset)")}
}

// reportCancelled completes the activity as cancelled through the client (the SDK has not seen
// the cancellation yet, so returning an error would report a failure), and returns
// activity.ErrResultPending so that the SDK reports nothing more.
func reportCancelled(ctx context.Context) error {
	info := activity.GetInfo(ctx)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := activity.GetClient(ctx).CompleteActivity(rctx, info.TaskToken, nil, temporal.NewCanceledError("temporalagent: the workflow cancelled the turn"))
	if err != nil {
		return temporal.NewCanceledError(err.Error())
	}
	return activity.ErrResultPending
}
