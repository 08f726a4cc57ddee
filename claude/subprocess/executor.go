package subprocess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// DefaultHookTimeout bounds one handler run when neither the HookConfig nor the session sets one.
const DefaultHookTimeout = 5 * time.Second

// Errors a hook run can end with; a *HookError wraps one of them or the handler's own error.
var (
	// ErrHookTimeout: the handler did not return before its timeout.
	ErrHookTimeout = errors.New("hook timed out")
	// ErrHookPanic: the handler panicked.
	ErrHookPanic = errors.New("hook panicked")
	// ErrHookCancelled: the CLI cancelled the request, or the session closed.
	ErrHookCancelled = errors.New("hook cancelled")
	// ErrInvalidOutput: the handler returned an output that does not fit its event.
	ErrInvalidOutput = errors.New("invalid hook output")
)

// HookError says one handler failed. errors.Is works with ErrHookTimeout, ErrHookPanic,
// ErrHookCancelled, ErrInvalidOutput, or the handler's own error.
type HookError struct {
	Event shared.HookEvent
	Index int    // the handler's index in the event's list
	Name  string // HookConfig.Name, if set
	Err   error
	// Stack is the goroutine stack of a panic.
	Stack []byte
}

// Error describes the failure.
func (e *HookError) Error() string {
	n := e.Name
	if n == "" {
		n = fmt.Sprintf("#%d", e.Index)
	}
	return fmt.Sprintf("subprocess: %s hook %s: %v", e.Event, n, e.Err)
}

// Unwrap returns the cause.
func (e *HookError) Unwrap() error { return e.Err }

// Outcome says how one handler run ended. It is shared.HookOutcome.
type Outcome = shared.HookOutcome

// The outcomes of a handler run.
const (
	OutcomeSuccess   = shared.HookOutcomeSuccess
	OutcomeError     = shared.HookOutcomeError
	OutcomePanic     = shared.HookOutcomePanic
	OutcomeTimeout   = shared.HookOutcomeTimeout
	OutcomeCancelled = shared.HookOutcomeCancelled
)

// HookRun reports one handler run to the executor's observer.
type HookRun struct {
	// ID numbers the executor's handler runs from 1; the background phase of an async answer
	// (Async true) has the ID of the run that gave it.
	ID        uint64
	Event     shared.HookEvent
	Index     int // the handler's index in its event's list (of its scope, for a scoped hook)
	Name      string
	Scope     string // the scope of a scoped hook (RegisterScoped), "" for the base hooks
	ToolName  string
	ToolUseID string
	RequestID string
	// Async marks the background phase of a handler that answered with shared.Async.
	Async   bool
	Started time.Time
	// Duration and Outcome are zero in the "started" report.
	Duration time.Duration
	Outcome  Outcome
	Err      error
}

// ExecutorOptions configure a HookExecutor.
type ExecutorOptions struct {
	// DefaultTimeout applies to configs without a Timeout. Zero means DefaultHookTimeout.
	DefaultTimeout time.Duration
	// Logger receives failures. Nil means slog.Default(). Tool inputs are never logged.
	Logger *slog.Logger
	// Observe, if set, is called when a handler starts (Outcome "") and when it ends. It runs on the
	// chain's goroutine, or, for a timeout or a cancel, on the timer goroutine that ends the chain;
	// the reports of one chain never overlap. It must be fast. The background phase of an async
	// answer is reported from its own goroutine (Async true).
	Observe func(HookRun)
	// Progress, if set, gets the progress lines of handler runs (shared.ReportHookProgress, and the
	// output lines of a CommandHook) as they come, between the run's two Observe reports; lines
	// after the run ended are dropped. Each handler's ctx then carries a reporter (one allocation
	// per run; none without Progress). It must be fast.
	Progress func(run HookRun, stream, line string)
}

