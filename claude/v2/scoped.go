package v2

import (
	"context"
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ScopeOption configures Session.RegisterScoped.
type ScopeOption interface {
	applyScope(*hooks.ScopeOptions)
}

type scopeOptionFunc func(*hooks.ScopeOptions)

func (f scopeOptionFunc) applyScope(o *hooks.ScopeOptions) { f(o) }

// ForAgent binds a scope to one subagent (the agent_id of its SubagentStart): its hooks fire only
// for hook inputs that carry that agent_id (the subagent's tool calls, its SubagentStop, ...), and
// the scope ends by itself at that agent's SubagentStop (unless a hook of that SubagentStop blocks,
// which makes the subagent go on). Default: the scope applies to every input and lasts until
// UnregisterScoped.
func ForAgent(agentID string) ScopeOption {
	return scopeOptionFunc(func(o *hooks.ScopeOptions) { o.AgentID = agentID })
}

// AgentScopeID is the scope id WithSubagentHooks registers a subagent's hooks under.
func AgentScopeID(agentID string) string { return "agent:" + agentID }

// RegisterScoped adds hooks to the running session under scopeID, merged with the session's own
// hooks at every fire: the session's hooks of an event always run first, then each scope's, in the
// order the scopes were registered. The hooks are validated at once (a bad registration is an
// error, and nothing is added). A fire already in progress keeps the hooks it started with.
//
// When a scoped hook needs an event the CLI was not told about, a broader CLI matcher or a longer
// CLI timeout, the session sends the CLI a new initialize with the union of all hooks. A second
// initialize makes CLI 2.1.330 cancel every hook request it is waiting for (a PreToolUse in flight
// is then not run: "The SDK host reconnected ..."), so the session sends it only when no hook
// request is in progress. Called from outside a hook, RegisterScoped waits for that (ctx bounds
// the wait; on ctx's end the scope is removed again). Called from inside a hook with the hook's
// ctx (say, from SubagentStart), it returns at once and the initialize follows the hook's answer;
// a failure of it is then logged. A hook that passes another ctx waits for its own answer: it is
// answered at its timeout.
//
// With the AGENT_SDK_HOOKS_ENABLED=false rollback switch, RegisterScoped fails with
// ErrHooksNotEnforced. So it does, naming the hook and its file, when the hooks guard tool calls
// (PreToolUse, PermissionRequest), the session did not guard them from its start, and a hook of
// the user's, project's or local settings or of a plugin sits on those events (it could allow or
// rewrite a call after the guard approved it; see CreateSession). A PermissionRequest hook that
// cannot fire (the session's mode, an agent's mode or an allow rule skips it: the rule of
// CreateSession's ErrGuardCannotFire) is an ErrGuardCannotFire, unless WithAllowUnenforcedHooks;
// later SetPermissionMode calls and permission answers' setMode are checked against it.
func (s *Session) RegisterScoped(ctx context.Context, scopeID string, hs shared.Hooks, opts ...ScopeOption) error {
	if s.info.HooksDisabledByEnv {
		return fmt.Errorf("%w: %s=false switched hooks off", ErrHooksNotEnforced, HooksEnabledEnv)
	}
	guards, err := s.checkScopedPromptGuards(scopeID, hs) // guardlive.go
	if err != nil {
		return err
	}
	if err := s.checkScopedGuards(ctx, hs); err != nil {
		return fmt.Errorf("v2: RegisterScoped %q: %w", scopeID, err)
	}
	var so hooks.ScopeOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyScope(&so)
		}
	}
	if err := s.x.RegisterScoped(scopeID, hs, so); err != nil {
		return fmt.Errorf("v2: RegisterScoped: %w", err)
	}
	s.o.live.add(scopeID, guards)
	s.regMu.Lock()
	t := s.t
	started := t != nil && s.sent != nil
	need := started && !s.sent.Covers(s.registration())
	s.regMu.Unlock()
	if !need {
		// Before the CLI starts, initialize carries it; else the CLI already sends what it needs.
		return nil
	}
	done := make(chan error, 1)
	t.WhenIdle(func() { s.sendRegistration(done) }) // once every hook request in flight is answered
	if s.x.InChain(ctx) {
		// The caller's own hook request is in flight: the initialize is sent once it is answered.
		go func() {
			if err := <-done; err != nil {
				s.logger.Error("v2: the CLI did not take the scoped hooks' registration; hooks for events it was not told about will not run", "scope", scopeID, "error", err)
			}
		}()
		return nil
	}
	select {
	case err := <-done:
		if err != nil {
			s.x.UnregisterScoped(scopeID)
			return err
		}
		return nil
	case <-ctx.Done():
		s.x.UnregisterScoped(scopeID)
		return fmt.Errorf("v2: RegisterScoped %q: waiting for the CLI to take the registration: %w", scopeID, ctx.Err())
	}
}

