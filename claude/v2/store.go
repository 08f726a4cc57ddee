package v2

import (
	"context"
	"errors"
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

// mirrorTimeout bounds one Append: the request timeout, unless a test set its own (storeTimeout,
// export_test.go), so that a short store bound does not also bound initialize.
func (o *config) mirrorTimeout() time.Duration {
	if o.storeTimeout > 0 {
		return o.storeTimeout
	}
	return o.requestTimeout
}

// mirrorAttempts is how many times a batch is given to Append.
const mirrorAttempts = 3

// ErrStoreIncomplete is in Close's error when Close stopped waiting for the session store
// (WithSessionStore) with entries not delivered: the store is slow, or its Append ignores its ctx.
// The CLI's own transcript has them (sessions.Dir.Messages).
var ErrStoreIncomplete = errors.New("v2: session store: entries left out at Close")

// errMirrorClosed is the cause of the mirror's ctx when Close stops waiting for it.
var errMirrorClosed = errors.New("v2: session store: Close stopped waiting for the store")

// mirror delivers transcript_mirror batches to a Store, in order, on one goroutine, started by the
// first batch and ended by end. A nil *mirror (no store) does nothing.
type mirror struct {
	store   sessions.Store
	logger  *slog.Logger
	timeout time.Duration
	owner   func() string        // the session's id, for the key check
	emit    func(shared.Message) // queues a mirror_error on the session's stream
	ctx     context.Context
	cancel  context.CancelCauseFunc // by end, when it stops waiting: Appends' ctx end

	mu      sync.Mutex
	queue   []mirrorLine  // transcript_mirror lines not yet delivered
	taken   int           // entries of the lines the goroutine took and has not finished with
	notify  chan struct{} // capacity 1: "something was queued, or end was called"
	ended   bool          // end was called: nothing more is queued
	started bool          // the goroutine runs (from the first line queued)
	done    chan struct{} // closed when the goroutine has returned
}

// mirrorLine is one transcript_mirror line and the session's id when it came.
type mirrorLine struct {
	raw     []byte
	session string
}

func newMirror(store sessions.Store, logger *slog.Logger, timeout time.Duration, owner func() string, emit func(shared.Message)) *mirror {
	if store == nil {
		return nil
	}
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	return &mirror{store: store, logger: logger, timeout: timeout, owner: owner, emit: emit, ctx: ctx, cancel: cancel, notify: make(chan struct{}, 1), done: make(chan struct{})}
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
	owner := m.owner()
	m.mu.Lock()
	if !m.ended {
		m.queue = append(m.queue, mirrorLine{r.Raw, owner})
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

// end makes the goroutine return once the queue is empty, and waits for it at most the timeout;
// then it ends the mirror's ctx (the Append in flight is cancelled, the rest left out) and waits at
// most grace more. It returns an error wrapping ErrStoreIncomplete if entries were left out
// because of it. Call it after the reader has stopped feeding.
func (m *mirror) end(grace time.Duration) error {
	if m == nil {
		return nil
	}
	defer m.cancel(errMirrorClosed)
	m.mu.Lock()
	m.ended = true
	started := m.started
	m.mu.Unlock()
	if !started {
		return nil
	}
	m.wake()
	drain := time.NewTimer(m.timeout)
	defer drain.Stop()
	select {
	case <-m.done:
		return nil
	case <-drain.C:
	}
	m.cancel(errMirrorClosed)
	after := time.NewTimer(grace)
	defer after.Stop()
	returned := true
	select {
	case <-m.done:
	case <-after.C:
		returned = false
	}
	m.mu.Lock()
	left := m.taken
	for _, l := range m.queue {
		left += entriesOf(l.raw)
	}
	m.mu.Unlock()
	m.logger.Error("v2: session store: Close stopped waiting for the store; entries left out", "entries", left, "waited", m.timeout, "append_returned", returned)
	return fmt.Errorf("%w: at least %d entries not delivered after %v (the store is slow, or its Append ignores its ctx)", ErrStoreIncomplete, left, m.timeout)
}

// entriesOf counts a transcript_mirror line's entries (0 if it cannot be read).
func entriesOf(line []byte) int {
	var frame struct {
		Entries []jsontext.Value `json:"entries"`
	}
	if json.Unmarshal(line, &frame, json.RejectUnknownMembers(false)) != nil {
		return 0
	}
	return len(frame.Entries)
}

func (m *mirror) run() {
	defer close(m.done)
	for {
		m.mu.Lock()
		batch := m.queue
		m.queue = nil
		ended := m.ended
		m.mu.Unlock()
		sizes := make([]int, len(batch))
		m.mu.Lock()
		for i, line := range batch {
			sizes[i] = entriesOf(line.raw)
			m.taken += sizes[i]
		}
		m.mu.Unlock()
		for i, line := range batch {
			if m.ctx.Err() != nil || !m.deliver(line) {
				continue // left out: Close counts m.taken
			}
			m.mu.Lock()
			m.taken -= sizes[i]
			m.mu.Unlock()
		}
		if len(batch) == 0 {
			if ended {
				return
			}
			<-m.notify
		}
	}
}

// deliver gives one transcript_mirror line's entries to the store. It returns false if it gave up
// because the mirror's ctx ended (Close stopped waiting), true otherwise (delivered, or refused or
// failed and logged).
func (m *mirror) deliver(l mirrorLine) bool {
	var frame struct {
		FilePath string           `json:"filePath"`
		Entries  []jsontext.Value `json:"entries"`
	}
	if err := json.Unmarshal(l.raw, &frame); err != nil {
		m.logger.Error("v2: session store: unreadable transcript_mirror line", "err", err)
		return true
	}
	key, err := sessions.KeyOf(frame.FilePath)
	if err != nil {
		m.logger.Error("v2: session store: transcript_mirror for an unknown file", "err", err)
		return true
	}
	if key.SessionID != l.session {
		m.logger.Error("v2: session store: transcript_mirror for another session refused; the store is written under this session's id only", "file", frame.FilePath, "session", l.session, "entries", len(frame.Entries))
		return true
	}
	for attempt := 1; ; attempt++ {
		err = m.appendOnce(key, frame.Entries)
		if err == nil {
			return true
		}
		if m.ctx.Err() != nil {
			return false
		}
		if attempt == mirrorAttempts {
			m.logger.Error("v2: session store: Append failed; these entries are left out of the store", "session", key.SessionID, "agent", key.AgentID, "entries", len(frame.Entries), "err", err)
			m.emit(mirrorError(key, err))
			return true
		}
		m.logger.Warn("v2: session store: Append failed; trying again", "session", key.SessionID, "attempt", attempt, "err", err)
		pause := time.NewTimer(time.Duration(attempt) * 100 * time.Millisecond)
		select {
		case <-pause.C:
		case <-m.ctx.Done():
			pause.Stop()
		}
	}
}

// appendOnce calls Append once, bounded by the timeout; a panic is an error (its stack logged).
func (m *mirror) appendOnce(key sessions.Key, entries []jsontext.Value) (err error) {
	ctx, cancel := context.WithTimeout(m.ctx, m.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			m.logger.Error("v2: session store: Append panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("v2: session store: Append panicked: %v", p)
		}
	}()
	return m.store.Append(ctx, key, entries)
}

// mirrorError is the system/mirror_error message of a batch the store did not take, as the
// official SDKs synthesize it: the key as theirs (a subagent's subpath "subagents/agent-<id>"),
// a fresh uuid.
func mirrorError(key sessions.Key, err error) *shared.MirrorErrorMessage {
	m := &shared.MirrorErrorMessage{SystemHeader: shared.SystemHeader{Subtype: "mirror_error", SessionID: key.SessionID, UUID: newUUID()}, Error: err.Error()}
	m.Key.ProjectKey, m.Key.SessionID = key.ProjectKey, key.SessionID
	if key.AgentID != "" {
		m.Key.Subpath = "subagents/agent-" + key.AgentID
	}
	raw, _ := json.Marshal(struct {
		Type string `json:"type"`
		*shared.MirrorErrorMessage
	}{"system", m})
	m.Raw = raw
	return m
}