// HookExecutor runs the Go handlers registered for each event as an ordered chain. Its base hooks
// are fixed at construction; scoped hooks (RegisterScoped) come and go, published as an immutable
// snapshot that each chain loads once. It is safe for concurrent use: several hook requests run at
// once.
type HookExecutor struct {
	byEvent map[shared.HookEvent][]*registeredHook
	// byName indexes the events whose handlers mostly have exact-name matchers (see nameIndex).
	byName map[shared.HookEvent]*nameIndex
	opts   ExecutorOptions
	logger *slog.Logger

	// scoped is the current set of scoped hooks; nil while there has never been one, so that a
	// chain without scopes costs one atomic load. smu serialises the writers.
	scoped atomic.Pointer[scopeSet]
	smu    sync.Mutex
	// runs numbers the handler runs (HookRun.ID).
	runs atomic.Uint64
	// async tracks the background phases of async answers (see async.go).
	async asyncRuns
	// chains counts the chains in progress; idle holds what WhenIdle waits to run (scoped.go).
	chains atomic.Int64
	idle   idleQueue
}

type registeredHook struct {
	index   int
	name    string
	matcher *shared.Matcher
	exact   bool // the matcher is an exact-name list
	handler shared.HookHandler
	timeout time.Duration
	// scope and agentID are set for scoped hooks: the scope's id, and the agent the scope is bound
	// to ("" for any).
	scope   string
	agentID string
}

// nameIndex finds an event's candidate handlers for a match value without testing every matcher:
// for a value named in some exact list, the handlers whose list names it plus every handler
// without an exact list; for any other value, only the latter. Both keep registration order.
// Only the matchers of handlers without an exact list are tested at run time.
type nameIndex struct {
	named map[string][]*registeredHook
	rest  []*registeredHook
}

// maxIndexFactor bounds a nameIndex to this many entries per handler: with many names and many
// handlers without an exact list, the index would grow quadratically; the executor then tests
// every matcher instead.
const maxIndexFactor = 8

