package temporalagent

import (
	"slices"
	"sync"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// tracker follows a turn's messages to know its last completed message: one after which no tool
// call of the main conversation waits for its result. It is fed by the turn's reader and read by
// the heartbeat goroutine.
type tracker struct {
	mu sync.Mutex
	p  Progress
	// With a store, a completed message becomes the resume point only once the store has it, so
	// that another worker can resume there: candidate waits for stored.
	gated         bool
	candidate     string
	candidateDone []string // the tool calls completed up to candidate
	stored        map[string]bool
	done          []string        // every tool call of the turn completed so far
	pending       map[string]bool // tool_use ids asked for and not yet answered
	lastOutput    time.Time       // when the CLI last said something
	waiting       int             // approvals being waited for: the CLI is silent on purpose
	frozen        bool            // the turn stopped for an approval: what follows is not progress
}

// freeze keeps the resume point where it is: the turn stopped for an approval, and the denial
// that ends it must not become a completed message.
func (t *tracker) freeze() {
	t.mu.Lock()
	t.frozen = true
	t.mu.Unlock()
}

func newTracker(p Progress, now time.Time, gated bool) *tracker {
	return &tracker{p: p, pending: map[string]bool{}, lastOutput: now, gated: gated, stored: map[string]bool{}, done: slices.Clone(p.CompletedToolUses)}
}

// set starts the turn's progress at p (where this attempt resumes).
func (t *tracker) set(p Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p, t.done = p, slices.Clone(p.CompletedToolUses)
}

// promptStored takes the uuid of the turn's prompt, which the store accepted: until the turn
// completes a message, it is where a retry resumes (with the continue prompt, in the same
// session).
func (t *tracker) promptStored(uuid string) (advanced bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.p.InTurn || t.frozen || t.candidate != "" {
		return false
	}
	t.p.ResumeAt, t.p.InTurn = uuid, true
	return true
}

// complete makes uuid the resume point, or its candidate until the store has it. The caller
// holds mu.
func (t *tracker) complete(uuid string, done []string) bool {
	if t.frozen {
		return false
	}
	if t.gated && !t.stored[uuid] {
		t.candidate, t.candidateDone = uuid, done
		return false
	}
	t.p.ResumeAt, t.p.InTurn, t.candidate = uuid, true, ""
	t.p.CompletedToolUses = done
	return true
}

// storedUUIDs takes the uuids of entries the store accepted.
func (t *tracker) storedUUIDs(uuids []string) (advanced bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, u := range uuids {
		t.stored[u] = true
	}
	if t.candidate != "" && t.stored[t.candidate] {
		return t.complete(t.candidate, t.candidateDone)
	}
	return false
}

// observe takes one message of the turn.
func (t *tracker) observe(m shared.Message, now time.Time) (advanced bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastOutput = now
	switch m := m.(type) {
	case *shared.AssistantMessage:
		return t.assistant(m)
	case *shared.UserMessage:
		return t.user(m)
	case *shared.SystemMessage:
		if t.p.SessionID == "" && m.SessionID != "" {
			t.p.SessionID = m.SessionID
		}
	}
	return false
}

// assistant takes an assistant message: its tool calls wait for their results; without any, and
// with none left waiting, it is a completed message. The caller holds mu.
func (t *tracker) assistant(m *shared.AssistantMessage) bool {
	if m.ParentToolUseID != nil {
		return false // a subagent's: its Task call is what the main conversation waits for
	}
	if t.p.SessionID == "" {
		t.p.SessionID = m.SessionID
	}
	uses := 0
	for _, b := range m.Message.Content {
		if b.Type == "tool_use" {
			t.pending[b.ID] = true
			uses++
		}
	}
	if uses == 0 && len(t.pending) == 0 && m.UUID != "" {
		return t.complete(m.UUID, slices.Clone(t.done))
	}
	return false
}

// user takes a user message: the tool results it carries complete their calls; once none is left
// waiting, it is a completed message. The caller holds mu.
func (t *tracker) user(m *shared.UserMessage) bool {
	if m.ParentToolUseID != nil || m.IsReplay {
		return false
	}
	answered := false
	for _, b := range m.Blocks {
		if b.Type == "tool_result" && t.pending[b.ToolUseID] {
			delete(t.pending, b.ToolUseID)
			t.done = append(t.done, b.ToolUseID)
			answered = true
		}
	}
	if answered && len(t.pending) == 0 && m.UUID != "" {
		return t.complete(m.UUID, slices.Clone(t.done))
	}
	return false
}

// progress returns a copy of the progress so far.
func (t *tracker) progress() Progress {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.p
	p.CompletedToolUses = slices.Clone(p.CompletedToolUses)
	return p
}

// stuck reports whether the CLI has said nothing for longer than limit while no approval was
// being waited for.
func (t *tracker) stuck(now time.Time, limit time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.waiting == 0 && now.Sub(t.lastOutput) > limit
}

// wait marks the start of an approval wait; the returned func marks its end (and counts as
// output, so that the wait does not make the turn look stuck).
func (t *tracker) wait() (end func()) {
	t.mu.Lock()
	t.waiting++
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.waiting--
		t.lastOutput = time.Now()
		t.mu.Unlock()
	}
}
