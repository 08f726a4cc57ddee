package hooks

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Result is the outcome of one chain run.
type Result struct {
	// Output is the merged answer; nil means "no opinion" ({}). A *shared.SyncHookOutput here is
	// in the form Normalize returns; Answer is its encoding.
	Output shared.HookOutput
	// Decision and Reason are the verdict of Output as the engine read it (as HandlerRun's): the
	// event's own field for PreToolUse, PermissionRequest ("allow" or "deny") and
	// PreModelSwitch, else the top-level decision; "" when Output has none or the chain was
	// cancelled. The transport's PermissionRequest join reads them, never Output.
	Decision shared.Decision
	Reason   string
	// Ran counts the handlers that matched and ran.
	Ran int
	// Err is the first handler failure, if any (for events that guard an action, Output is then the
	// event's denial).
	Err error
	// Cancelled is true when ctx was cancelled (the CLI cancelled the request or the session
	// closed): no answer must be sent.
	Cancelled bool
	// Answer is Output as the CLI reads it for the event (encoded once, when the chain ends; nil
	// when Cancelled): what the transport writes.
	Answer *Answer
}

// chainKey is the context key under which a handler's ctx carries its executor (see InChain).
type chainKey struct{}

// InChain reports whether ctx is (derived from) the ctx of a handler that x is running: the caller
// runs inside one of x's hook chains.
func (x *Engine) InChain(ctx context.Context) bool {
	cx, _ := ctx.Value(chainKey{}).(*Engine)
	return cx == x
}

// Run runs the handlers of in's event whose matcher matches, base hooks first, then scoped ones,
// in registration order, and merges their answers:
//   - a deny (permission deny, block decision, PermissionRequest deny), a defer, or continue:false
//     ends the chain; that answer is what the CLI gets;
//   - an updatedInput is what the next handler sees in ToolInput, and the last one is sent;
//   - additionalContext and systemMessage are joined; ask outranks allow;
//   - a failure (error, panic, timeout, invalid output) of an event that guards an action ends the
//     chain with the event's denial (fail closed). For other events an error or panic is reported
//     and the chain goes on; a timeout ends the chain.
//
// Run is synchronous: it returns when the chain ends. The chain runs on a goroutine of its own
// (Serve); a handler that ignores its ctx does not hold Run up: Run returns at the handler's
// deadline (a timeout) or at ctx's end, and the handler is left to finish on its own, its result
// dropped (as net/http's TimeoutHandler does). Handlers must honour ctx, or they leak until they
// return.
//
// ctx bounds the whole chain: once it is done, Run returns Result{Cancelled: true} (no answer
// must be sent), even if a handler already answered. in is modified (its ToolInput) as the chain
// rewrites it. requestID labels the runs (HandlerRun.RequestID).
func (x *Engine) Run(ctx context.Context, in shared.HookInput, requestID string) Result {
	done := make(chan Result, 1)
	go x.Serve(ctx, in, requestID, func(res Result) { done <- res }) // ends with the chain
	return <-done
}

// Serve runs the chain of Run on the calling goroutine, each handler called directly, and calls
// answer exactly once with the result: when the chain ends, or, if a handler is still running
// when its deadline passes or ctx ends, at that moment, from the goroutine context.AfterFunc
// starts. The handler is then left to finish on its own and what it returns is dropped; Serve
// returns when it does. This is the transport's path: the goroutine that read a request runs its
// handlers (readStdout), and the fail-closed deadline answers without a goroutine per handler.
func (x *Engine) Serve(ctx context.Context, in shared.HookInput, requestID string, answer func(Result)) {
	e := in.Base().HookEventName
	c := &chainRun{x: x, e: e, in: in, id: requestID, snap: x.scoped.Load(), answer: answer}
	c.m.event = e
	c.run(context.WithValue(ctx, chainKey{}, x))
}

// chainRun is one run of an event's handlers for one request. Its state is owned by the goroutine
// running the chain, or, once a handler outlived its deadline or ctx, by the goroutine that
// answers for it (handlerEnd decides which, once per handler).
type chainRun struct {
	x      *Engine
	e      shared.HookEvent
	in     shared.HookInput
	id     string
	snap   *scopeSet
	answer func(Result)

	m   merger
	ran int
	err error // the first handler failure
}

