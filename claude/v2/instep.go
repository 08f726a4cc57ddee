package v2

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ErrTurnPending: Run or Query was called while a prompt written with Send (SendContent,
// SendStream) still awaits its result: the next result would be that prompt's, not the new one's.
// Receive it first (or Interrupt, then Receive). Nothing was sent.
var ErrTurnPending = errors.New("v2: a prompt sent with Send still awaits its result")

// busyError is ErrBusy, naming the call that found the session busy.
type busyError struct{ call string }

func (e busyError) Error() string {
	return "v2: " + e.call + ": another Receive, Query or Run of this session is iterating (one at a time)"
}

func (e busyError) Is(target error) bool { return target == ErrBusy }

// pendingError is ErrTurnPending, naming the call and the number of prompts.
type pendingError struct {
	call string
	n    int64
}

func (e pendingError) Error() string {
	return fmt.Sprintf("v2: %s: %d prompt(s) sent with Send still await their result: Receive it first (or Interrupt, then Receive); nothing was sent", e.call, e.n)
}

func (e pendingError) Is(target error) bool { return target == ErrTurnPending }

// inStep keeps a session's prompts and results in step: every Run and Query answers its own
// prompt. It counts the prompts written whose turn has not yet yielded its result (unread), and
// knows whether a Run or Query gave them up (abandoned: its ctx ended, or its loop was left,
// before the result). The next Run or Query interrupts an abandoned turn and reads it to its
// result before it sends its own prompt; a prompt of Send is the caller's to read (ErrTurnPending).
// unread and abandoned change only under recvBusy (Send's count aside), so they need no lock of
// their own beyond the atomics.
type inStep struct {
	unread    atomic.Int64
	abandoned atomic.Bool
	// interrupt is the interrupt sent when a Run's ctx ended (nil: none in flight); the next call
	// waits for it, so that it cannot reach the CLI after the next prompt.
	mu        sync.Mutex
	interrupt chan struct{}
	bg        sync.WaitGroup
}

// sent counts a prompt written.
func (st *inStep) sent() { st.unread.Add(1) }

// answered counts a result of the session's prompts read (a result of a turn the CLI started by
// itself answers none).
func (st *inStep) answered(r *shared.ResultMessage) {
	if StartedByCLI(r) {
		return
	}
	if st.unread.Add(-1) <= 0 {
		st.unread.Store(0)
		st.abandoned.Store(false)
	}
}

// abandon records that a Run or Query gave up its turn before the result. When its ctx ended, the
// turn is interrupted at once (on a goroutine the session owns, bounded by WithRequestTimeout and
// ended by Close), so that the agent stops working for a caller who left; a loop left by break is
// not: the rest of the turn is there for Receive.
func (s *Session) abandon(ctx context.Context) {
	if s.inStep.unread.Load() == 0 {
		return
	}
	s.inStep.abandoned.Store(true)
	if ctx.Err() == nil {
		return
	}
	st := &s.inStep
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.interrupt != nil {
		select {
		case <-st.interrupt: // an earlier one, done: send another
		default:
			return // one is in flight: it interrupts this turn too
		}
	}
	done := make(chan struct{})
	st.interrupt = done
	st.bg.Add(1)
	go func() {
		defer st.bg.Done()
		defer close(done)
		if _, err := s.t.Request(context.WithoutCancel(ctx), interruptRequest{}); err != nil {
			s.logger.Warn("v2: interrupting the turn a cancelled call left", "error", err)
		}
	}()
}

// catchUp makes the session ready for a new prompt of call (Run, Query): it waits for an
// interrupt in flight, interrupts an abandoned turn (once more: a no-op when it has ended) and
// reads its messages to its result, which nobody asked for any more (they were observed, stored
// and logged). A prompt of Send whose result was not read is ErrTurnPending. On an error nothing
// was sent and the session is as in step as before: the next call catches up again.
func (s *Session) catchUp(ctx context.Context, call string) error {
	st := &s.inStep
	n := st.unread.Load()
	if n == 0 {
		return nil
	}
	if !st.abandoned.Load() {
		return pendingError{call, n}
	}
	st.mu.Lock()
	pending := st.interrupt
	st.mu.Unlock()
	if pending != nil {
		select {
		case <-pending:
		case <-ctx.Done():
			return ctx.Err()
		}
		st.mu.Lock()
		st.interrupt = nil
		st.mu.Unlock()
	} else if err := s.Interrupt(ctx); err != nil {
		return fmt.Errorf("v2: %s: interrupting the turn an earlier call left: %w", call, err)
	}
	s.logger.Info("v2: reading the turn an earlier call left to its result", "call", call, "turns", n)
	for st.unread.Load() > 0 {
		msg, err := s.t.Next(ctx)
		var pe *shared.ProtocolError
		switch {
		case errors.As(err, &pe):
			continue
		case errors.Is(err, io.EOF):
			return ErrUnexpectedExit
		case err != nil:
			return err
		}
		if r, ok := msg.(*shared.ResultMessage); ok {
			st.answered(r)
		}
	}
	return nil
}

// waitBackground waits for the interrupts abandon started (Close, after the transport ended,
// which ends them).
func (st *inStep) waitBackground() { st.bg.Wait() }
