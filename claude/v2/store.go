package v2

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// WithSessionStore mirrors the session's transcripts (its own and its subagents') to store as the
// CLI writes them: the CLI reports each write on its stdout (--session-mirror, a
// "transcript_mirror" line, which Receive and Query also yield, as a *shared.RawMessage), and the
// session calls store.Append with its entries, on a goroutine of its own, so that a slow store
// never slows the CLI. The contract (order, at least once, crash) is sessions.Store's: each
// Append is bounded by the request timeout (WithRequestTimeout) and made three times at most (a
// panic counts as a failure, its stack logged); a batch that still fails is logged at level Error
// and left out, and the later ones are still delivered. Close returns once every batch is delivered or left out. The CLI keeps writing its
// own transcript too. Default: none.
func WithSessionStore(store sessions.Store) Option {
	return optionFunc(func(o *options) { o.store, o.storeGiven = store, true })
}

// mirrorTimeout bounds one Append: the request timeout, unless a test set its own (storeTimeout,
// export_test.go), so that a short store bound does not also bound initialize.
func (o *options) mirrorTimeout() time.Duration {
	if o.storeTimeout > 0 {
		return o.storeTimeout
	}
	return o.requestTimeout
}

// mirrorAttempts is how many times a batch is given to Append.
const mirrorAttempts = 3

// storeArgs returns the flags of WithSessionStore.
func (o *options) storeArgs() []string {
	if o.store == nil {
		return nil
	}
	return []string{"--session-mirror"}
}

// mirror delivers transcript_mirror batches to a Store, in order, on one goroutine, started by the
// first batch and ended by end. A nil *mirror (no store) does nothing.
type mirror struct {
	store   sessions.Store
	logger  *slog.Logger
	timeout time.Duration

	mu      sync.Mutex
	queue   [][]byte      // transcript_mirror lines not yet delivered
	notify  chan struct{} // capacity 1: "something was queued, or end was called"
	ended   bool          // end was called: nothing more is queued
	started bool          // the goroutine runs (from the first line queued)
	done    chan struct{} // closed when the goroutine has returned
}

func newMirror(store sessions.Store, logger *slog.Logger, timeout time.Duration) *mirror {
	if store == nil {
		return nil
	}
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	return &mirror{store: store, logger: logger, timeout: timeout, notify: make(chan struct{}, 1), done: make(chan struct{})}
}

// feed queues msg if it is a transcript_mirror line. It runs on the stdout reader: a type check
// and an append.
func (m *mirror) feed(msg shared.Message) {
	if m == nil {
		return
	}
	r, ok := msg.(*shared.RawMessage)
	if !ok || r.MessageType != "transcript_mirror" {
		return
	}
	m.mu.Lock()
	if !m.ended {
		m.queue = append(m.queue, r.Raw)
		if !m.started {
			m.started = true
			go m.run() // the mirror goroutine: returns after end, once the queue is empty
		}
	}
	m.mu.Unlock()
	m.wake()
}

func (m *mirror) wake() {
	select {
	case m.notify <- struct{}{}:
	default:
	}
}

// end makes the goroutine return once the queue is empty, and waits for it. Call it after the
// reader has stopped feeding.
func (m *mirror) end() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.ended = true
	started := m.started
	m.mu.Unlock()
	if started {
		m.wake()
		<-m.done
	}
}

func (m *mirror) run() {
	defer close(m.done)
	for {
		m.mu.Lock()
		batch := m.queue
		m.queue = nil
		ended := m.ended
		m.mu.Unlock()
		for _, line := range batch {
			m.deliver(line)
		}
		if len(batch) == 0 {
			if ended {
				return
			}
			<-m.notify
		}
	}
}

// deliver gives one transcript_mirror line's entries to the store.
func (m *mirror) deliver(line []byte) {
	var frame struct {
		FilePath string           `json:"filePath"`
		Entries  []jsontext.Value `json:"entries"`
	}
	if err := json.Unmarshal(line, &frame); err != nil {
		m.logger.Error("v2: session store: unreadable transcript_mirror line", "err", err)
		return
	}
	key, err := sessions.KeyOf(frame.FilePath)
	if err != nil {
		m.logger.Error("v2: session store: transcript_mirror for an unknown file", "err", err)
		return
	}
	for attempt := 1; ; attempt++ {
		err = m.appendOnce(key, frame.Entries)
		if err == nil {
			return
		}
		if attempt == mirrorAttempts {
			m.logger.Error("v2: session store: Append failed; these entries are left out of the store", "session", key.SessionID, "agent", key.AgentID, "entries", len(frame.Entries), "err", err)
			return
		}
		m.logger.Warn("v2: session store: Append failed; trying again", "session", key.SessionID, "attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
}

// appendOnce calls Append once, bounded by the timeout; a panic is an error (its stack logged).
func (m *mirror) appendOnce(key sessions.Key, entries []jsontext.Value) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), m.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			m.logger.Error("v2: session store: Append panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("v2: session store: Append panicked: %v", p)
		}
	}()
	return m.store.Append(ctx, key, entries)
}
