package hooks

import (
	"fmt"
	"slices"

	"github.com/hookwire/agent-sdk-go/claude/shared"
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
// validated as at construction (a known event, a handler, a valid matcher, a timeout >= 0, and with
// Options.StrictToolNames tool names the CLI has): a bad
// registration is an error and nothing is added. It is safe to call concurrently with running
// chains, including from a handler: a chain in progress keeps the hooks it started with.
//
// The CLI only sends the events it was told about: the caller must register the union (Events,
// CLIMatcher, ChainTimeout) with the CLI when it grew.
func (x *Engine) RegisterScoped(id string, hooks shared.Hooks, opts ScopeOptions) error {
	if id == "" {
		return shared.ErrEmptyScopeID
	}
	byEvent, err := x.compileHooks(hooks, id, opts.AgentID)
	if err != nil {
		return err
	}
	sc := &scope{id: id, agentID: opts.AgentID, hooks: byEvent}
	x.smu.Lock()
	defer x.smu.Unlock()
	prev := x.scoped.Load()
	if prev != nil && slices.ContainsFunc(prev.scopes, func(s *scope) bool { return s.id == id }) {
		return fmt.Errorf("%w: %q", shared.ErrScopeExists, id)
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
func (x *Engine) UnregisterScoped(id string) bool {
	x.smu.Lock()
	defer x.smu.Unlock()
	return x.removeScopesLocked(func(s *scope) bool { return s.id == id }) > 0
}

// ScopeIDs returns the ids of the registered scopes, in registration order.
func (x *Engine) ScopeIDs() []string {
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
func (x *Engine) removeScopesLocked(drop func(*scope) bool) int {
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
func (x *Engine) endAgent(agentID string, out shared.HookOutput) {
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
		x.logger.Debug("hooks: agent stopped, its scoped hooks end", "agent_id", agentID, "scopes", n)
	}
}