func buildNameIndex(hooks []*registeredHook) *nameIndex {
	ix := &nameIndex{named: map[string][]*registeredHook{}}
	var names []string
	for _, h := range hooks {
		if !h.exact {
			ix.rest = append(ix.rest, h)
			continue
		}
		ns, _ := h.matcher.Names()
		for _, n := range ns {
			if _, seen := ix.named[n]; !seen {
				ix.named[n] = nil
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 || len(names)*(len(ix.rest)+1) > maxIndexFactor*len(hooks) {
		return nil
	}
	for _, h := range hooks { // in registration order, so every list keeps it
		if !h.exact {
			for _, n := range names {
				ix.named[n] = append(ix.named[n], h)
			}
			continue
		}
		ns, _ := h.matcher.Names()
		for i, n := range ns {
			if !slices.Contains(ns[:i], n) { // "Edit|Edit" lists the hook once
				ix.named[n] = append(ix.named[n], h)
			}
		}
	}
	return ix
}

// NewHookExecutor validates hooks (see shared.Hooks.Validate), compiles every matcher once, and
// returns an executor.
func NewHookExecutor(hooks shared.Hooks, opts ExecutorOptions) (*HookExecutor, error) {
	if err := hooks.Validate(); err != nil {
		return nil, err
	}
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultHookTimeout
	}
	x := &HookExecutor{byEvent: map[shared.HookEvent][]*registeredHook{}, byName: map[shared.HookEvent]*nameIndex{}, opts: opts, logger: opts.Logger}
	if x.logger == nil {
		x.logger = slog.Default()
	}
	x.async.init()
	for e, cfgs := range hooks {
		for i, c := range cfgs {
			m, _ := shared.CompileMatcher(c.Matcher) // validated above
			t := c.Timeout
			if t == 0 {
				t = opts.DefaultTimeout
			}
			_, exact := m.Names()
			x.byEvent[e] = append(x.byEvent[e], &registeredHook{index: i, name: c.Name, matcher: m, exact: exact, handler: c.Handler, timeout: t})
		}
		if e.UsesMatcher() {
			if ix := buildNameIndex(x.byEvent[e]); ix != nil {
				x.byName[e] = ix
			}
		}
	}
	return x, nil
}

// candidates returns the handlers of e that may match mv, in registration order, and whether
// every exact-list handler among them is already known to match.
func (x *HookExecutor) candidates(e shared.HookEvent, mv string) (hooks []*registeredHook, exactMatched bool) {
	if ix := x.byName[e]; ix != nil {
		if l, ok := ix.named[mv]; ok {
			return l, true
		}
		return ix.rest, true
	}
	return x.byEvent[e], false
}

// matchesValue reports whether h matches mv, given what candidates said.
func (h *registeredHook) matchesValue(mv string, exactMatched bool) bool {
	if h.exact && exactMatched {
		return true
	}
	return h.matcher.Match(mv)
}

// Events returns the events the CLI must send: those with at least one handler, base or scoped,
// and SubagentStop while a scope is bound to an agent (it ends the scope).
func (x *HookExecutor) Events() []shared.HookEvent {
	snap := x.scoped.Load()
	var out []shared.HookEvent
	for _, e := range shared.AllHookEvents() {
		if len(x.byEvent[e]) > 0 || snap.wants(e) {
			out = append(out, e)
		}
	}
	return out
}

// Has reports whether the SDK handles event e: it has a handler, or a scope has (or had) one, so
// that a request for it is answered by a chain (possibly empty: {}) rather than refused.
func (x *HookExecutor) Has(e shared.HookEvent) bool {
	if x == nil {
		return false
	}
	if len(x.byEvent[e]) > 0 {
		return true
	}
	return x.scoped.Load().handles(e)
}

// ChainTimeout returns the longest time a chain for e can take: the sum of its handlers' timeouts,
// scoped ones included.
func (x *HookExecutor) ChainTimeout(e shared.HookEvent) time.Duration {
	var d time.Duration
	for _, h := range x.byEvent[e] {
		d += h.timeout
	}
	if snap := x.scoped.Load(); snap != nil {
		for _, h := range snap.byEvent[e] {
			d += h.timeout
		}
	}
	return d
}

// CLIMatcher returns a matcher string for the CLI that matches a superset of what e's handlers
// (base and scoped) match: the union of exact-name lists when every handler has one, else ""
// (everything). The SDK filters again with its own matchers, so the CLI's different regex
// semantics never matter.
func (x *HookExecutor) CLIMatcher(e shared.HookEvent) string {
	if !e.UsesMatcher() {
		return ""
	}
	hooks := x.byEvent[e]
	if snap := x.scoped.Load(); snap != nil {
		if e == shared.HookEventSubagentStop && snap.agents > 0 {
			return "" // every SubagentStop: it ends the scopes of its agent, whatever its type
		}
		hooks = append(append([]*registeredHook(nil), hooks...), snap.byEvent[e]...)
	}
	var names []string
	seen := map[string]bool{}
	for _, h := range hooks {
		ns, ok := h.matcher.Names()
		if !ok {
			return ""
		}
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		// Every handler has an empty list: nothing can match. "|" is the CLI's empty list.
		return "|"
	}
	return strings.Join(names, "|")
}

// ChainResult is the outcome of one chain run.
type ChainResult struct {
	// Output is the merged answer to send; nil means "no opinion" ({}).
	Output shared.HookOutput
	// Ran counts the handlers that matched and ran.
	Ran int
	// Err is the first handler failure, if any (for events that guard an action, Output is then the
	// event's denial).
	Err error
	// Cancelled is true when ctx was cancelled (the CLI cancelled the request or the session
	// closed): no answer must be sent.
	Cancelled bool
}

// Run runs the handlers of in's event whose matcher matches, in registration order, and merges
// their answers:
//   - a deny (permission deny, block decision, PermissionRequest deny), a defer, or continue:false
//     ends the chain; that answer is what the CLI gets;
//   - an updatedInput is what the next handler sees in ToolInput, and the last one is sent;
//   - additionalContext and systemMessage are joined; ask outranks allow;
//   - a failure (error, panic, timeout, invalid output) of an event that guards an action ends the
//     chain with the event's denial (fail closed). For other events an error or panic is reported
//     and the chain goes on; a timeout ends the chain (the handler may still be running).
//
// in is modified (its ToolInput) as the chain rewrites it. ctx bounds the whole chain. The
// handlers run on a goroutine of their own; Run returns when the chain ends, at the latest when a
// handler overruns its timeout or ctx is done (see Dispatch).
func (x *HookExecutor) Run(ctx context.Context, in shared.HookInput, requestID string) ChainResult {
	if !x.matches(in) {
		return ChainResult{}
	}
	c := x.newChain(ctx, in, requestID, nil)
	c.result = make(chan ChainResult, 1)
	go c.run() // the chain's goroutine: it ends when the last handler it started returns
	return <-c.result
}

// Dispatch runs the chain like Run, but on the calling goroutine, and hands the result to done,
// which is called exactly once: when the chain ends, or at the moment a handler overruns its
// timeout or ctx is done. In those two cases done runs on a goroutine of its own while the calling
// goroutine is still in the handler; Dispatch returns when the handler does, and the rest of the
// chain is dropped. done may block. A caller that already runs each request on a goroutine of its
// own saves a goroutine switch per handler.
func (x *HookExecutor) Dispatch(ctx context.Context, in shared.HookInput, requestID string, done func(ChainResult)) {
	x.newChain(ctx, in, requestID, done).run()
}

// chainReceiver receives a chain's result (dispatchInto): Dispatch's done, as a method of a
// value the caller has anyway, so that no closure is allocated per request.
type chainReceiver interface {
	chainDone(ChainResult)
}

// dispatchInto is Dispatch with the chain in c, storage the caller allocated with its request
// (the transport's hookRequest), and the result handed to done.chainDone.
func (x *HookExecutor) dispatchInto(c *chainRun, ctx context.Context, in shared.HookInput, requestID string, done chainReceiver) {
	x.initChain(c, ctx, in, requestID, nil)
	c.doneTo = done
	c.run()
}

// matches reports whether a handler of in's event (base or scoped) matches in.
func (x *HookExecutor) matches(in shared.HookInput) bool {
	e := in.Base().HookEventName
	snap := x.scoped.Load()
	if snap.matches(in) {
		return true
	}
	if !e.UsesMatcher() {
		return len(x.byEvent[e]) > 0
	}
	mv := in.MatchValue()
	hooks, exactMatched := x.candidates(e, mv)
	for _, h := range hooks {
		if h.matchesValue(mv, exactMatched) {
			return true
		}
	}
	return false
}

// chainRun is one run of an event's handlers. The runner (the goroutine in run) calls the
// handlers one after another; the watchdog of the handler in progress (a timer at its timeout)
// and the ctx watch (when ctx ends) may end the chain first. mu decides who ends it; the result is
// delivered once.
type chainRun struct {
	x     *HookExecutor
	ctx   context.Context
	event shared.HookEvent
	in    shared.HookInput
	id    string
	// snap is the scoped hooks as the chain started (nil: none).
	snap *scopeSet
	// The result goes to done, or doneTo, or, when both are nil, to result.
	done   func(ChainResult)
	doneTo chainReceiver
	result chan ChainResult
	// stopWatch stops the ctx watch, if there is one. Written before the first handler starts;
	// the watch only reads it (in finishLocked) after taking mu while a handler runs.
	stopWatch func() bool
	// watcher is the ctx, when it watches the chain itself (chainWatcher) instead of stopWatch.
	watcher chainWatcher

	mu      sync.Mutex
	over    bool // the result was delivered: the runner must drop what it has
	gen     int  // the run number of the handler in progress; stale watchdogs do nothing
	running bool // a handler is in progress: cur and curRun describe it
	cur     *registeredHook
	curRun  HookRun
	curProg *progressReporter // the progress reporter of the handler in progress, with Progress
	curCtx  *hookCtx          // the ctx of the handler in progress
	hc0     hookCtx           // the first handler's ctx, allocated with the chain
	denied  bool              // res.Output is the event's fail-closed denial
	res     ChainResult
	m       merger
}

func (x *HookExecutor) newChain(ctx context.Context, in shared.HookInput, id string, done func(ChainResult)) *chainRun {
	c := new(chainRun)
	x.initChain(c, ctx, in, id, done)
	return c
}

// initChain sets up c, a zero chainRun, for a run.
func (x *HookExecutor) initChain(c *chainRun, ctx context.Context, in shared.HookInput, id string, done func(ChainResult)) {
	e := in.Base().HookEventName
	c.x, c.ctx, c.event, c.in, c.id, c.done, c.snap = x, ctx, e, in, id, done, x.scoped.Load()
	c.m.event = e
	x.chains.Add(1)
}

// chainKey is the context key under which a handler's ctx finds its chain (see InChain).
type chainKey struct{}

// A chainRun is the parent context of its handlers' contexts: it is its ctx, plus its own value
// under chainKey, without a context allocation of its own. (The context package still finds the
// cancelCtx below it, so no goroutine is added to propagate a cancel.)
func (c *chainRun) Deadline() (time.Time, bool) { return c.ctx.Deadline() }
func (c *chainRun) Done() <-chan struct{}       { return c.ctx.Done() }
func (c *chainRun) Err() error                  { return c.ctx.Err() }
func (c *chainRun) Value(key any) any {
	if key == (chainKey{}) {
		return c
	}
	return c.ctx.Value(key)
}

// InChain reports whether ctx is (derived from) the ctx of a handler that x is running: the caller
// runs inside one of x's hook chains.
func (x *HookExecutor) InChain(ctx context.Context) bool {
	c, _ := ctx.Value(chainKey{}).(*chainRun)
	return c != nil && c.x == x
}

func (c *chainRun) run() {
	if w, ok := c.ctx.(chainWatcher); ok {
		// The transport's flight: the same watch, without a context.AfterFunc.
		c.watcher = w
		w.watchChain(c)
	} else if c.ctx.Done() != nil {
		// The ctx watch: a cancel ends the chain at once, even if a handler ignores ctx. It is
		// stopped before the result is delivered (whose receiver may well cancel ctx then).
		c.stopWatch = context.AfterFunc(c.ctx, c.ctxDone)
	}
	mv := c.in.MatchValue()
	useMatcher := c.event.UsesMatcher()
	hooks, exactMatched := c.x.byEvent[c.event], false
	if useMatcher {
		hooks, exactMatched = c.x.candidates(c.event, mv)
	}
	for _, h := range hooks {
		if useMatcher && !h.matchesValue(mv, exactMatched) {
			continue
		}
		if !c.step(h) {
			return
		}
	}
	if c.snap != nil {
		// The scoped hooks, after the base ones, in the order their scopes were registered.
		agent := c.in.Base().AgentID
		for _, h := range c.snap.byEvent[c.event] {
			if (h.agentID != "" && h.agentID != agent) || (useMatcher && !h.matcher.Match(mv)) {
				continue
			}
			if !c.step(h) {
				return
			}
		}
	}
	c.mu.Lock()
	c.finishLocked()
}

// step runs handler h and folds its answer in; it reports whether the chain goes on.
func (c *chainRun) step(h *registeredHook) bool {
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		return false
	}
	if c.ctx.Err() != nil {
		// Cancelled between two handlers: do not start the next one.
		c.failLocked(h, ErrHookCancelled)
		c.finishLocked()
		return false
	}
	out, err, ok := c.call(h) // releases c.mu
	if !ok {
		return false // the chain was ended while the handler ran; its result is dropped
	}
	if err == nil {
		out, err = c.asyncAnswer(h, out)
	}
	if err == nil {
		if werr := shared.CheckWireOutput(c.event, out); werr != nil {
			err = &HookError{Event: c.event, Index: h.index, Name: h.name, Err: fmt.Errorf("%w: %v", ErrInvalidOutput, werr)}
		}
	}
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		return false
	}
	var stop bool
	if err != nil {
		stop = c.failLocked(h, err)
	} else {
		stop = c.m.add(out, c.in)
	}
	if stop {
		c.finishLocked()
		return false
	}
	c.mu.Unlock()
	return true
}

