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
	"github.com/hookwire/agent-sdk-go/internal/wire"
)

// DefaultHookTimeout bounds one handler run when neither the HookConfig nor the session sets one.
const DefaultHookTimeout = 5 * time.Second

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
	Outcome  shared.HookOutcome
	Err      error
	// Output is the handler's answer, in the end report of a run that succeeded (nil otherwise).
	Output shared.HookOutput
}

// ExecutorOptions configure a HookExecutor.
type ExecutorOptions struct {
	// DefaultTimeout applies to configs without a Timeout. Zero means DefaultHookTimeout.
	DefaultTimeout time.Duration
	// Logger receives failures. Nil means slog.Default(). Tool inputs are never logged.
	Logger *slog.Logger
	// Observe, if set, is called when a handler starts (Outcome "") and when it ends, on the
	// goroutine that called Run, so the reports of one chain never overlap. It must be fast. The
	// background phase of an async answer is reported from its own goroutine (Async true).
	Observe func(HookRun)
	// Progress, if set, gets the progress lines of handler runs (shared.ReportHookProgress, and the
	// output lines of a CommandHook) as they come, between the run's two Observe reports; lines
	// after the run ended are dropped. It must be fast.
	Progress func(run HookRun, stream, line string)
	// StrictToolNames makes a tool event's matcher that names a tool the CLI does not have (see
	// shared.UnknownToolNames) a registration error (wrapping shared.ErrUnknownTool), from
	// NewHookExecutor and RegisterScoped. False (the default) logs a warning instead.
	StrictToolNames bool
}

// HookExecutor runs the Go handlers registered for each event as an ordered chain. Its base hooks
// are fixed at construction; scoped hooks (RegisterScoped) come and go, published as an immutable
// snapshot that each chain loads once. It is safe for concurrent use: several hook requests run at
// once, each on the goroutine that called Run.
type HookExecutor struct {
	byEvent map[shared.HookEvent][]*registeredHook
	opts    ExecutorOptions
	logger  *slog.Logger

	// scoped is the current set of scoped hooks (nil: there has never been one); smu serialises
	// the writers. A chain loads it once and keeps it to its end.
	scoped atomic.Pointer[scopeSet]
	smu    sync.Mutex
	// runs numbers the handler runs (HookRun.ID).
	runs atomic.Uint64
	// async tracks the background phases of async answers (see async.go).
	async asyncRuns
}

type registeredHook struct {
	index   int
	name    string
	matcher *shared.Matcher
	handler shared.HookHandler
	timeout time.Duration
	// scope and agentID are set for scoped hooks: the scope's id, and the agent the scope is bound
	// to ("" for any).
	scope   string
	agentID string
}

// compileHooks turns validated hooks into registered hooks, per event, in order. A tool event's
// matcher naming a tool the CLI does not have is logged, or, with StrictToolNames, an error.
func (x *HookExecutor) compileHooks(hooks shared.Hooks, scope, agentID string) (map[shared.HookEvent][]*registeredHook, error) {
	if err := hooks.Validate(); err != nil {
		return nil, err
	}
	if x.opts.StrictToolNames {
		if err := shared.CheckToolNames(hooks); err != nil {
			return nil, err
		}
	} else if bad := shared.UnknownToolNames(hooks); len(bad) > 0 {
		x.logger.Warn("subprocess: a hook matcher names a tool the CLI does not have; the hook will not fire for it",
			"names", bad, "scope", scope)
	}
	out := map[shared.HookEvent][]*registeredHook{}
	for e, cfgs := range hooks {
		for i, c := range cfgs {
			m, _ := shared.CompileMatcher(c.Matcher) // validated above
			t := c.Timeout
			if t == 0 {
				t = x.opts.DefaultTimeout
			}
			out[e] = append(out[e], &registeredHook{index: i, name: c.Name, matcher: m, handler: c.Handler,
				timeout: t, scope: scope, agentID: agentID})
		}
	}
	return out, nil
}

