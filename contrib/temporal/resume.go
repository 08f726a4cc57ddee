package temporalagent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
)

// attemptLedger is one attempt's handle on the turn's ledger: its claim, its lease, its writes.
type attemptLedger struct {
	ledger  Ledger
	turn    string
	attempt int
	lease   time.Duration
	logger  *slog.Logger

	mu      sync.Mutex
	claimed bool
	lastOK  time.Time // the last successful renewal (or the claim)
}

// newAttemptLedger returns the attempt's ledger handle, or nil without a ledger. The turn is the
// activity (workflow, run, activity id). The lease is 1.5 heartbeat intervals, at least half the
// activity's heartbeat timeout, plus leaseEndAllowance: shorter than the time Temporal takes to
// call a silent worker dead, so that a retry rarely waits for it, and long enough that the owner,
// which renews it every interval and ends its CLI at the first renewal that is refused (fenced),
// or that fails once half the lease without the allowance has passed, has ended it before the
// lease lapses.
func (a *Activities) newAttemptLedger(info activity.Info, every time.Duration, logger *slog.Logger) *attemptLedger {
	if a.ledger == nil {
		return nil
	}
	lease := max(info.HeartbeatTimeout/2, every*3/2) + leaseEndAllowance
	return &attemptLedger{ledger: a.ledger, lease: lease, attempt: int(info.Attempt), logger: logger,
		turn: info.WorkflowExecution.ID + "/" + info.WorkflowExecution.RunID + "/" + info.ActivityID}
}

// leaseEndAllowance is the part of a lease that covers ending the owner's CLI once it learned it
// lost the turn (a renewal refused, or none accepted for half the rest of the lease): Close waits
// closeGrace after closing the CLI's stdin and again after SIGTERM, then kills. Without it, a
// fenced owner ended its CLI 0.7-1.1 s before its lease lapsed with a 10 s heartbeat timeout
// (TestPartitionedFromTemporalEndsItsCLI/retried_at_once), a margin a loaded machine can eat.
const leaseEndAllowance = 2 * time.Second

// claim claims the turn and waits until the previous owner's lease has lapsed (its CLI is ended
// by then: see renew), and returns the turn's ledger so far.
func (l *attemptLedger) claim(ctx context.Context) (turnState, error) {
	entries, wait, err := l.ledger.Claim(ctx, l.turn, l.attempt, l.lease)
	if err != nil {
		if errors.Is(err, ErrFenced) {
			return turnState{}, &FencedError{Err: err}
		}
		return turnState{}, fmt.Errorf("temporalagent: claiming the turn in the ledger: %w", err)
	}
	if wait > 0 {
		l.logger.Info("temporalagent: waiting for the previous attempt's lease to lapse before resuming", "wait", wait)
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return turnState{}, context.Cause(ctx)
		case <-t.C:
		}
	}
	l.mu.Lock()
	l.claimed, l.lastOK = true, time.Now()
	l.mu.Unlock()
	return foldLedger(entries), nil
}

// renew renews the lease (on each heartbeat tick). It returns a *FencedError, which ends the
// turn and its CLI, when another attempt claimed the turn, or when no renewal succeeded for half
// the lease: the CLI is ended well before the next attempt may start one.
func (l *attemptLedger) renew(ctx context.Context, now time.Time) error {
	l.mu.Lock()
	claimed, lastOK := l.claimed, l.lastOK
	l.mu.Unlock()
	if !claimed {
		return nil
	}
	base := l.lease - leaseEndAllowance
	rctx, cancel := context.WithTimeout(ctx, base/6)
	defer cancel()
	err := l.ledger.Renew(rctx, l.turn, l.attempt, l.lease)
	switch {
	case err == nil:
		l.mu.Lock()
		l.lastOK = now
		l.mu.Unlock()
		return nil
	case errors.Is(err, ErrFenced):
		return &FencedError{Err: err}
	case now.Sub(lastOK) >= base/2:
		return &FencedError{Err: fmt.Errorf("the lease was not renewed for %s: %w", now.Sub(lastOK).Round(time.Millisecond), err)}
	}
	l.logger.Warn("temporalagent: renewing the turn's lease failed; trying again", "error", err)
	return nil
}

// append writes e; ErrFenced comes back as a *FencedError.
func (l *attemptLedger) append(ctx context.Context, e LedgerEntry) error {
	e.Attempt = l.attempt
	err := l.ledger.Append(ctx, l.turn, l.attempt, e)
	if errors.Is(err, ErrFenced) {
		return &FencedError{Err: err}
	}
	if err != nil {
		return fmt.Errorf("temporalagent: writing the ledger: %w", err)
	}
	return nil
}

// previous returns where the previous attempts of the turn got: from the ledger when there is
// one (the state also names the calls that ran), else from the last heartbeat that reached the
// server (throttled: it may be behind).
func (a *Activities) previous(ctx context.Context, l *attemptLedger) (Progress, bool, turnState, error) {
	if l != nil {
		st, err := l.claim(ctx)
		if err != nil {
			return Progress{}, false, st, err
		}
		p, ok := st.progress()
		return p, ok, st, nil
	}
	var prev Progress
	retried := activity.HasHeartbeatDetails(ctx) && activity.GetHeartbeatDetails(ctx, &prev) == nil
	return prev, retried, turnState{}, nil
}

// resumeFrom returns the session options, prompt and starting progress of this attempt, given
// the previous attempts' progress.
func (a *Activities) resumeFrom(o SessionOptions, prompt string, prev Progress, retried bool) (SessionOptions, string, Progress) {
	p := Progress{Resumes: prev.Resumes}
	switch {
	case retried && prev.InTurn && prev.ResumeAt != "" && prev.SessionID != "":
		// The turn got somewhere before its worker died: go on from its last completed message.
		p = prev
		p.Resumes++
		o.Resume, o.ResumeAt, prompt = prev.SessionID, prev.ResumeAt, a.continuePrompt
	case retried && o.Resume != "" && prev.SessionID == o.Resume:
		// Nothing completed: run the turn again from where it started.
		p.Resumes++
		o.ResumeAt = prev.ResumeAt
	case retried:
		p.Resumes++
	}
	return o, prompt, p
}