// call runs handler h on the calling goroutine with its timeout, recovering a panic. It is called
// with c.mu held and releases it. ok is false when the chain was ended while h ran (by its
// watchdog or a cancel): the result must then be dropped.
func (c *chainRun) call(h *registeredHook) (out shared.HookOutput, err error, ok bool) {
	e := c.event
	run := HookRun{ID: c.x.runs.Add(1), Event: e, Index: h.index, Name: h.name, Scope: h.scope, RequestID: c.id, Started: time.Now()}
	if tc := shared.ToolCall(c.in); tc != nil {
		run.ToolName, run.ToolUseID = tc.ToolName, tc.ToolUseID
	}
	c.res.Ran++
	c.gen++
	gen := c.gen
	c.running, c.cur, c.curRun = true, h, run
	if c.x.opts.Observe != nil {
		c.x.opts.Observe(run) // under c.mu: a cancel's report cannot come first
	}
	// The handler's ctx, whose timer is also the watchdog: at the timeout, it ends the ctx and
	// answers for the handler if it is still running.
	hc := &c.hc0
	if gen > 1 {
		hc = new(hookCtx) // the first handler may still hold hc0
	}
	c.curCtx = hc
	var ctx context.Context = hc
	if c.x.opts.Progress != nil {
		c.curProg = &progressReporter{run: run, fn: c.x.opts.Progress}
		ctx = shared.WithHookProgress(ctx, c.curProg.report)
	}
	hc.start(c, gen, h.timeout)
	c.mu.Unlock()
	out, err, stack := callHandler(ctx, h.handler, c.in)
	// Whether the handler overran its time, decided before its ctx ends for good.
	timedOut := hc.Err() != nil
	hc.stop()
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		return nil, nil, false
	}
	c.running = false
	c.mu.Unlock()
	// Decide by the contexts: a handler that honours ctx returns as ctx ends, with ctx.Err() or
	// with an answer; either way it overran its timeout, and an answer given then must not count
	// (an allow after the deadline would fail open).
	switch {
	case c.ctx.Err() != nil:
		// The request was cancelled or the session closed: whatever the handler said is moot.
		out, err, stack = nil, ErrHookCancelled, nil
	case timedOut && stack == nil:
		out, err = nil, fmt.Errorf("%w after %v", ErrHookTimeout, h.timeout)
	}
	if err != nil {
		err = &HookError{Event: e, Index: h.index, Name: h.name, Err: err, Stack: stack}
		if stack != nil {
			c.x.logger.Error("hook panicked", "event", string(e), "hook", hookLabel(h), "panic", fmt.Sprint(err), "stack", string(stack))
		}
	}
	c.observeEnd(run, err)
	return out, err, true
}