// run calls the matching handlers in order until one ends the chain.
func (c *chainRun) run(ctx context.Context) {
	mv, agent := c.in.MatchValue(), c.in.Base().AgentID
	for _, h := range c.x.hooksOf(c.e, c.snap) {
		if (h.agentID != "" && h.agentID != agent) || (c.e.UsesMatcher() && !h.matcher.Match(mv)) {
			continue
		}
		if ctx.Err() != nil {
			// Cancelled between two handlers: the next one does not start.
			c.finish(Result{Ran: c.ran, Cancelled: true, Err: c.x.hookError(c.e, h, shared.ErrHookCancelled)})
			return
		}
		c.ran++
		if c.call(ctx, h) {
			return
		}
	}
	c.finishMerged()
}

// finish hands res to answer; a SubagentStop chain first ends the scopes of its agent.
func (c *chainRun) finish(res Result) {
	if c.e == shared.HookEventSubagentStop && c.snap != nil && c.snap.agents > 0 {
		// The agent's scopes end with it, before the CLI hears the answer.
		c.x.endAgent(c.in.Base().AgentID, res.Output)
	}
	if !res.Cancelled {
		so, _ := res.Output.(*shared.SyncHookOutput) // the merger's and denial's form
		res.Decision, res.Reason = verdictOf(so)
		res.Answer = c.x.answerFor(c.e, res.Output)
	}
	c.answer(res)
}

// finishMerged answers with the merged answers so far.
func (c *chainRun) finishMerged() {
	c.finish(Result{Output: c.m.result(), Ran: c.ran, Err: c.err})
}

// handlerResult is what a handler run gives back.
type handlerResult struct {
	out   shared.HookOutput
	err   error
	stack []byte // set when the handler panicked (err is then a *panicError)
}

// call runs handler h on this goroutine under its timeout, and reports whether the chain ended.
// If h is still running when its deadline passes or ctx ends, the goroutine of context.AfterFunc
// settles the run (a timeout or a cancel) and the chain, and call, once h returns, reports the
// chain ended without touching it.
func (c *chainRun) call(ctx context.Context, h *registeredHook) bool {
	run := HandlerRun{ID: c.x.runs.Add(1), Event: c.e, Index: h.index, Name: h.name, Scope: h.scope, RequestID: c.id, Started: time.Now()}
	if tc := shared.ToolCall(c.in); tc != nil {
		run.ToolName, run.ToolUseID = tc.ToolName, tc.ToolUseID
	}
	if c.x.opts.Observe != nil {
		c.x.opts.Observe(run)
	}
	hctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	var prog *progressReporter
	if c.x.opts.Progress != nil {
		prog = &progressReporter{run: run, fn: c.x.opts.Progress}
		hctx = shared.WithHookProgress(hctx, prog.report)
	}
	end := func(r handlerResult) bool { return c.handlerEnd(ctx, hctx, h, run, prog, r) }
	stop := context.AfterFunc(hctx, func() { end(handlerResult{}) }) // the fail-closed deadline
	r := callHandler(hctx, h.handler, c.in)
	if !stop() {
		return true // the deadline or the cancel answered for the chain
	}
	return end(r)
}

// handlerEnd settles one handler run, once: classifies r, checks and normalises its answer,
// reports the end, and folds it into the chain. It reports whether the chain ended.
func (c *chainRun) handlerEnd(ctx, hctx context.Context, h *registeredHook, run HandlerRun, prog *progressReporter, r handlerResult) bool {
	// Decide by the contexts: a handler that honours ctx returns as ctx ends, with ctx.Err() or
	// with an answer; either way an answer given then must not count (an allow after the
	// deadline would fail open).
	switch {
	case ctx.Err() != nil:
		r = handlerResult{err: shared.ErrHookCancelled}
	case hctx.Err() != nil && r.stack == nil:
		r = handlerResult{err: fmt.Errorf("%w after %v", shared.ErrHookTimeout, h.timeout)}
	}
	out, norm, work, err := c.readAnswer(r)
	if err != nil {
		err = c.x.hookError(c.e, h, err)
		err.(*shared.HookError).Stack = r.stack
		if r.stack != nil {
			c.x.logger.Error("hook panicked", "event", string(c.e), "hook", hookLabel(h), "panic", fmt.Sprint(r.err), "stack", string(r.stack))
		}
		out, norm = nil, nil
	}
	if prog != nil {
		prog.end() // no progress line after the end report
	}
	run.Output = out
	switch {
	case err == nil:
		run.Decision, run.Reason = verdictOf(norm)
	case c.e.GuardsAction():
		run.Decision, run.Reason = shared.DecisionDeny, failClosedReason
	}
	c.x.observeEnd(run, err)
	if work != nil {
		c.x.startAsync(run, h, work) // reported after this run's end
	}
	return c.settle(ctx, h, out, norm, err)
}

