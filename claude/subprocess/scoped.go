package subprocess

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Errors of scoped-hook registration.
var (
	// ErrScopeExists: a scope with this id is registered already.
	ErrScopeExists = errors.New("subprocess: a scope with this id is registered already")
	// ErrEmptyScopeID: a scope needs an id.
	ErrEmptyScopeID = errors.New("subprocess: empty scope id")
)

// ScopeOptions configure one scope of hooks.
type ScopeOptions struct {
	// AgentID, if set, binds the scope to one subagent: its hooks fire only for inputs whose
	// agent_id is AgentID (the subagent's own tool calls, its SubagentStop, ...), and the scope
	// ends by itself at that agent's SubagentStop, unless a hook of that SubagentStop blocks (the
	// subagent then goes on).
	AgentID string
}

// scopeSet is an immutable snapshot of the scoped hooks. A new one replaces it at every change
// (copy on write), so that a chain reads one consistent set without a lock.
type scopeSet struct {
	scopes []*scope // in registration order
	// byEvent lists every scope's hooks of each event: scope by scope in registration order, each
	// scope's in its own order.
	byEvent map[shared.HookEvent][]*registeredHook
	// known holds every event a scope ever had (SubagentStop once a scope was bound to an agent):
	// the CLI may still send them after the scope ended, and they are answered by a chain ({})
	// rather than refused.
	known map[shared.HookEvent]bool
	// agents counts the scopes bound to an agent.
	agents int
}

type scope struct {
	id      string
	agentID string
	hooks   map[shared.HookEvent][]*registeredHook
}

// wants reports whether the CLI must send e for the scopes.
func (s *scopeSet) wants(e shared.HookEvent) bool {
	if s == nil {
		return false
	}
	return len(s.byEvent[e]) > 0 || (e == shared.HookEventSubagentStop && s.agents > 0)
}

// handles reports whether a request for e must run a chain for the scopes.
func (s *scopeSet) handles(e shared.HookEvent) bool {
	return s != nil && (s.wants(e) || s.known[e])
}

// matches reports whether a scoped hook matches in.
func (s *scopeSet) matches(in shared.HookInput) bool {
	if s == nil {
		return false
	}
	e := in.Base().HookEventName
	agent := in.Base().AgentID
	for _, h := range s.byEvent[e] {
		if (h.agentID == "" || h.agentID == agent) && (!e.UsesMatcher() || h.matcher.Match(in.MatchValue())) {
			return true
		}
	}
	return false
}

// newScopeSet builds the snapshot for scopes; known carries over the events of earlier snapshots.
func newScopeSet(scopes []*scope, prev *scopeSet) *scopeSet {
	s := &scopeSet{scopes: scopes, byEvent: map[shared.HookEvent][]*registeredHook{}, known: map[shared.HookEvent]bool{}}
	if prev != nil {
		for e := range prev.known {
			s.known[e] = true
		}
	}
	for _, sc := range scopes {
		if sc.agentID != "" {
			s.agents++
			s.known[shared.HookEventSubagentStop] = true
		}
		for _, e := range shared.AllHookEvents() {
			if hs := sc.hooks[e]; len(hs) > 0 {
				s.byEvent[e] = append(s.byEvent[e], hs...)
				s.known[e] = true
			}
		}
	}
	return s
}

// RegisterScoped adds a scope of hooks, merged with the base hooks at every fire: the base hooks
// of an event run first, then each scope's, in the order the scopes were registered. hooks is
// validated as at construction (a known event, a handler, a valid matcher, a timeout >= 0): a bad
// registration is an error and nothing is added. It is safe to call concurrently with running
// chains, including from a handler: a chain in progress keeps the hooks it started with.
//
// The CLI only sends the events it was told about: the caller must register the union (Events,
// CLIMatcher, ChainTimeout) with the CLI when it grew.
func (x *HookExecutor) RegisterScoped(id string, hooks shared.Hooks, opts ScopeOptions) error {
	if id == "" {
		return ErrEmptyScopeID
	}
	if err := hooks.Validate(); err != nil {
		return err
	}
	sc := &scope{id: id, agentID: opts.AgentID, hooks: map[shared.HookEvent][]*registeredHook{}}
	for e, cfgs := range hooks {
		for i, c := range cfgs {
			m, _ := shared.CompileMatcher(c.Matcher) // validated above
			t := c.Timeout
			if t == 0 {
				t = x.opts.DefaultTimeout
			}
			_, exact := m.Names()
			sc.hooks[e] = append(sc.hooks[e], &registeredHook{index: i, name: c.Name, matcher: m, exact: exact,
				handler: c.Handler, timeout: t, scope: id, agentID: opts.AgentID})
		}
	}
	x.smu.Lock()
	defer x.smu.Unlock()
	prev := x.scoped.Load()
	if prev != nil && slices.ContainsFunc(prev.scopes, func(s *scope) bool { return s.id == id }) {
		return fmt.Errorf("%w: %q", ErrScopeExists, id)
	}
	var scopes []*scope
	if prev != nil {
		scopes = append(scopes, prev.scopes...)
	}
	x.scoped.Store(newScopeSet(append(scopes, sc), prev))
	return nil
}