// NewHookExecutor validates hooks (see shared.Hooks.Validate, and ExecutorOptions.StrictToolNames),
// compiles every matcher once, and returns an executor.
func NewHookExecutor(hooks shared.Hooks, opts ExecutorOptions) (*HookExecutor, error) {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultHookTimeout
	}
	x := &HookExecutor{opts: opts, logger: opts.Logger}
	if x.logger == nil {
		x.logger = slog.Default()
	}
	byEvent, err := x.compileHooks(hooks, "", "")
	if err != nil {
		return nil, err
	}
	x.byEvent = byEvent
	x.async.init()
	return x, nil
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
	return len(x.byEvent[e]) > 0 || x.scoped.Load().handles(e)
}

// hooksOf returns e's handlers, base then scoped (snap may be nil), in chain order.
func (x *HookExecutor) hooksOf(e shared.HookEvent, snap *scopeSet) []*registeredHook {
	if snap == nil || len(snap.byEvent[e]) == 0 {
		return x.byEvent[e]
	}
	return append(slices.Clip(x.byEvent[e]), snap.byEvent[e]...)
}

// maxCLITimeout is the longest hook timeout the CLI honours: it arms a JavaScript timer
// (setTimeout) with min(timeout*1000, 2^31-1) ms, about 24.8 days.
const maxCLITimeout = (1<<31 - 1) * time.Millisecond

// ChainTimeout returns the longest time one request's chain for e can take: handlers run one
// after the other, so it is the largest sum of the timeouts of the handlers (base and scoped) that
// can match one request. Handlers whose matchers name finitely many tools (lists, finite regular
// expressions: Matcher.Names) count only for those names (and their aliases); the others count for
// every request. A scope bound to an agent is counted as if it were bound to none. The sum
// saturates at what the CLI can honour (maxCLITimeout, about 24.8 days).
//
// The caller registers this plus a margin with the CLI, which waits that long for an answer
// before it gives up (with onFailure "block", a denial). The SDK's own timeouts always answer
// first; the CLI's is a second line for an SDK that cannot answer. The rule is not a cap below the
// chain's worst case: the CLI would then answer for a chain still running. 1,000 handlers with
// disjoint name lists register one handler's timeout, not 1,000.
func (x *HookExecutor) ChainTimeout(e shared.HookEvent) time.Duration {
	hooks := x.hooksOf(e, x.scoped.Load())
	// The candidate values: every listed name, and "" standing for any other value.
	values := []string{""}
	for _, h := range hooks {
		if names, ok := h.matcher.Names(); ok && e.UsesMatcher() {
			values = append(values, names...)
		}
	}
	var worst time.Duration
	for i, v := range values {
		if slices.Contains(values[:i], v) {
			continue
		}
		var d time.Duration
		for _, h := range hooks {
			_, finite := h.matcher.Names()
			// i == 0 stands for a value no list names: only the handlers without a finite set.
			if e.UsesMatcher() && finite && (i == 0 || !h.matcher.Match(v)) {
				continue
			}
			if h.timeout >= maxCLITimeout-d {
				d = maxCLITimeout
			} else {
				d += h.timeout
			}
		}
		worst = max(worst, d)
	}
	return worst
}