// UnregisterScoped removes the scope scopeID; it reports whether it was registered. Fires already
// in progress keep its hooks to their end. The CLI keeps sending the events it was told about
// (the session answers them at once); the next registration that needs a new initialize narrows
// them.
func (s *Session) UnregisterScoped(scopeID string) bool { return s.x.UnregisterScoped(scopeID) }

// Scopes returns the ids of the registered scopes, in registration order.
func (s *Session) Scopes() []string { return s.x.ScopeIDs() }

// registration returns the hooks for the CLI's initialize: one callback per event the engine
// handles (base and scoped), plus SubagentStop with WithSubagentHooks (so that a subagent's scope
// can end without a new initialize).
func (s *Session) registration() hooks.Registration {
	return s.x.Registration(s.o.subagentHooks != nil && !s.info.HooksDisabledByEnv)
}

// sendRegistration sends the CLI a new initialize when the hooks it knows do not cover the
// session's (base and scoped) any more.
//
// It runs from WhenIdle, on the goroutine that wrote the last hook answer, and does not wait: it
// writes the initialize there (so that the CLI reads it right behind that answer, before it can
// send a hook event the new registration is for), and waits for the CLI's answer on a goroutine
// of its own, holding regMu until then. The outcome goes to result.
func (s *Session) sendRegistration(result chan<- error) {
	s.regMu.Lock()
	reg := s.registration()
	if s.sent.Covers(reg) {
		s.regMu.Unlock()
		result <- nil
		return
	}
	wait, err := s.t.Send(s.initRequest(reg))
	if err != nil {
		s.regMu.Unlock()
		result <- fmt.Errorf("v2: registering the scoped hooks with the CLI: %w", err)
		return
	}
	go func() { // ends with the CLI's answer, or at the transport's RequestTimeout or end
		defer s.regMu.Unlock() // a sync.Mutex may be unlocked by another goroutine than its locker's
		result <- s.applyRegistration(reg, wait)
	}()
}

// applyRegistration waits for the answer to the initialize that registers reg.
func (s *Session) applyRegistration(reg hooks.Registration, wait func(context.Context) ([]byte, error)) error {
	raw, err := wait(context.Background())
	if err != nil {
		return fmt.Errorf("v2: registering the scoped hooks with the CLI: %w", err)
	}
	if err := s.takeRegistration(raw, reg); err != nil {
		return err
	}
	s.logger.Debug("v2: hooks registered again with the CLI", "events", len(reg))
	return nil
}

// subagentHook is the SubagentStart hook of WithSubagentHooks.
func (s *Session) subagentHook(fn func(*shared.SubagentStartHookInput) shared.Hooks) shared.HookConfig {
	return shared.HookConfig{Name: "sdk:subagent-hooks", Handler: shared.OnSubagentStart(func(ctx context.Context, in *shared.SubagentStartHookInput) (shared.HookOutput, error) {
		hs := fn(in)
		if len(hs) == 0 || in.AgentID == "" {
			return nil, nil
		}
		return nil, s.RegisterScoped(ctx, AgentScopeID(in.AgentID), hs, ForAgent(in.AgentID))
	})}
}
