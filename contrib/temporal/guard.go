package temporalagent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ledgerGuard is one attempt's side of the ledger (WithLedger): its PreToolUse hook records each
// tool call before the CLI runs it, its PostToolUse hooks record that it ran and its result, and
// a call the model asks for again after a resume, that the ledger already marks done, is answered
// from the ledger instead of being run. Every write is fenced: once a later attempt claimed the
// turn, the hook refuses the call, stops the CLI's turn, and ends it (fence).
type ledgerGuard struct {
	ledger  Ledger
	turn    string
	attempt int
	fence   func(error) // ends the attempt with a *FencedError
	logger  *slog.Logger
	keys    *idempotencyKeys // the worker's keys of running calls (Activities.IdempotencyKey)

	mu      sync.Mutex
	answers []ledgerCall // calls done by an earlier attempt that the model may ask for again
	inDoubt []ledgerCall // calls an earlier attempt began and never finished: their keys
	running []string     // tool_use ids of this attempt's calls with a key in keys
	reused  int          // calls answered from the ledger
}

// hooks returns the guard's hooks, keyed by event.
func (g *ledgerGuard) hooks() map[shared.HookEvent]shared.HookHandler {
	return map[shared.HookEvent]shared.HookHandler{
		shared.HookEventPreToolUse:         shared.OnPreToolUse(g.pre),
		shared.HookEventPostToolUse:        shared.OnPostToolUse(g.post),
		shared.HookEventPostToolUseFailure: shared.OnPostToolUseFailure(g.failed),
	}
}

// pre answers a call the ledger marks done from the ledger, and records any other before it runs.
func (g *ledgerGuard) pre(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
	key := ApprovalID(in.ToolName, in.ToolInput)
	if c, ok := g.take(in.ToolUseID, key); ok {
		what := "returned"
		if c.failed {
			what = "failed with"
		}
		return shared.Deny(fmt.Sprintf("temporalagent: this call already ran (as %s) before the session was resumed "+
			"after its worker stopped; it is not run again. It %s:\n%s", c.toolUseID, what, c.result)), nil
	}
	idem, inDoubt := g.idempotencyKey(in.ToolUseID, key)
	err := g.ledger.Append(ctx, g.turn, g.attempt, LedgerEntry{Kind: EntryCall, Attempt: g.attempt, SessionID: in.SessionID,
		ToolUseID: in.ToolUseID, ToolName: in.ToolName, CallKey: key, IdempotencyKey: idem})
	if errors.Is(err, ErrFenced) {
		g.fence(err)
		return &shared.SyncHookOutput{Decision: shared.DecisionDeny, Reason: "temporalagent: a later attempt owns this turn",
			Continue: shared.ContinueNo, StopReason: "temporalagent: a later attempt owns this turn"}, nil
	}
	if err != nil {
		g.giveBack(inDoubt) // the call did not run: a request for it again keeps the key
		return shared.Deny("temporalagent: the call is refused: the ledger could not record it, so it could run twice: " + err.Error()), nil
	}
	g.keys.put(in.ToolUseID, idem)
	g.mu.Lock()
	g.running = append(g.running, in.ToolUseID)
	g.mu.Unlock()
	return nil, nil
}

// idempotencyKey returns the key of the call id asks for: the key of a call in doubt with the
// same tool and input (the model asks for it again after the resume), taken off the calls in
// doubt and returned with it, else a new one, of the turn and id. A call in doubt gives its key
// once.
func (g *ledgerGuard) idempotencyKey(id, key string) (string, *ledgerCall) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, c := range g.inDoubt {
		if c.key == key {
			g.inDoubt = append(g.inDoubt[:i], g.inDoubt[i+1:]...)
			return c.idem, &c
		}
	}
	return newIdempotencyKey(g.turn, id), nil
}

// giveBack returns a call in doubt that idempotencyKey took (nil: none), for a request that did
// not run.
func (g *ledgerGuard) giveBack(c *ledgerCall) {
	if c == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inDoubt = append([]ledgerCall{*c}, g.inDoubt...)
}

// release drops the keys of the attempt's calls that are still running: the attempt has ended.
func (g *ledgerGuard) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.keys.drop(g.running...)
	g.running = nil
}

// post records a call that ran, with its result.
func (g *ledgerGuard) post(ctx context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
	g.done(ctx, in.SessionID, in.ToolCallFields, string(in.ToolResponse), false)
	return nil, nil
}

// failed records a call that ran and failed, with its error.
func (g *ledgerGuard) failed(ctx context.Context, in *shared.PostToolUseFailureHookInput) (shared.HookOutput, error) {
	g.done(ctx, in.SessionID, in.ToolCallFields, in.Error, true)
	return nil, nil
}

// done writes a done entry. A failure is logged: the call ran, and a retry will take it for one
// in flight (it may run again).
func (g *ledgerGuard) done(ctx context.Context, session string, call shared.ToolCallFields, result string, failed bool) {
	g.keys.drop(call.ToolUseID)
	if len(result) > maxRecordedResult {
		result = result[:maxRecordedResult] + "…"
	}
	err := g.ledger.Append(ctx, g.turn, g.attempt, LedgerEntry{Kind: EntryDone, Attempt: g.attempt, SessionID: session,
		ToolUseID: call.ToolUseID, ToolName: call.ToolName, CallKey: ApprovalID(call.ToolName, call.ToolInput), Result: result, Failed: failed})
	if errors.Is(err, ErrFenced) {
		g.fence(err)
	}
	if err != nil {
		g.logger.Error("temporalagent: the ledger did not record a call that ran; a retry may run it again",
			"tool_use_id", call.ToolUseID, "tool", call.ToolName, "error", err)
	}
}

// take removes and returns the done call that id or key names, if any.
func (g *ledgerGuard) take(id, key string) (ledgerCall, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	i := -1
	for j, c := range g.answers {
		if c.toolUseID == id {
			i = j
			break
		}
		if i < 0 && c.key == key {
			i = j
		}
	}
	if i < 0 {
		return ledgerCall{}, false
	}
	c := g.answers[i]
	g.answers = append(g.answers[:i], g.answers[i+1:]...)
	g.reused++
	return c, true
}
