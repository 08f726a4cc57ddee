package temporalagent

import "sync"

// IdempotencyKey returns the idempotency key of the tool call toolUseID, while a turn of a and
// its ledger (WithLedger) run it: from the call's PreToolUse until its PostToolUse. ok is false
// for any other id, and always without a ledger.
//
// The key is the same for every request of one call: a call in flight when its worker died
// (the ledger recorded it, never its end) is asked for again by the model after the retry
// resumes, under a new tool_use id, and gets the first request's key. A tool that applies its
// side effect once per key (a payment's idempotency key, an upsert, a row keyed by it) is then
// exactly once, even across a crash mid-call; without the key, that call is at least once. The
// key is unique across workflows, runs and turns: it names the turn (workflow, run, activity)
// and the first request's tool_use id. A completed call is never run again with or without it
// (the ledger answers it).
//
// An in-process tool (claude/mcptools) finds its call's tool_use id with mcptools.ToolUseID (see
// the example).
//
// Built-in tools (Bash, Write, ...) are not given the key: the call in flight at a crash may run
// twice.
func (a *Activities) IdempotencyKey(toolUseID string) (key string, ok bool) {
	return a.keys.get(toolUseID)
}

// idempotencyKeys holds the keys of the tool calls running on a worker, by tool_use id: the
// ledger guards of its turns put a key before the CLI runs the call and take it away after.
type idempotencyKeys struct {
	mu   sync.Mutex
	byID map[string]string
}

func (k *idempotencyKeys) get(toolUseID string) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.byID[toolUseID]
	return key, ok
}

func (k *idempotencyKeys) put(toolUseID, key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byID == nil {
		k.byID = map[string]string{}
	}
	k.byID[toolUseID] = key
}

func (k *idempotencyKeys) drop(toolUseIDs ...string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, id := range toolUseIDs {
		delete(k.byID, id)
	}
}
