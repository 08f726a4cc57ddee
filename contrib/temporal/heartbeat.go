package temporalagent

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
)

// heartbeats records the turn's Progress as the activity's heartbeat: at once, on every tick, and
// when the turn completes a message (nudge). The SDK sends at most one heartbeat per throttle
// interval, with the latest details. It goes on after the activity is cancelled (the SDK's
// cancellation is cooperative: a heartbeat still reaches the server), so that the time the
// turn takes to end its CLI does not count as a dead worker. When the CLI has said nothing for
// stuckAfter, it stops heartbeating and cancels the turn with a *StuckError. With a ledger, each
// tick renews the attempt's lease (a failure ends the turn, fenced) and each new resume point is
// written to the ledger. Its goroutine is owned by the turn and ends with stop.
type heartbeats struct {
	kick chan struct{}
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

// heartbeatHooks are what a heartbeat does besides recording the progress.
type heartbeatHooks struct {
	tick     func(now time.Time) error // on every tick; an error ends the turn with it as cause
	progress func(Progress)            // with the progress, when it changed
}

func startHeartbeats(ctx context.Context, cancel context.CancelCauseFunc, tr *tracker, every, stuckAfter time.Duration, hooks heartbeatHooks) *heartbeats {
	h := &heartbeats{kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	ctx = context.WithoutCancel(ctx) // the activity's, to heartbeat while the cancelled turn ends
	go func() {
		defer close(h.done)
		t := time.NewTicker(every)
		defer t.Stop()
		last := tr.progress()
		activity.RecordHeartbeat(ctx, last)
		for {
			select {
			case <-h.quit:
				return
			case <-h.kick:
			case now := <-t.C:
				if tr.stuck(now, stuckAfter) {
					cancel(&StuckError{Silent: stuckAfter})
					return
				}
				if hooks.tick != nil {
					if err := hooks.tick(now); err != nil {
						cancel(err)
						return
					}
				}
			}
			p := tr.progress()
			activity.RecordHeartbeat(ctx, p)
			if hooks.progress != nil && p.ResumeAt != last.ResumeAt {
				hooks.progress(p)
			}
			last = p
		}
	}()
	return h
}

// nudge asks for a heartbeat with the latest progress.
func (h *heartbeats) nudge() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// stop ends the goroutine and waits for it; later calls return at once.
func (h *heartbeats) stop() {
	h.once.Do(func() { close(h.quit) })
	<-h.done
}
