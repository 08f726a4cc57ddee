package temporalagent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The names of the workflow handlers an Approvals registers.
const (
	// QueryPending returns the approvals waiting for a decision ([]Approval).
	QueryPending = "agent.pending"
	// QueryDecision returns the decision on one approval (argument: its ID; result: DecisionLookup).
	QueryDecision = "agent.decision"
	// SignalDecide decides an approval (argument: a Decision). The first decision on an ID counts.
	SignalDecide = "agent.decide"
	// SignalRequested tells the workflow of a new approval (argument: an Approval); the worker
	// sends it.
	SignalRequested = "agent.approval-requested"
)

// DecisionLookup is QueryDecision's answer.
type DecisionLookup struct {
	Decided  bool
	Decision Decision
}

// ApprovalRule picks the tool calls that wait for a decision of the workflow (WithApprovals).
// The worker's PreToolUse hook asks the workflow (signal SignalRequested), then waits: up to
// KeepAlive with the CLI alive, asking for the decision every Poll (query QueryDecision); past
// KeepAlive the call is refused for now, the turn ends, and RunTurn in the workflow waits for the
// decision as long as its Approvals allow, then resumes the session before the call with the
// decision applied. Anything that goes wrong while asking refuses the call (fail closed).
type ApprovalRule struct {
	// Match reports whether the call needs an approval.
	Match func(in *shared.PreToolUseHookInput) bool
	// KeepAlive is how long the CLI waits with the session alive. Default: 1 minute; negative: not
	// at all (the turn ends at once).
	KeepAlive time.Duration
	// Poll is how often the worker asks for the decision while the CLI waits. Default: 1 second.
	Poll time.Duration
	// PerSession scopes decisions to the session that asked: the same call in another session
	// asks again (its ID is SessionApprovalID's). Default: workflow-wide, a decision holds for
	// the same call in every session of the workflow (ApprovalID).
	PerSession bool
}

// SessionApprovalID is ApprovalID scoped to one session (ApprovalRule.PerSession).
func SessionApprovalID(sessionID, toolName string, input shared.ToolInput) string {
	return ApprovalID(sessionID+"\x00"+toolName, input)
}

