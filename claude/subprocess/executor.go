package subprocess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
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

func (e *HookError) Error() string {
	n := e.Name
	if n == "" {
		n = fmt.Sprintf("#%d", e.Index)
	}
	return fmt.Sprintf("subprocess: %s hook %s: %v", e.Event, n, e.Err)
}

// Unwrap returns the cause.
func (e *HookError) Unwrap() error { return e.Err }

// Outcome says how one handler run ended.
type Outcome string

// The outcomes of a handler run.
const (
	OutcomeSuccess   Outcome = "success"
	OutcomeError     Outcome = "error"
	OutcomePanic     Outcome = "panic"
	OutcomeTimeout   Outcome = "timeout"
	OutcomeCancelled Outcome = "cancelled"
)

// HookRun reports one handler run to the executor's observer.
type HookRun struct {
	Event     shared.HookEvent
	Index     int
	Name      string
	ToolName  string
	RequestID string
	Started   time.Time
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
	// hook's goroutine and must be fast.
	Observe func(HookRun)
}

// HookExecutor runs the Go handlers registered for each event as an ordered chain. It is immutable
// after construction and safe for concurrent use: several hook requests run at once.
type HookExecutor struct {
	byEvent map[shared.HookEvent][]*registeredHook
	opts    ExecutorOptions
	logger  *slog.Logger
}

type registeredHook struct {
	index   int
	name    string
	matcher *shared.Matcher
	handler shared.HookHandler
	timeout time.Duration
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
	x := &HookExecutor{byEvent: map[shared.HookEvent][]*registeredHook{}, opts: opts, logger: opts.Logger}
	if x.logger == nil {
		x.logger = slog.Default()
	}
	for e, cfgs := range hooks {
		for i, c := range cfgs {
			m, _ := shared.CompileMatcher(c.Matcher) // validated above
			t := c.Timeout
			if t == 0 {
				t = opts.DefaultTimeout
			}
			x.byEvent[e] = append(x.byEvent[e], &registeredHook{index: i, name: c.Name, matcher: m, handler: c.Handler, timeout: t})
		}
	}
	return x, nil
}

// Events returns the events that have at least one handler.
func (x *HookExecutor) Events() []shared.HookEvent {
	var out []shared.HookEvent
	for _, e := range shared.AllHookEvents() {
		if len(x.byEvent[e]) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Has reports whether event e has a handler.
func (x *HookExecutor) Has(e shared.HookEvent) bool { return x != nil && len(x.byEvent[e]) > 0 }

// ChainTimeout returns the longest time a chain for e can take: the sum of its handlers' timeouts.
func (x *HookExecutor) ChainTimeout(e shared.HookEvent) time.Duration {
	var d time.Duration
	for _, h := range x.byEvent[e] {
		d += h.timeout
	}
	return d
}

// CLIMatcher returns a matcher string for the CLI that matches a superset of what e's handlers
// match: the union of exact-name lists when every handler has one, else "" (everything). The SDK
// filters again with its own matchers, so the CLI's different regex semantics never matter.
func (x *HookExecutor) CLIMatcher(e shared.HookEvent) string {
	if !e.UsesMatcher() {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, h := range x.byEvent[e] {
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
// in is modified (its ToolInput) as the chain rewrites it. ctx bounds the whole chain.
func (x *HookExecutor) Run(ctx context.Context, in shared.HookInput, requestID string) ChainResult {
	e := in.Base().HookEventName
	hooks := x.byEvent[e]
	m := newMerger(e)
	var res ChainResult
	mv := in.MatchValue()
	useMatcher := e.UsesMatcher()
	for _, h := range hooks {
		if useMatcher && !h.matcher.Match(mv) {
			continue
		}
		if ctx.Err() != nil {
			// Cancelled between two handlers: do not start the next one.
			res.Cancelled = true
			res.Err = &HookError{Event: e, Index: h.index, Name: h.name, Err: ErrHookCancelled}
			return res
		}
		res.Ran++
		out, err := x.runOne(ctx, e, h, in, requestID)
		if err == nil {
			if _, werr := shared.WireOutput(e, out); werr != nil {
				err = &HookError{Event: e, Index: h.index, Name: h.name, Err: fmt.Errorf("%w: %v", ErrInvalidOutput, werr)}
			}
		}
		if err != nil {
			if errors.Is(err, ErrHookCancelled) && ctx.Err() != nil {
				res.Cancelled = true
				res.Err = err
				return res
			}
			if res.Err == nil {
				res.Err = err
			}
			x.logger.Warn("hook failed", "event", string(e), "hook", hookLabel(h), "error", errSummary(err))
			if e.GuardsAction() {
				res.Output = shared.DenyOutput(e, "hook failed, denied by the SDK (fail-closed): "+errSummary(err))
				return res
			}
			if errors.Is(err, ErrHookTimeout) {
				break
			}
			continue
		}
		if stop := m.add(out, in); stop {
			break
		}
	}
	res.Output = m.result()
	return res
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

func (x *HookExecutor) runOne(parent context.Context, e shared.HookEvent, h *registeredHook, in shared.HookInput, requestID string) (shared.HookOutput, error) {
	run := HookRun{Event: e, Index: h.index, Name: h.name, RequestID: requestID, Started: time.Now()}
	if tc := shared.ToolCall(in); tc != nil {
		run.ToolName = tc.ToolName
	}
	if x.opts.Observe != nil {
		x.opts.Observe(run)
	}
	ctx, cancel := context.WithTimeout(parent, h.timeout)
	defer cancel()
	type result struct {
		out   shared.HookOutput
		err   error
		stack []byte
	}
	ch := make(chan result, 1)
	// The handler's goroutine: it ends when the handler returns. A handler that ignores ctx may
	// outlive the chain; its late result is dropped into the buffered channel.
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{err: &panicError{value: r}, stack: debug.Stack()}
			}
		}()
		out, err := h.handler(ctx, in)
		ch <- result{out: out, err: err}
	}()
	var r result
	returned := false
	select {
	case r = <-ch:
		returned = true
	case <-ctx.Done():
	}
	// Decide by the contexts, not by which select case won: a handler that honours ctx returns
	// ctx.Err() just as ctx ends, and either case may be chosen.
	switch {
	case parent.Err() != nil:
		// The request was cancelled or the session closed: whatever the handler said is moot.
		r = result{err: ErrHookCancelled}
	case ctx.Err() != nil && (!returned || (r.err != nil && r.stack == nil)):
		// The deadline passed: an error now (often ctx.Err() itself) is the timeout.
		r = result{err: fmt.Errorf("%w after %v", ErrHookTimeout, h.timeout)}
	}
	run.Duration = time.Since(run.Started)
	run.Outcome = OutcomeSuccess
	if r.err != nil {
		r.err = &HookError{Event: e, Index: h.index, Name: h.name, Err: r.err, Stack: r.stack}
		switch {
		case errors.Is(r.err, ErrHookPanic):
			run.Outcome = OutcomePanic
			x.logger.Error("hook panicked", "event", string(e), "hook", hookLabel(h), "panic", fmt.Sprint(r.err), "stack", string(r.stack))
		case errors.Is(r.err, ErrHookTimeout):
			run.Outcome = OutcomeTimeout
		case errors.Is(r.err, ErrHookCancelled):
			run.Outcome = OutcomeCancelled
		default:
			run.Outcome = OutcomeError
		}
		run.Err = r.err
	}
	if x.opts.Observe != nil {
		x.opts.Observe(run)
	}
	return r.out, r.err
}
