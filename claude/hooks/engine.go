package hooks

import (
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// DefaultTimeout bounds one handler run when neither the HookConfig nor the session sets one.
const DefaultTimeout = 5 * time.Second

// HandlerRun reports one handler run to the executor's observer.
type HandlerRun struct {
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
	// Decision and Reason are the verdict of Output as the engine read it (Normalize; the
	// event's own field for PreToolUse, PermissionRequest and PreModelSwitch), in the end report
	// of a run that succeeded; for a run that failed on an event that guards an action, the
	// engine's denial. Observers read them rather than the handler's answer: the engine reads each
	// answer once.
	Decision shared.Decision
	Reason   string
}

// failClosedReason is the Reason of a failed run on an event that guards an action.
const failClosedReason = "hook failed, denied by the SDK (fail-closed)"

// verdictOf returns the decision of s, an answer in Normalize's form, and its reason.
func verdictOf(s *shared.SyncHookOutput) (shared.Decision, string) {
	if s == nil {
		return "", ""
	}
	switch sp := s.HookSpecificOutput.(type) {
	case *shared.PreToolUseOutput:
		return sp.PermissionDecision, sp.PermissionDecisionReason
	case *shared.PermissionRequestOutput:
		if sp.Decision != nil {
			return shared.Decision(sp.Decision.Behavior), sp.Decision.Message
		}
	case *shared.ModelSwitchOutput:
		return sp.PermissionDecision, sp.PermissionDecisionReason
	}
	return s.Decision, s.Reason
}

// Options configure a Engine.
type Options struct {
	// DefaultTimeout applies to configs without a Timeout. Zero means DefaultTimeout.
	DefaultTimeout time.Duration
	// Logger receives failures. Nil means slog.Default(). Tool inputs are never logged.
	Logger *slog.Logger
	// Observe, if set, is called when a handler starts (Outcome "") and when it ends, on the
	// goroutine running the chain (or, for a handler that outlived its deadline or ctx, on the
	// goroutine that answers for it, after which the chain reports nothing more), so the reports
	// of one chain never overlap. It must be fast. The
	// background phase of an async answer is reported from its own goroutine (Async true).
	Observe func(HandlerRun)
	// Progress, if set, gets the progress lines of handler runs (shared.ReportHookProgress, and the
	// output lines of a CommandHook) as they come, between the run's two Observe reports; lines
	// after the run ended are dropped. It must be fast.
	Progress func(run HandlerRun, stream, line string)
	// StrictToolNames makes a tool event's matcher that names a tool the CLI does not have (see
	// shared.UnknownToolNames) a registration error (wrapping shared.ErrUnknownTool), from
	// New and RegisterScoped. False (the default) logs a warning instead.
	StrictToolNames bool
	// CheckPermission, if set, checks each PermissionRequest handler's decision: an error fails
	// that handler as an output that does not fit its event does (the chain denies, fail-closed,
	// and the run reports the error). v2 refuses there a permission update that would switch one
	// of the session's guards off (a setMode to a mode the CLI does not ask in). Nil: none.
	CheckPermission func(*shared.PermissionResult) error
}

// Engine runs the Go handlers registered for each event as an ordered chain. Its base hooks
// are fixed at construction; scoped hooks (RegisterScoped) come and go, published as an immutable
// snapshot that each chain loads once. It is safe for concurrent use: several hook requests run at
// once, each on the goroutine of Serve's caller, or Run's own.
type Engine struct {
	byEvent map[shared.HookEvent][]*registeredHook
	opts    Options
	logger  *slog.Logger

	// scoped is the current set of scoped hooks (nil: there has never been one); smu serialises
	// the writers. A chain loads it once and keeps it to its end.
	scoped atomic.Pointer[scopeSet]
	smu    sync.Mutex
	// runs numbers the handler runs (HandlerRun.ID).
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
func (x *Engine) compileHooks(hooks shared.Hooks, scope, agentID string) (map[shared.HookEvent][]*registeredHook, error) {
	if err := hooks.Validate(); err != nil {
		return nil, err
	}
	if x.opts.StrictToolNames {
		if err := shared.CheckToolNames(hooks); err != nil {
			return nil, err
		}
	} else if bad := shared.UnknownToolNames(hooks); len(bad) > 0 {
		x.logger.Warn("hooks: a hook matcher names a tool the CLI does not have; the hook will not fire for it",
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

// New validates hooks (see shared.Hooks.Validate, and Options.StrictToolNames),
// compiles every matcher once, and returns an executor.
func New(hooks shared.Hooks, opts Options) (*Engine, error) {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	x := &Engine{opts: opts, logger: opts.Logger}
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
func (x *Engine) Events() []shared.HookEvent {
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
func (x *Engine) Has(e shared.HookEvent) bool {
	if x == nil {
		return false
	}
	return len(x.byEvent[e]) > 0 || x.scoped.Load().handles(e)
}

// hooksOf returns e's handlers, base then scoped (snap may be nil), in chain order.
func (x *Engine) hooksOf(e shared.HookEvent, snap *scopeSet) []*registeredHook {
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
func (x *Engine) ChainTimeout(e shared.HookEvent) time.Duration {
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
func (x *Engine) CLIMatcher(e shared.HookEvent) string {
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

// PermissionHook reports whether the CLI sends a PermissionRequest hook request along with a
// can_use_tool request for tool (the CLI matcher of the PermissionRequest handlers matches it),
// and how long an allowed prompt waits for that hook's decision: its chain's timeout, plus a
// second for its request to arrive.
func (x *Engine) PermissionHook(tool string) (expected bool, wait time.Duration) {
	const e = shared.HookEventPermissionRequest
	if !x.Has(e) {
		return false, 0
	}
	m, err := shared.CompileMatcher(x.CLIMatcher(e))
	if err == nil && !m.Match(tool) { // an invalid matcher cannot be: wait rather than not
		return false, 0
	}
	return true, x.ChainTimeout(e) + time.Second
}