// ApprovalID names a tool call by its tool and input, so that the same call asked again after a
// resume (with a new tool_use id) finds its decision.
func ApprovalID(toolName string, input shared.ToolInput) string {
	b, err := jsonv2.Marshal(input, jsonv2.Deterministic(true))
	if err != nil {
		b = []byte(fmt.Sprint(input))
	}
	h := sha256.New()
	h.Write([]byte(toolName))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// approvalGate is one turn's side of the approvals: the decisions it was given, the workflow to
// ask, and the approval the turn stopped for.
type approvalGate struct {
	rule      ApprovalRule
	decisions map[string]Decision
	client    client.Client
	wfID      string
	runID     string
	tr        *tracker

	mu      sync.Mutex
	pending *Approval
}

func (a *Activities) newApprovalGate(ctx context.Context, tr *tracker, decisions []Decision) *approvalGate {
	if a.approvals == nil {
		return nil
	}
	g := &approvalGate{rule: *a.approvals, decisions: map[string]Decision{}, tr: tr}
	if g.rule.KeepAlive == 0 {
		g.rule.KeepAlive = time.Minute
	}
	if g.rule.Poll <= 0 {
		g.rule.Poll = time.Second
	}
	for _, d := range decisions {
		if _, ok := g.decisions[d.ApprovalID]; !ok {
			g.decisions[d.ApprovalID] = d
		}
	}
	info := activity.GetInfo(ctx)
	g.wfID, g.runID = info.WorkflowExecution.ID, info.WorkflowExecution.RunID
	g.client = activity.GetClient(ctx)
	return g
}

// askMargin is how long the approval hook may take beyond KeepAlive: the signal, the queries.
const askMargin = 30 * time.Second

// hookConfig is the PreToolUse hook, with a timeout that lets it wait KeepAlive (v2's default,
// 5 s, would refuse the call after 5 s of waiting: "hook timed out").
func (g *approvalGate) hookConfig() shared.HookConfig {
	c := shared.HookConfig{Handler: g.hook(), Name: "temporalagent approvals"}
	if g.rule.KeepAlive > 0 {
		c.Timeout = g.rule.KeepAlive + askMargin
	}
	return c
}

// hook is the PreToolUse handler.
func (g *approvalGate) hook() shared.HookHandler {
	return shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if !g.rule.Match(in) {
			return nil, nil
		}
		id := ApprovalID(in.ToolName, in.ToolInput)
		if g.rule.PerSession {
			id = SessionApprovalID(in.SessionID, in.ToolName, in.ToolInput)
		}
		if d, ok := g.decisions[id]; ok {
			return answer(d), nil
		}
		if d, ok := g.lookup(ctx, id); ok { // decided in an earlier turn
			return answer(d), nil
		}
		input, _ := jsonv2.Marshal(in.ToolInput, jsonv2.Deterministic(true))
		ap := Approval{ID: id, ToolName: in.ToolName, Input: input, SessionID: in.SessionID, RequestedAt: time.Now().UTC()}
		if err := g.client.SignalWorkflow(ctx, g.wfID, g.runID, SignalRequested, ap); err != nil {
			return shared.Deny("temporalagent: could not ask the workflow for an approval, so the call is refused: " + err.Error()), nil
		}
		if g.rule.KeepAlive > 0 {
			if d, ok := g.await(ctx, id); ok {
				return answer(d), nil
			}
			if ctx.Err() != nil {
				return shared.Deny("temporalagent: the approval wait ended: " + ctx.Err().Error()), nil
			}
		}
		g.tr.freeze()
		g.mu.Lock()
		if g.pending == nil {
			g.pending = &ap
		}
		g.mu.Unlock()
		return &shared.SyncHookOutput{
			Decision:   shared.DecisionDeny,
			Reason:     "waiting for an approval (" + id + "); the session resumes once it is decided",
			Continue:   shared.ContinueNo,
			StopReason: "temporalagent: waiting for approval " + id,
		}, nil
	})
}

// await asks the workflow for the decision on id every Poll, up to KeepAlive.
func (g *approvalGate) await(ctx context.Context, id string) (Decision, bool) {
	defer g.tr.wait()()
	deadline := time.NewTimer(g.rule.KeepAlive)
	defer deadline.Stop()
	tick := time.NewTicker(g.rule.Poll)
	defer tick.Stop()
	for {
		if d, ok := g.lookup(ctx, id); ok {
			return d, true
		}
		select {
		case <-ctx.Done():
			return Decision{}, false
		case <-deadline.C:
			return Decision{}, false
		case <-tick.C:
		}
	}
}

// lookup queries the workflow once; an error is no decision (yet).
func (g *approvalGate) lookup(ctx context.Context, id string) (Decision, bool) {
	v, err := g.client.QueryWorkflow(ctx, g.wfID, g.runID, QueryDecision, id)
	if err != nil {
		return Decision{}, false
	}
	var l DecisionLookup
	if v.Get(&l) != nil || !l.Decided {
		return Decision{}, false
	}
	return l.Decision, true
}

// pendingApproval returns the approval the turn stopped for, or nil.
func (g *approvalGate) pendingApproval() *Approval {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pending
}

// answer is the hook's answer for a decision: a person's approval lets the call run, anything
// else refuses it with the reason, which reaches the model.
func answer(d Decision) shared.HookOutput {
	if d.Approve {
		return shared.Allow()
	}
	reason := "the call was rejected"
	if d.By != "" {
		reason += " by " + d.By
	}
	if d.Reason != "" {
		reason += ": " + d.Reason
	}
	return shared.Deny(reason)
}