// readAnswer reads a handler's answer: an async one (asyncAnswer), or a synchronous one read
// once with Normalize (norm), which is what the merger folds in. An answer that cannot be
// written for the event is an ErrInvalidOutput.
func (c *chainRun) readAnswer(r handlerResult) (out shared.HookOutput, norm *shared.SyncHookOutput, work *shared.AsyncWork, err error) {
	if r.err != nil {
		return nil, nil, nil, r.err
	}
	out, work, err = asyncAnswer(c.e, r.out)
	if err != nil || work != nil {
		return out, nil, work, err
	}
	switch out.(type) {
	case shared.AsyncHookOutput, *shared.AsyncHookOutput:
		return out, nil, nil, nil // valid here: asyncAnswer refuses it on events that guard an action
	}
	norm, werr := Normalize(c.e, out)
	if werr != nil {
		return out, nil, nil, fmt.Errorf("%w: %v", shared.ErrInvalidOutput, werr)
	}
	if c.x.opts.CheckPermission == nil || norm == nil {
		return out, norm, nil, nil
	}
	if sp, ok := norm.HookSpecificOutput.(*shared.PermissionRequestOutput); ok && sp.Decision != nil {
		if err := c.x.opts.CheckPermission(sp.Decision); err != nil {
			return out, nil, nil, err
		}
	}
	return out, norm, nil, nil
}

// settle folds one handler's outcome into the chain; it reports whether the chain ended (and
// was answered).
func (c *chainRun) settle(ctx context.Context, h *registeredHook, out shared.HookOutput, norm *shared.SyncHookOutput, err error) bool {
	if ctx.Err() != nil && errors.Is(err, shared.ErrHookCancelled) {
		c.finish(Result{Ran: c.ran, Cancelled: true, Err: err})
		return true
	}
	if err == nil {
		if c.m.add(out, norm, c.in) {
			c.finishMerged()
			return true
		}
		return false
	}
	if c.err == nil {
		c.err = err
	}
	c.x.logger.Warn("hook failed", "event", string(c.e), "hook", hookLabel(h), "error", errSummary(err))
	if c.e.GuardsAction() {
		c.finish(Result{Output: denial(c.e, failClosedReason+": "+errSummary(err)), Ran: c.ran, Err: c.err})
		return true
	}
	if errors.Is(err, shared.ErrHookTimeout) {
		c.finishMerged() // the handler may still be running: what follows it must not run beside it
		return true
	}
	return false
}

// hookError wraps err as a *HookError of h, unless it is one.
func (x *Engine) hookError(e shared.HookEvent, h *registeredHook, err error) error {
	if he, ok := err.(*shared.HookError); ok {
		return he
	}
	return &shared.HookError{Event: e, Index: h.index, Name: h.name, Err: err}
}

// observeEnd reports the end of run to Observe, its outcome classified from err.
func (x *Engine) observeEnd(run HandlerRun, err error) {
	if x.opts.Observe == nil {
		return
	}
	run.Duration = time.Since(run.Started)
	run.Outcome = shared.HookOutcomeSuccess
	switch {
	case err == nil:
	case errors.Is(err, shared.ErrHookPanic):
		run.Outcome = shared.HookOutcomePanic
	case errors.Is(err, shared.ErrHookTimeout):
		run.Outcome = shared.HookOutcomeTimeout
	case errors.Is(err, shared.ErrHookCancelled):
		run.Outcome = shared.HookOutcomeCancelled
	default:
		run.Outcome = shared.HookOutcomeError
	}
	run.Err = err
	x.opts.Observe(run)
}

// callHandler calls fn, turning a panic into a *panicError with the stack.
func callHandler(ctx context.Context, fn shared.HookHandler, in shared.HookInput) (r handlerResult) {
	defer func() {
		if v := recover(); v != nil {
			r = handlerResult{err: &panicError{value: v}, stack: debug.Stack()}
		}
	}()
	out, err := fn.Handle(ctx, in)
	return handlerResult{out: out, err: err}
}

func hookLabel(h *registeredHook) string {
	if h.name != "" {
		return h.name
	}
	return fmt.Sprintf("#%d", h.index)
}

// errSummary is the error text without a panic's stack.
func errSummary(err error) string {
	var he *shared.HookError
	if errors.As(err, &he) {
		name := he.Name
		if name == "" {
			name = fmt.Sprintf("#%d", he.Index)
		}
		return fmt.Sprintf("%s hook %s: %v", he.Event, name, he.Err)
	}
	return err.Error()
}

type panicError struct{ value any }

func (p *panicError) Error() string { return fmt.Sprintf("%v: %v", shared.ErrHookPanic, p.value) }
func (p *panicError) Unwrap() error { return shared.ErrHookPanic }