// CLIMatcher returns a matcher string for the CLI that matches a superset of what e's handlers
// (base and scoped) match: the union of their names when every handler matches finitely many
// (Matcher.Names: a list, or a regular expression such as "^(Bash|Read)$") and every name is one
// the CLI reads as a list entry (letters, digits, '_', '-', inner spaces), else "" (everything).
// The CLI applies its tool aliases to the list itself ("Task" also fires for Agent). The SDK
// filters again with its own matchers, so the CLI's different regex semantics never matter.
func (x *HookExecutor) CLIMatcher(e shared.HookEvent) string {
	if !e.UsesMatcher() {
		return ""
	}
	snap := x.scoped.Load()
	if e == shared.HookEventSubagentStop && snap != nil && snap.agents > 0 {
		return "" // every SubagentStop: it ends the scopes of its agent, whatever its type
	}
	var names []string
	for _, h := range x.hooksOf(e, snap) {
		ns, ok := h.matcher.Names()
		if !ok {
			return ""
		}
		for _, n := range ns {
			if !cliListName(n) {
				return ""
			}
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		// Every handler matches nothing: "|" is the CLI's empty list.
		return "|"
	}
	return strings.Join(names, "|")
}

// cliListName reports whether the CLI reads n, in a matcher, as one entry of a list of exact names:
// its list syntax is /^[a-zA-Z0-9_|, -]+$/, split on '|' and ',', each entry trimmed.
func cliListName(n string) bool {
	if n == "" || strings.TrimSpace(n) != n {
		return false
	}
	for _, c := range []byte(n) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == ' '
		if !ok {
			return false
		}
	}
	return true
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

// chainKey is the context key under which a handler's ctx carries its executor (see InChain).
type chainKey struct{}

// InChain reports whether ctx is (derived from) the ctx of a handler that x is running: the caller
// runs inside one of x's hook chains.
func (x *HookExecutor) InChain(ctx context.Context) bool {
	cx, _ := ctx.Value(chainKey{}).(*HookExecutor)
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
// Run is synchronous: it returns when the chain ends. Each handler runs on a goroutine of its own
// under context.WithTimeout(ctx, its timeout); Run waits for it, for its deadline, or for ctx.
// A handler that ignores its ctx does not hold Run up: Run answers at the deadline (a timeout) or
// at the cancel, and the handler's goroutine is left to finish on its own, its result dropped (as
// net/http's TimeoutHandler does). Handlers must honour ctx, or they leak until they return.
//
// ctx bounds the whole chain: once it is done, Run returns ChainResult{Cancelled: true} (no answer
// must be sent), even if a handler already answered. in is modified (its ToolInput) as the chain
// rewrites it. requestID labels the runs (HookRun.RequestID).
func (x *HookExecutor) Run(ctx context.Context, in shared.HookInput, requestID string) ChainResult {
	e := in.Base().HookEventName
	snap := x.scoped.Load()
	res := x.runChain(ctx, e, in, requestID, snap)
	if e == shared.HookEventSubagentStop && snap != nil && snap.agents > 0 {
		// The agent's scopes end with it, before the CLI hears the answer.
		x.endAgent(in.Base().AgentID, res.Output)
	}
	return res
}

func (x *HookExecutor) runChain(ctx context.Context, e shared.HookEvent, in shared.HookInput, id string, snap *scopeSet) ChainResult {
	var res ChainResult
	m := newMerger(e)
	ctx = context.WithValue(ctx, chainKey{}, x)
	mv, agent := in.MatchValue(), in.Base().AgentID
	for _, h := range x.hooksOf(e, snap) {
		if (h.agentID != "" && h.agentID != agent) || (e.UsesMatcher() && !h.matcher.Match(mv)) {
			continue
		}
		if ctx.Err() != nil {
			// Cancelled between two handlers: the next one does not start.
			return ChainResult{Ran: res.Ran, Cancelled: true, Err: x.hookError(e, h, shared.ErrHookCancelled)}
		}
		res.Ran++
		out, err := x.call(ctx, e, h, in, id)
		if ctx.Err() != nil && errors.Is(err, shared.ErrHookCancelled) {
			return ChainResult{Ran: res.Ran, Cancelled: true, Err: err}
		}
		if err == nil {
			if m.add(out, in) {
				break
			}
			continue
		}
		if res.Err == nil {
			res.Err = err
		}
		x.logger.Warn("hook failed", "event", string(e), "hook", hookLabel(h), "error", errSummary(err))
		if e.GuardsAction() {
			res.Output = wire.Deny(e, "hook failed, denied by the SDK (fail-closed): "+errSummary(err))
			return res
		}
		if errors.Is(err, shared.ErrHookTimeout) {
			break // the handler may still be running: what follows it must not run beside it
		}
	}
	res.Output = m.result()
	return res
}

// handlerResult is what a handler's goroutine hands back.
type handlerResult struct {
	out   shared.HookOutput
	err   error
	stack []byte // set when the handler panicked (err is then a *panicError)
}

// call runs handler h with its timeout and reports the run to the observers. Its error is a
// *HookError: the handler's own error, ErrHookPanic (with the stack), ErrHookTimeout,
// ErrHookCancelled (ctx is done), ErrInvalidOutput, or ErrAsyncNotAllowed.
func (x *HookExecutor) call(ctx context.Context, e shared.HookEvent, h *registeredHook, in shared.HookInput, id string) (shared.HookOutput, error) {
	run := HookRun{ID: x.runs.Add(1), Event: e, Index: h.index, Name: h.name, Scope: h.scope, RequestID: id, Started: time.Now()}
	if tc := shared.ToolCall(in); tc != nil {
		run.ToolName, run.ToolUseID = tc.ToolName, tc.ToolUseID
	}
	if x.opts.Observe != nil {
		x.opts.Observe(run)
	}
	hctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	var prog *progressReporter
	if x.opts.Progress != nil {
		prog = &progressReporter{run: run, fn: x.opts.Progress}
		hctx = shared.WithHookProgress(hctx, prog.report)
	}
	done := make(chan handlerResult, 1) // buffered: a handler that returns after Run gave up on it does not block
	go func() {                         // the handler's goroutine: it ends when the handler returns
		done <- callHandler(hctx, h.handler, in)
	}()
	var r handlerResult
	select {
	case r = <-done:
	case <-hctx.Done():
		// The deadline, or ctx is done. The handler may go on; its result is dropped.
	}
	// Decide by the contexts: a handler that honours ctx returns as ctx ends, with ctx.Err() or
	// with an answer; either way an answer given then must not count (an allow after the
	// deadline would fail open).
	switch {
	case ctx.Err() != nil:
		r = handlerResult{err: shared.ErrHookCancelled}
	case hctx.Err() != nil && r.stack == nil:
		r = handlerResult{err: fmt.Errorf("%w after %v", shared.ErrHookTimeout, h.timeout)}
	}
	out, err := r.out, r.err
	var work *shared.AsyncWork
	if err == nil {
		out, work, err = asyncAnswer(e, out)
	}
	if err == nil {
		if werr := wire.Check(e, out); werr != nil {
			err = fmt.Errorf("%w: %v", shared.ErrInvalidOutput, werr)
		}
	}
	if err != nil {
		err = x.hookError(e, h, err)
		err.(*shared.HookError).Stack = r.stack
		if r.stack != nil {
			x.logger.Error("hook panicked", "event", string(e), "hook", hookLabel(h), "panic", fmt.Sprint(r.err), "stack", string(r.stack))
		}
		out = nil
	}
	if prog != nil {
		prog.end() // no progress line after the end report
	}
	run.Output = out
	x.observeEnd(run, err)
	if work != nil {
		x.startAsync(run, h, work) // reported after this run's end
	}
	return out, err
}

// hookError wraps err as a *HookError of h, unless it is one.
func (x *HookExecutor) hookError(e shared.HookEvent, h *registeredHook, err error) error {
	if he, ok := err.(*shared.HookError); ok {
		return he
	}
	return &shared.HookError{Event: e, Index: h.index, Name: h.name, Err: err}
}

// observeEnd reports the end of run to Observe, its outcome classified from err.
func (x *HookExecutor) observeEnd(run HookRun, err error) {
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
	out, err := fn(ctx, in)
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

func (p *panicError) Error() string { return fmt.Sprintf("%v: %v", shared.ErrHookPanic, p.value) }
func (p *panicError) Unwrap() error { return shared.ErrHookPanic }
