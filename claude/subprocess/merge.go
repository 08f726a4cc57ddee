package subprocess

import (
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// merger folds the answers of one event's chain into one answer.
type merger struct {
	event   shared.HookEvent
	any     bool
	out     shared.SyncHookOutput
	async   *shared.AsyncHookOutput
	context []string
	sysmsg  []string

	// PreToolUse / PreModelSwitch permission decision, its reason, and the last updatedInput.
	decision     shared.Decision
	reason       string
	updatedInput shared.ToolInput
	// The last event-specific output, for fields that are "last one wins".
	last shared.HookSpecificOutput
	// PermissionRequest verdict.
	perm *shared.PermissionResult

	// The storage of the merged answer (result), allocated with the merger: a chain's answer is
	// built once, when it ends.
	resOut shared.SyncHookOutput
	resPre shared.PreToolUseOutput
}

func newMerger(e shared.HookEvent) *merger { return &merger{event: e} }

// rank orders permission decisions: a stronger one replaces a weaker one.
func rank(d shared.Decision) int {
	switch d {
	case shared.DecisionAllow:
		return 1
	case shared.DecisionAsk:
		return 2
	case shared.DecisionDefer:
		return 3
	case shared.DecisionDeny:
		return 4
	}
	return 0
}

func (m *merger) setDecision(d shared.Decision, reason string) {
	if rank(d) > rank(m.decision) {
		m.decision, m.reason = d, reason
	}
}

// add folds one handler's answer in; it reports whether the chain must stop. o has already passed
// shared.WireOutput, so its decision words are known.
func (m *merger) add(o shared.HookOutput, in shared.HookInput) (stop bool) {
	if o == nil {
		return false
	}
	switch v := o.(type) {
	case shared.AsyncHookOutput:
		m.async = &v
		return false
	case *shared.AsyncHookOutput:
		if v != nil {
			m.async = v
		}
		return false
	}
	s, ok := shared.AsSync(o)
	if !ok {
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
		stop = true
	}
	d, _ := s.Decision.Normalize()
	switch d {
	case shared.DecisionDeny:
		if m.event == shared.HookEventPreToolUse {
			m.setDecision(shared.DecisionDeny, s.Reason)
		} else {
			m.out.Decision, m.out.Reason = shared.DecisionBlock, s.Reason
		}
		stop = true
	case shared.DecisionAllow:
		if m.event == shared.HookEventPreToolUse {
			m.setDecision(shared.DecisionAllow, s.Reason)
		} else if m.out.Decision == "" {
			m.out.Decision, m.out.Reason = shared.DecisionApprove, s.Reason
		}
	case shared.DecisionAsk, shared.DecisionDefer:
		m.setDecision(d, s.Reason)
		stop = stop || d == shared.DecisionDefer
	default:
		if s.Reason != "" && m.out.Reason == "" {
			m.out.Reason = s.Reason
		}
	}
	switch sp := s.HookSpecificOutput.(type) {
	case *shared.PreToolUseOutput:
		if sp == nil {
			break
		}
		if sp.PermissionDecision != "" {
			pd, _ := sp.PermissionDecision.Normalize()
			m.setDecision(pd, sp.PermissionDecisionReason)
			if pd == shared.DecisionDeny || pd == shared.DecisionDefer {
				stop = true
			}
		}
		if sp.UpdatedInput != nil {
			m.updatedInput = sp.UpdatedInput
			if tc := shared.ToolCall(in); tc != nil {
				tc.ToolInput = sp.UpdatedInput.Clone()
			}
		}
		m.addContext(sp.AdditionalContext)
	case *shared.ModelSwitchOutput:
		if sp != nil && sp.PermissionDecision != "" {
			pd, _ := sp.PermissionDecision.Normalize()
			m.setDecision(pd, sp.PermissionDecisionReason)
			stop = stop || pd == shared.DecisionDeny
		}
	case *shared.PermissionRequestOutput:
		if sp != nil && sp.Decision != nil {
			if sp.Decision.Behavior == shared.PermissionDeny {
				m.perm = sp.Decision
				stop = true
			} else if m.perm == nil || m.perm.Behavior != shared.PermissionDeny {
				m.perm = sp.Decision
				if sp.Decision.UpdatedInput != nil {
					if tc := shared.ToolCall(in); tc != nil {
						tc.ToolInput = sp.Decision.UpdatedInput.Clone()
					}
				}
			}
		}
	case *shared.ContextOutput:
		if sp != nil {
			m.addContext(sp.AdditionalContext)
		}
	case *shared.PostToolUseOutput:
		if sp != nil {
			m.addContext(sp.AdditionalContext)
			m.last = sp
		}
	case *shared.UserPromptSubmitOutput:
		if sp != nil {
			m.addContext(sp.AdditionalContext)
			m.last = sp
		}
	case *shared.SessionStartOutput:
		if sp != nil {
			m.addContext(sp.AdditionalContext)
			m.last = sp
		}
	case nil:
	default:
		m.last = sp
	}
	return stop
}

func (m *merger) addContext(s string) {
	if s != "" {
		m.context = append(m.context, s)
	}
}

// result returns the merged answer, or nil for "no opinion". It is called once: the answer is built
// in the merger's own storage.
func (m *merger) result() shared.HookOutput {
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
			// Also the legacy spelling, so every CLI version reads it as a block.
			out.Decision, out.Reason = shared.DecisionBlock, m.reason
		} else if out.Decision == shared.DecisionApprove {
			out.Decision = ""
		}
	case shared.HookEventPreModelSwitch:
		if m.decision != "" {
			out.HookSpecificOutput = &shared.ModelSwitchOutput{PermissionDecision: m.decision, PermissionDecisionReason: m.reason}
		}
	case shared.HookEventPermissionRequest:
		if m.perm != nil {
			out.HookSpecificOutput = &shared.PermissionRequestOutput{Decision: m.perm}
		}
	default:
		switch last := m.last.(type) {
		case *shared.PostToolUseOutput:
			c := *last
			c.AdditionalContext = ctx
			out.HookSpecificOutput = &c
		case *shared.UserPromptSubmitOutput:
			c := *last
			c.AdditionalContext = ctx
			out.HookSpecificOutput = &c
		case *shared.SessionStartOutput:
			c := *last
			c.AdditionalContext = ctx
			out.HookSpecificOutput = &c
		case nil:
			if ctx != "" {
				out.HookSpecificOutput = &shared.ContextOutput{AdditionalContext: ctx}
			}
		default:
			out.HookSpecificOutput = last
		}
	}
	return out
}