// overrun is the watchdog of handler run gen: it reached its timeout.
func (c *chainRun) overrun(gen int) {
	c.mu.Lock()
	if c.over || !c.running || c.gen != gen {
		c.mu.Unlock() // the runner took the handler's result first
		return
	}
	var err error = ErrHookCancelled
	if c.ctx.Err() == nil {
		err = fmt.Errorf("%w after %v", ErrHookTimeout, c.cur.timeout)
	}
	c.abandonLocked(err)
}

// ctxDone is the ctx watch: the request was cancelled or the session closed.
func (c *chainRun) ctxDone() {
	c.mu.Lock()
	if c.over || !c.running {
		c.mu.Unlock() // between handlers the runner sees the cancel itself
		return
	}
	c.curCtx.cancel(c.ctx.Err(), context.Cause(c.ctx))
	c.abandonLocked(ErrHookCancelled)
}

// abandonLocked ends the chain for the handler in progress, which failed with err (a timeout or
// a cancel); c.mu is held and released. The handler goes on running; its result is dropped.
func (c *chainRun) abandonLocked(err error) {
	h := c.cur
	c.running = false
	err = &HookError{Event: c.event, Index: h.index, Name: h.name, Err: err}
	c.observeEnd(c.curRun, err)
	c.failLocked(h, err)
	c.finishLocked()
}

