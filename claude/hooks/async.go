package hooks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// asyncRuns tracks the background phases of async answers (shared.Async).
type asyncRuns struct {
	ctx    context.Context // cancelled by Close, after the wait
	cancel context.CancelFunc
	mu     sync.Mutex // guards closed, and orders wg.Add before Close's wg.Wait
	closed bool
	wg     sync.WaitGroup // background phases whose end is not reported yet
}

func (a *asyncRuns) init() { a.ctx, a.cancel = context.WithCancel(context.Background()) }

// asyncAnswer handles a handler's async answer: for an event that guards an action it is an error
// (ErrAsyncNotAllowed: fail closed), a typed nil included (it is not "no opinion" there); a
// *shared.AsyncWork is returned as work, whose background phase the caller starts (startAsync), and
// counts as no opinion now; a plain {"async":true} (shared.AsyncHookOutput) goes on as it is. Any
// other output is returned unchanged.
func asyncAnswer(e shared.HookEvent, out shared.HookOutput) (_ shared.HookOutput, work *shared.AsyncWork, _ error) {
	switch out.(type) {
	case *shared.AsyncWork, shared.AsyncHookOutput, *shared.AsyncHookOutput:
	default:
		return out, nil, nil
	}
	if e.GuardsAction() {
		return nil, nil, fmt.Errorf("%w (%s)", shared.ErrAsyncNotAllowed, e)
	}
	switch v := out.(type) {
	case *shared.AsyncWork:
		if v == nil {
			return nil, nil, nil
		}
		work = v
	case *shared.AsyncHookOutput:
		if v == nil {
			return nil, nil, nil
		}
	}
	if work == nil {
		return out, nil, nil
	}
	if work.Work == nil {
		return nil, nil, fmt.Errorf("%w: shared.Async without work", shared.ErrInvalidOutput)
	}
	return nil, work, nil
}

// startAsync runs the background phase of an async answer given by run. Its end is reported to
// Observe (Async true) with its outcome and duration; a failure is logged.
func (x *Engine) startAsync(run HandlerRun, h *registeredHook, w *shared.AsyncWork) {
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = shared.DefaultAsyncTimeout
	}
	run.Async, run.Started, run.Duration, run.Outcome, run.Err = true, time.Now(), 0, "", nil
	hookErr := func(err error) error {
		return &shared.HookError{Event: run.Event, Index: run.Index, Name: run.Name, Err: err}
	}
	a := &x.async
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		if x.opts.Observe != nil {
			x.opts.Observe(run)
		}
		x.observeEnd(run, hookErr(fmt.Errorf("%w: the session is closing", shared.ErrHookCancelled)))
		return
	}
	a.wg.Add(1)
	a.mu.Unlock()
	if x.opts.Observe != nil {
		x.opts.Observe(run)
	}
	ctx, cancel := context.WithTimeout(a.ctx, timeout)
	var prog *progressReporter
	if x.opts.Progress != nil {
		prog = &progressReporter{run: run, fn: x.opts.Progress}
		ctx = shared.WithHookProgress(ctx, prog.report)
	}
	var once sync.Once
	finish := func(err error) {
		once.Do(func() {
			if prog != nil {
				prog.end()
			}
			if err != nil && !errors.Is(err, shared.ErrHookPanic) {
				x.logger.Warn("async hook failed", "event", string(run.Event), "hook", hookLabel(h), "error", errSummary(err))
			}
			x.observeEnd(run, err)
			a.wg.Done()
		})
	}
	// The watchdog reports a timeout even if the work ignores its ctx.
	watchdog := time.AfterFunc(timeout, func() { finish(hookErr(fmt.Errorf("%w after %v", shared.ErrHookTimeout, timeout))) })
	go func() { // the background phase: it ends when Work returns (its end may be reported earlier, at the timeout)
		defer cancel()
		r := callHandler(ctx, shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) { return w.Work(ctx) }), nil)
		out, err, stack := r.out, r.err, r.stack
		watchdog.Stop()
		switch {
		case stack != nil:
			x.logger.Error("async hook panicked", "event", string(run.Event), "hook", hookLabel(h), "panic", fmt.Sprint(err), "stack", string(stack))
		case ctx.Err() != nil && a.ctx.Err() != nil:
			out, err = nil, shared.ErrHookCancelled
		case ctx.Err() != nil:
			out, err = nil, fmt.Errorf("%w after %v", shared.ErrHookTimeout, timeout)
		}
		if err != nil {
			finish(hookErr(err))
			return
		}
		if out != nil {
			x.logger.Debug("async hook answered; the answer is dropped (the CLI takes no later answer)", "event", string(run.Event), "hook", hookLabel(h))
		}
		finish(nil)
	}()
}

// Close ends the executor's background work: it waits for the background phases of async answers
// to end, each at most until its timeout, then cancels the ctx of those still running (they
// ignored it). Async answers given after Close are not run (reported as cancelled). Chains may
// still run. Close is idempotent.
func (x *Engine) Close() {
	a := &x.async
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.wg.Wait()
	a.cancel()
}
