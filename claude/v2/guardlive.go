package v2

import (
	"fmt"
	"slices"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// liveGuards is what the guard checks of a running session need beyond its options: the
// permission mode the session is in as last known, and the PermissionRequest hooks added later
// (RegisterScoped). The options' guards and mode are checked before the CLI starts; a guard added
// while the session is already in a mode that skips it, or a mode switch that skips a guard added
// later, would otherwise go unseen. A config's copies share it.
type liveGuards struct {
	mu     sync.Mutex
	mode   PermissionMode // "": none known yet beyond the options'
	modeBy string         // the option that set mode, as an error names it
	scoped []scopeGuards  // in registration order
	// scopes lists the scopes still registered (the engine ends a ForAgent scope by itself).
	scopes func() []string
}

// modeReported names, as an error's options to fix, what set a mode the CLI reported
// (system/init, system/status: CLI 2.1.332 reports each switch, SetPermissionMode's and a
// permission answer's setMode): SetPermissionMode can switch it back.
const modeReported = "SetPermissionMode"

// scopeGuards are the PermissionRequest hooks of one scope of RegisterScoped.
type scopeGuards struct {
	id     string
	guards []promptGuard
}

// setMode records the mode the session is in (SetPermissionMode's, or the CLI's system/init or
// system/status) and the option that set it.
func (l *liveGuards) setMode(mode PermissionMode, by string) {
	if l == nil || mode == "" {
		return
	}
	l.mu.Lock()
	l.mode, l.modeBy = mode, by
	l.mu.Unlock()
}

// add records the PermissionRequest hooks of scope id, in place of any an earlier scope of that
// id had (a scope id may be reused once unregistered).
func (l *liveGuards) add(id string, guards []promptGuard) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.scoped = slices.DeleteFunc(l.scoped, func(s scopeGuards) bool { return s.id == id })
	if len(guards) > 0 {
		l.scoped = append(l.scoped, scopeGuards{id, guards})
	}
}

// guards are the PermissionRequest hooks of the scopes still registered.
func (l *liveGuards) guards() []promptGuard {
	if l == nil {
		return nil
	}
	var ids []string
	if l.scopes != nil {
		ids = l.scopes()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.scoped = slices.DeleteFunc(l.scoped, func(s scopeGuards) bool { return !slices.Contains(ids, s.id) })
	var out []promptGuard
	for _, s := range l.scoped {
		out = append(out, s.guards...)
	}
	return out
}

// allGuards are the session's guards: its options' (promptGuards) and its scopes' PermissionRequest
// hooks (RegisterScoped).
func (o *config) allGuards() []promptGuard {
	return append(o.promptGuards(), o.live.guards()...)
}

// sessionMode is the permission mode the session is in as last known, and what set it: the CLI's
// report or SetPermissionMode, else the options' (WithPermissionMode, WithSettings' inline
// defaultMode).
func (o *config) sessionMode() (PermissionMode, string) {
	if o.live != nil {
		o.live.mu.Lock()
		mode, by := o.live.mode, o.live.modeBy
		o.live.mu.Unlock()
		if mode != "" {
			return mode, by
		}
	}
	mode, modeOpt := o.permissionMode, "WithPermissionMode"
	if inline, _ := o.inlinePermissions(); mode == "" && inline != "" {
		mode, modeOpt = inline, "WithSettings"
	}
	return mode, modeOpt
}

// scopedPromptGuards are the PermissionRequest hooks of hs, a scope scopeID of RegisterScoped.
func scopedPromptGuards(scopeID string, hs shared.Hooks) []promptGuard {
	var out []promptGuard
	for i, c := range hs[shared.HookEventPermissionRequest] {
		m, err := shared.CompileMatcher(c.Matcher)
		if err != nil {
			continue // the engine's registration reports it
		}
		out = append(out, promptGuard{fmt.Sprintf("the PermissionRequest hook [%d] (matcher %q) of scope %q", i, c.Matcher, scopeID), "RegisterScoped", m})
	}
	return out
}

// checkScopedPromptGuards refuses a PermissionRequest hook of RegisterScoped that cannot fire, by
// the rule CreateSession checks the options' with: the mode the session is in (its options', or
// the last SetPermissionMode or CLI report), an agent's mode (WithAgents, the user's agents) and
// the allow rules. A scope bound to one subagent (ForAgent) is checked against every agent.
// WithAllowUnenforcedHooks accepts it, with a warning. It returns the hooks to record.
func (s *Session) checkScopedPromptGuards(scopeID string, hs shared.Hooks) ([]promptGuard, error) {
	guards := scopedPromptGuards(scopeID, hs)
	if len(guards) == 0 {
		return nil, nil
	}
	mode, modeOpt := s.o.sessionMode()
	err := s.o.guardsSkipped(guards, mode, modeOpt)
	if err == nil {
		err = s.o.userAgentsSkip(guards)
	}
	if err != nil && s.o.allowUnenforced {
		s.logger.Warn(err.Error()+" (accepted: WithAllowUnenforcedHooks)", "scope", scopeID)
		return guards, nil
	}
	return guards, err
}
