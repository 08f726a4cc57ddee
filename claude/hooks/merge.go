package hooks

import (
	"fmt"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// merger folds the answers of one event's chain into one answer. It folds each answer as
// Normalize read it (the executor reads each answer once, see chainRun.readAnswer), so it sees
// each decision in one form only (the event's own) and never drops one; its result is in that
// form too.
//
// Its zero value with event set is ready to use.
type merger struct {
	event   shared.HookEvent
	any     bool
	out     shared.SyncHookOutput // continue, stopReason, suppressOutput; top-level decision and reason
	async   *shared.AsyncHookOutput
	context []string
	sysmsg  []string

	// PreToolUse / PreModelSwitch permission decision and its reason (the strongest so far).
	decision shared.Decision
	reason   string
	// The last rewrite of the tool's input (PreToolUse, PermissionRequest allow).
	updatedInput shared.ToolInput
	// PermissionRequest verdict: the deny, or the first allow (with every allow's permission
	// updates).
	perm *shared.PermissionResult
	// UserPromptSubmit's own fields.
	ups    shared.UserPromptSubmitOutput
	hasUPS bool
	// The last event-specific output of other events, for fields that are "last one wins".
	last shared.HookSpecificOutput
	// failed is the reason of the denial the chain ends with: an answer the SDK could not read on
	// an event that guards an action.
	failed string

	// The storage of the merged answer (result), allocated with the merger: a chain's answer is
	// built once, when it ends.
	resOut shared.SyncHookOutput
	resPre shared.PreToolUseOutput
}

func (m *merger) setDecision(d shared.Decision, reason string) {
	if rank(d) > rank(m.decision) {
		m.decision, m.reason = d, reason
	}
}

// fail ends the chain of a guarding event with its denial.
func (m *merger) fail(reason string) bool {
	if m.failed == "" {
		m.failed = "hook output refused, denied by the SDK (fail-closed): " + reason
	}
	return true
}

// add folds one handler's answer in: o as the handler gave it (an async answer is kept as it is)
// and s, its synchronous answer as Normalize returned it (nil: no opinion). It reports
// whether the chain must stop: after a deny, a block, a defer, an answer a guarding event cannot
// take, or (on events that do not guard an action) continue:false.
func (m *merger) add(o shared.HookOutput, s *shared.SyncHookOutput, in shared.HookInput) (stop bool) {
	switch o.(type) {
	case shared.AsyncHookOutput, *shared.AsyncHookOutput, *shared.AsyncWork:
		return m.addAsync(o)
	}
	if s == nil {
		return false
	}
	m.any = true
	if s.SuppressOutput {
		m.out.SuppressOutput = true
	}
	if s.SystemMessage != "" {
		m.sysmsg = append(m.sysmsg, s.SystemMessage)
	}
	if s.Continue == shared.ContinueNo {
		m.out.Continue = shared.ContinueNo
		m.out.StopReason = s.StopReason
		// On a guarding event the later guards still run: continue:false decides nothing about
		// the action (a PreToolUse'd tool still runs).
		stop = !m.event.GuardsAction()
	}
	switch m.event {
	case shared.HookEventPreToolUse:
		return m.addPreToolUse(s, in) || stop
	case shared.HookEventPermissionRequest:
		return m.addPermissionRequest(s, in) || stop
	case shared.HookEventPreModelSwitch:
		return m.addModelSwitch(s) || stop
	}
	return m.addOther(s) || stop
}

// addAsync folds an async answer in: it cannot guard an action; elsewhere the last {"async":true}
// is the answer of a chain that gave no other.
func (m *merger) addAsync(o shared.HookOutput) (stop bool) {
	if m.event.GuardsAction() {
		return m.fail(fmt.Sprintf("an async answer (%T) cannot guard an action", o))
	}
	switch a := o.(type) {
	case shared.AsyncHookOutput:
		m.async = &a
	case *shared.AsyncHookOutput:
		if a != nil {
			m.async = a
		}
	}
	return false
}

// addPreToolUse folds a PreToolUse verdict in: the strongest decision wins, a deny or a defer
// ends the chain.
func (m *merger) addPreToolUse(s *shared.SyncHookOutput, in shared.HookInput) (stop bool) {
	sp, _ := s.HookSpecificOutput.(*shared.PreToolUseOutput)
	if sp == nil {
		return false
	}
	if sp.PermissionDecision != "" {
		m.setDecision(sp.PermissionDecision, sp.PermissionDecisionReason)
		stop = sp.PermissionDecision == shared.DecisionDeny || sp.PermissionDecision == shared.DecisionDefer
	}
	if sp.UpdatedInput != nil {
		m.rewrite(sp.UpdatedInput, in)
	}
	m.addContext(sp.AdditionalContext)
	return stop
}

// addPermissionRequest folds a PermissionRequest verdict in: a deny ends the chain; allows add
// their permission updates to the first allow.
func (m *merger) addPermissionRequest(s *shared.SyncHookOutput, in shared.HookInput) (stop bool) {
	sp, _ := s.HookSpecificOutput.(*shared.PermissionRequestOutput)
	if sp == nil || sp.Decision == nil {
		return false
	}
	r := *sp.Decision
	if r.Behavior == shared.PermissionDeny {
		m.perm = &r
		return true
	}
	if r.UpdatedInput != nil {
		m.rewrite(r.UpdatedInput, in)
	}
	if m.perm == nil {
		m.perm = &r
	} else {
		m.perm.UpdatedPermissions = append(m.perm.UpdatedPermissions, r.UpdatedPermissions...)
	}
	return false
}

// addModelSwitch folds a PreModelSwitch verdict in: a deny ends the chain.
func (m *merger) addModelSwitch(s *shared.SyncHookOutput) (stop bool) {
	sp, _ := s.HookSpecificOutput.(*shared.ModelSwitchOutput)
	if sp == nil || sp.PermissionDecision == "" {
		return false
	}
	m.setDecision(sp.PermissionDecision, sp.PermissionDecisionReason)
	return sp.PermissionDecision == shared.DecisionDeny
}

// addOther folds the answer of an event without a permission verdict in: its top-level decision
// (a deny ends the chain) and its event-specific output.
func (m *merger) addOther(s *shared.SyncHookOutput) (stop bool) {
	switch s.Decision {
	case shared.DecisionDeny:
		m.out.Decision, m.out.Reason = shared.DecisionDeny, s.Reason
		stop = true
	case shared.DecisionAllow:
		if m.out.Decision == "" {
			m.out.Decision, m.out.Reason = shared.DecisionAllow, s.Reason
		}
	default:
		if s.Reason != "" && m.out.Reason == "" {
			m.out.Reason = s.Reason
		}
	}
	switch sp := s.HookSpecificOutput.(type) {
	case *shared.ContextOutput:
		m.addContext(sp.AdditionalContext)
	case *shared.UserPromptSubmitOutput:
		m.addContext(sp.AdditionalContext)
		m.hasUPS = true
		if sp.SessionTitle != "" {
			m.ups.SessionTitle = sp.SessionTitle
		}
		m.ups.SuppressOriginalPrompt = m.ups.SuppressOriginalPrompt || sp.SuppressOriginalPrompt
	case *shared.PostToolUseOutput:
		m.addContext(sp.AdditionalContext)
		m.last = sp
	case *shared.SessionStartOutput:
		m.addContext(sp.AdditionalContext)
		m.last = sp
	case nil:
	default:
		m.last = sp
	}
	return stop
}

// rewrite records a new tool input: the next handler sees it, and the last one is sent.
func (m *merger) rewrite(input shared.ToolInput, in shared.HookInput) {
	m.updatedInput = input
	if tc := shared.ToolCall(in); tc != nil {
		tc.ToolInput = input.Clone()
	}
}

func (m *merger) addContext(s string) {
	if s != "" {
		m.context = append(m.context, s)
	}
}

// result returns the merged answer, or nil for "no opinion". It is called once: the answer is built
// in the merger's own storage.
func (m *merger) result() shared.HookOutput {
	if m.failed != "" {
		return denial(m.event, m.failed)
	}
	if !m.any {
		if m.async != nil {
			return m.async
		}
		return nil
	}
	out := &m.resOut
	*out = m.out
	out.SystemMessage = strings.Join(m.sysmsg, "\n")
	ctx := strings.Join(m.context, "\n\n")
	switch m.event {
	case shared.HookEventPreToolUse:
		if m.decision != "" || m.updatedInput != nil || ctx != "" {
			m.resPre = shared.PreToolUseOutput{
				PermissionDecision:       m.decision,
				PermissionDecisionReason: m.reason,
				UpdatedInput:             m.updatedInput,
				AdditionalContext:        ctx,
			}
			out.HookSpecificOutput = &m.resPre
		}
		if m.decision == shared.DecisionDeny {
			// Also the top-level deny (written as the legacy "block"), so every CLI version reads it
			// as a block.
			out.Decision, out.Reason = shared.DecisionDeny, m.reason
		}
	case shared.HookEventPreModelSwitch:
		if m.decision != "" {
			out.HookSpecificOutput = &shared.ModelSwitchOutput{PermissionDecision: m.decision, PermissionDecisionReason: m.reason}
		}
	case shared.HookEventPermissionRequest:
		if m.perm != nil {
			r := *m.perm
			if r.Behavior == shared.PermissionAllow && m.updatedInput != nil {
				r.UpdatedInput = m.updatedInput
			}
			out.HookSpecificOutput = &shared.PermissionRequestOutput{Decision: &r}
		}
	default:
		switch last := m.last.(type) {
		case *shared.PostToolUseOutput:
			c := *last
			c.AdditionalContext = ctx
			out.HookSpecificOutput = &c
		case *shared.SessionStartOutput:
			c := *last
			c.AdditionalContext = ctx
			out.HookSpecificOutput = &c
		case nil:
			if m.hasUPS {
				c := m.ups
				c.AdditionalContext = ctx
				out.HookSpecificOutput = &c
			} else if ctx != "" {
				out.HookSpecificOutput = &shared.ContextOutput{AdditionalContext: ctx}
			}
		default:
			out.HookSpecificOutput = last
		}
	}
	return out
}
