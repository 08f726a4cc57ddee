package v2

import (
	"context"
	"errors"
	"io"
	"iter"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Send writes a prompt. It does not wait for the answer: read it with Receive.
func (s *Session) Send(ctx context.Context, prompt string) error {
	if err := ctx.Err(); err != nil {
		return callErr("Send", err)
	}
	return callErr("Send", s.sendUser(prompt))
}

// Receive yields the session's messages until and including the next *shared.ResultMessage. A
// non-fatal problem (a malformed or oversized line) is yielded as a *shared.ProtocolError and
// the iteration goes on; a fatal one (the CLI crashed: *shared.ProcessError; the session was
// closed: shared.ErrClosed; the output ended: ErrUnexpectedExit) is yielded last. A prompt can produce more
// than one result (a background task finishing starts a turn by itself, see StartedByCLI): call
// Receive again for the next. Only one Receive (or Query, Run) iterates at a time; a second one
// yields ErrBusy.
func (s *Session) Receive(ctx context.Context) iter.Seq2[shared.Message, error] {
	return s.receive(ctx, false)
}

// receive yields messages until a result; with ownTurn, results of turns the CLI started by itself
// are yielded and the iteration goes on to the next result.
func (s *Session) receive(ctx context.Context, ownTurn bool) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		if !s.recvBusy.TryLock() {
			yield(nil, busyError{"Receive"})
			return
		}
		defer s.recvBusy.Unlock()
		s.receiveLocked(ctx, "Receive", ownTurn, yield)
	}
}

// receiveLocked is receive's loop; the caller holds recvBusy.
func (s *Session) receiveLocked(ctx context.Context, call string, ownTurn bool, yield func(shared.Message, error) bool) {
	for {
		msg, err := s.t.Next(ctx)
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				if !yield(nil, err) {
					return
				}
				continue
			}
			if errors.Is(err, io.EOF) {
				err = ErrUnexpectedExit
			}
			yield(nil, callErr(call, err))
			return
		}
		r, isResult := msg.(*shared.ResultMessage)
		if isResult {
			s.inStep.answered(r) // instep.go: before the yield, which may leave the loop
		}
		if !yield(msg, nil) {
			return
		}
		if isResult && !(ownTurn && StartedByCLI(r)) {
			return
		}
	}
}

// StartedByCLI reports whether r ends a turn that the CLI started by itself rather than one of the
// session's prompts: a background task (e.g. an async subagent) finishing makes the CLI run a turn
// of its own, whose result carries an "origin" (kind "task-notification" in CLI 2.1.330).
func StartedByCLI(r *shared.ResultMessage) bool {
	return r != nil && r.Origin != nil && r.Origin.Kind != "" && r.Origin.Kind != "user" && r.Origin.Kind != "human"
}

// Query sends prompt and yields the messages up to and including the result of the prompt's turn.
// The results of turns the CLI starts by itself meanwhile (StartedByCLI) are yielded too, and the
// iteration goes on past them. Every Query answers its own prompt: when an earlier Run or Query
// gave up its turn (its ctx ended, or its loop was left, before the result), Query interrupts that
// turn and reads it to its result first, and yields nothing of it; a prompt of Send whose result
// was not read yet is ErrTurnPending instead. Leaving the loop early leaves the rest of the turn
// for the next Receive (or the next Query or Run, which drops it); a done ctx also interrupts the
// turn at once. While another Receive (or Query, Run) iterates, Query yields ErrBusy and sends
// nothing; on any error before the prompt is written (ErrBusy, ErrTurnPending, a done ctx)
// nothing is sent, so a retry sends it once.
func (s *Session) Query(ctx context.Context, prompt string) iter.Seq2[shared.Message, error] {
	return s.query(ctx, "Query", func() error { return s.Send(ctx, prompt) })
}

// query is Query (and QueryContent, Run) for the call named call, whose prompt send writes.
func (s *Session) query(ctx context.Context, call string, send func() error) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		if !s.recvBusy.TryLock() {
			yield(nil, busyError{call})
			return
		}
		defer s.recvBusy.Unlock()
		if err := ctx.Err(); err != nil {
			yield(nil, callErr(call, err))
			return
		}
		if err := s.catchUp(ctx, call); err != nil { // instep.go
			yield(nil, callErr(call, err))
			return
		}
		if err := send(); err != nil {
			yield(nil, callErr(call, err))
			return
		}
		answered := false
		s.receiveLocked(ctx, call, true, func(m shared.Message, err error) bool {
			if r, ok := m.(*shared.ResultMessage); ok && !StartedByCLI(r) {
				answered = true
			}
			return yield(m, err)
		})
		if !answered {
			s.abandon(ctx)
		}
	}
}

// Run sends prompt and waits for the result of its turn; like Query, it answers its own prompt
// (an earlier turn given up is interrupted and dropped first) and returns when ctx ends,
// interrupting the turn. Non-fatal protocol errors are logged, and
// so are the results of turns the CLI started by itself (StartedByCLI), which Run skips: use Query
// or Receive to see them. A result with is_error, a subtype other than "success", or refusals
// (shared.ResultMessage.Refusals) comes back with a *ResultError (errors.Is: ErrMaxTurns,
// ErrMaxBudget, ..., ErrPromptBlocked, ErrPermissionDenied, ErrGuardFailed).
func (s *Session) Run(ctx context.Context, prompt string) (*shared.ResultMessage, error) {
	var last error
	for m, err := range s.query(ctx, "Run", func() error { return s.Send(ctx, prompt) }) {
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				s.logger.Warn("v2: skipped a line", "error", err)
				continue
			}
			last = err
			break
		}
		if r, ok := m.(*shared.ResultMessage); ok {
			if StartedByCLI(r) {
				s.logger.Info("v2: Run skipped the result of a turn the CLI started by itself", "result", r.Subtype)
				continue
			}
			if failed(r) {
				return r, &ResultError{Result: r}
			}
			return r, nil
		}
	}
	if last == nil {
		last = ErrUnexpectedExit
	}
	return nil, last
}