// failLocked records a failed handler run; it reports whether the chain ends. c.mu is held.
func (c *chainRun) failLocked(h *registeredHook, err error) (stop bool) {
	var he *HookError
	if !errors.As(err, &he) {
		err = &HookError{Event: c.event, Index: h.index, Name: h.name, Err: err}
	}
	if errors.Is(err, ErrHookCancelled) && c.ctx.Err() != nil {
		c.res.Cancelled, c.res.Err = true, err
		return true
	}
	if c.res.Err == nil {
		c.res.Err = err
	}
	c.x.logger.Warn("hook failed", "event", string(c.event), "hook", hookLabel(h), "error", errSummary(err))
	if c.event.GuardsAction() {
		c.res.Output = shared.DenyOutput(c.event, "hook failed, denied by the SDK (fail-closed): "+errSummary(err))
		c.denied = true
		return true
	}
	return errors.Is(err, ErrHookTimeout)
}

// finishLocked ends the chain: it sets the output, releases c.mu and delivers the result, once.
func (c *chainRun) finishLocked() {
	if c.over {
		c.mu.Unlock()
		return
	}
	c.over = true
	res := c.res
	switch {
	case res.Cancelled:
		res.Output = nil
	case !c.denied:
		res.Output = c.m.result()
	}
	c.mu.Unlock()
	if c.stopWatch != nil {
		c.stopWatch()
	} else if c.watcher != nil {
		c.watcher.unwatchChain(c)
	}
	if c.event == shared.HookEventSubagentStop && c.snap != nil && c.snap.agents > 0 {
		// The agent's scopes end with it, before the CLI hears the answer.
		c.x.endAgent(c.in.Base().AgentID, res.Output)
	}
	if c.done != nil {
		c.done(res)
	} else if c.doneTo != nil {
		c.doneTo.chainDone(res)
	} else {
		c.result <- res
	}
	c.x.chainEnded()
}