// UnregisterScoped removes the scope id; it reports whether it was registered. Chains already
// running keep it to their end; later ones do not see it.
func (x *HookExecutor) UnregisterScoped(id string) bool {
	x.smu.Lock()
	defer x.smu.Unlock()
	return x.removeScopesLocked(func(s *scope) bool { return s.id == id }) > 0
}

// ScopeIDs returns the ids of the registered scopes, in registration order.
func (x *HookExecutor) ScopeIDs() []string {
	snap := x.scoped.Load()
	if snap == nil {
		return nil
	}
	ids := make([]string, len(snap.scopes))
	for i, s := range snap.scopes {
		ids[i] = s.id
	}
	return ids
}

// removeScopesLocked drops the scopes drop selects and returns how many; x.smu is held.
func (x *HookExecutor) removeScopesLocked(drop func(*scope) bool) int {
	prev := x.scoped.Load()
	if prev == nil {
		return 0
	}
	var keep []*scope
	for _, s := range prev.scopes {
		if !drop(s) {
			keep = append(keep, s)
		}
	}
	n := len(prev.scopes) - len(keep)
	if n > 0 {
		x.scoped.Store(newScopeSet(keep, prev))
	}
	return n
}

// endAgent runs when the SubagentStop chain of agentID ends with out: the scopes bound to that
// agent end, unless out blocks (SubagentStop decision block makes the subagent go on).
func (x *HookExecutor) endAgent(agentID string, out shared.HookOutput) {
	if agentID == "" {
		return
	}
	if s, ok := shared.AsSync(out); ok {
		if d, _ := s.Decision.Normalize(); d == shared.DecisionDeny {
			return
		}
	}
	x.smu.Lock()
	n := x.removeScopesLocked(func(s *scope) bool { return s.agentID == agentID })
	x.smu.Unlock()
	if n > 0 {
		x.logger.Debug("subprocess: agent stopped, its scoped hooks end", "agent_id", agentID, "scopes", n)
	}
}

// idleQueue holds the functions WhenIdle runs once no chain is in progress.
type idleQueue struct {
	mu      sync.Mutex
	fns     []func()
	waiting atomic.Bool // fns is not empty: chainEnded must look
}

// WhenIdle runs fn on a goroutine of its own as soon as no chain is in progress: at once if none
// is, else when the last one has delivered its result (for the transport: written its answer).
// The session uses it to send a new initialize, which makes the CLI cancel every hook request it
// is waiting for.
func (x *HookExecutor) WhenIdle(fn func()) {
	x.idle.mu.Lock()
	x.idle.fns = append(x.idle.fns, fn)
	x.idle.waiting.Store(true)
	x.idle.mu.Unlock()
	if x.chains.Load() == 0 {
		x.runIdle()
	}
}

// chainEnded runs when a chain has delivered its result.
func (x *HookExecutor) chainEnded() {
	if x.chains.Add(-1) == 0 && x.idle.waiting.Load() {
		x.runIdle()
	}
}

func (x *HookExecutor) runIdle() {
	x.idle.mu.Lock()
	if x.chains.Load() != 0 || len(x.idle.fns) == 0 {
		// A chain started meanwhile: its end runs them.
		x.idle.mu.Unlock()
		return
	}
	fns := x.idle.fns
	x.idle.fns = nil
	x.idle.waiting.Store(false)
	x.idle.mu.Unlock()
	for _, fn := range fns {
		go fn() // e.g. a control request, which must not wait on the stdout reader's goroutine
	}
}