func (c *chainRun) observeEnd(run HookRun, err error) {
	if c.curProg != nil {
		c.curProg.end() // no progress line after the end report
	}
	c.x.observeEnd(run, err)
}

// observeEnd reports the end of run to Observe, its outcome classified from err.
func (x *HookExecutor) observeEnd(run HookRun, err error) {
	if x.opts.Observe == nil {
		return
	}
	run.Duration = time.Since(run.Started)
	run.Outcome = OutcomeSuccess
	switch {
	case err == nil:
	case errors.Is(err, ErrHookPanic):
		run.Outcome = OutcomePanic
	case errors.Is(err, ErrHookTimeout):
		run.Outcome = OutcomeTimeout
	case errors.Is(err, ErrHookCancelled):
		run.Outcome = OutcomeCancelled
	default:
		run.Outcome = OutcomeError
	}
	run.Err = err
	x.opts.Observe(run)
}

// callHandler calls fn, turning a panic into a *panicError with the stack.
func callHandler(ctx context.Context, fn shared.HookHandler, in shared.HookInput) (out shared.HookOutput, err error, stack []byte) {
	defer func() {
		if r := recover(); r != nil {
			out, err, stack = nil, &panicError{value: r}, debug.Stack()
		}
	}()
	out, err = fn(ctx, in)
	return out, err, nil
}

func hookLabel(h *registeredHook) string {
	if h.name != "" {
		return h.name
	}
	return fmt.Sprintf("#%d", h.index)
}

// errSummary is the error text without a panic's stack.
func errSummary(err error) string {
	var he *HookError
	if errors.As(err, &he) {
		return fmt.Sprintf("%s hook %s: %v", he.Event, func() string {
			if he.Name != "" {
				return he.Name
			}
			return fmt.Sprintf("#%d", he.Index)
		}(), he.Err)
	}
	return err.Error()
}

type panicError struct{ value any }

func (p *panicError) Error() string { return fmt.Sprintf("%v: %v", ErrHookPanic, p.value) }
func (p *panicError) Unwrap() error { return ErrHookPanic }
