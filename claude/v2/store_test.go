package v2_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// recordingStore records Append calls; entries holding "FAILS" fail every attempt, and those
// holding "PANICS" panic.
type recordingStore struct {
	calls records[string]
}

func (s *recordingStore) Append(_ context.Context, key sessions.Key, entries []jsontext.Value) error {
	var parts []string
	for _, e := range entries {
		parts = append(parts, string(e))
	}
	call := key.SessionID[:8] + "/" + key.AgentID + " " + strings.Join(parts, " ")
	s.calls.add(call)
	if strings.Contains(call, "FAILS") {
		return errors.New("store down")
	}
	if strings.Contains(call, "PANICS") {
		panic("store bug")
	}
	return nil
}

func mirrorLine(path string, entries ...string) string {
	return `send {"type":"transcript_mirror","filePath":"` + path + `","entries":[` + strings.Join(entries, ",") + `]}` + "\n"
}

// WithSessionStore passes --session-mirror and hands each transcript_mirror line's entries to the
// store, in order, by the key of its file; a failing (or panicking) batch is tried three times and
// left out, and the later ones still come; a line for another file is skipped; Close waits for all of it.
func TestReplay_SessionStore(t *testing.T) {
	t.Parallel()
	const id = "11111111-2222-4333-8444-555555555555"
	base := "/home/me/.claude/projects/-w-p/" + id
	r := newReplay(t, replayInit+expectUser("go")+
		mirrorLine(base+".jsonl", `{"n":1}`, `{"n":2}`)+
		mirrorLine(base+".jsonl", `{"n":"FAILS"}`)+
		mirrorLine("/elsewhere/notes.txt", `{"n":"skipped"}`)+
		mirrorLine(base+"/subagents/agent-a1.jsonl", `{"n":3}`)+
		mirrorLine(base+".jsonl", `{"n":"PANICS"}`)+
		mirrorLine(base+".jsonl", `{"n":4}`)+
		sendResult("done")+"eof\n")
	store := &recordingStore{}
	s := r.session(t, v2.WithSessionStore(store), v2.WithSessionID(id))
	run(t, s, "go")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`11111111/ {"n":1} {"n":2}`,
		`11111111/ {"n":"FAILS"}`, `11111111/ {"n":"FAILS"}`, `11111111/ {"n":"FAILS"}`,
		`11111111/a1 {"n":3}`,
		`11111111/ {"n":"PANICS"}`, `11111111/ {"n":"PANICS"}`, `11111111/ {"n":"PANICS"}`,
		`11111111/ {"n":4}`,
	}
	if diff := cmp.Diff(want, store.calls.all()); diff != "" {
		t.Errorf("Append calls (-want +got):\n%s", diff)
	}
	args, err := v2.ArgsFor(v2.WithSessionStore(store))
	if err != nil || !slices.Contains(args, "--session-mirror") {
		t.Errorf("ArgsFor(WithSessionStore) = %q, %v", args, err)
	}
	if args, _ := v2.ArgsFor(); slices.Contains(args, "--session-mirror") {
		t.Errorf("--session-mirror without a store: %q", args)
	}
}

// waitingStore's Append waits for its ctx and reports how it ended, except for the last batch,
// which closes last.
type waitingStore struct {
	ends  records[string]
	calls records[string]
	last  chan struct{}
}

func (s *waitingStore) Append(ctx context.Context, _ sessions.Key, entries []jsontext.Value) error {
	s.calls.add(string(entries[0]))
	if string(entries[0]) == `{"n":5}` {
		close(s.last)
	}
	if strings.Contains(string(entries[0]), "WAITS") {
		<-ctx.Done()
		s.ends.add(ctx.Err().Error())
		return ctx.Err()
	}
	return nil
}

// A store's Append is bounded (by the request timeout; here by the test's WithStoreTimeout): one
// that hangs until its ctx ends is given up after three attempts, and the next batch still reaches the store.
func TestReplay_SessionStoreAppendTimeout(t *testing.T) {
	t.Parallel()
	const id = "11111111-2222-4333-8444-555555555555"
	base := "/home/me/.claude/projects/-w-p/" + id
	r := newReplay(t, replayInit+expectUser("go")+
		mirrorLine(base+".jsonl", `{"n":"WAITS"}`)+
		mirrorLine(base+".jsonl", `{"n":5}`)+
		sendResult("done")+"eof\n")
	store := &waitingStore{last: make(chan struct{})}
	// The store's own bound (its Append waits for ctx to end, whatever the load); initialize
	// keeps the default request timeout.
	s := r.session(t, v2.WithSessionStore(store), v2.WithStoreTimeout(100*time.Millisecond), v2.WithSessionID(id))
	run(t, s, "go")
	within(t, "the last batch", func() struct{} { <-store.last; return struct{}{} })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`{"n":"WAITS"}`, `{"n":"WAITS"}`, `{"n":"WAITS"}`, `{"n":5}`}, store.calls.all()); diff != "" {
		t.Errorf("Append calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"context deadline exceeded", "context deadline exceeded", "context deadline exceeded"}, store.ends.all()); diff != "" {
		t.Errorf("the hanging Append's ctx ended with (-want +got):\n%s", diff)
	}
}

// stuckStore's Append ignores its ctx: it returns only when release is closed. started is closed
// at its first call.
type stuckStore struct {
	started, release chan struct{}
	once             sync.Once
}

func (s *stuckStore) Append(context.Context, sessions.Key, []jsontext.Value) error {
	s.once.Do(func() { close(s.started) })
	<-s.release
	return nil
}

// Close is bounded whatever the store does: with an Append that ignores its ctx, Close returns
// after the request timeout and the close grace, with ErrStoreIncomplete counting the entries
// left out. Before the fix Close waited for the Append forever.
func TestReplay_SessionStoreCloseBounded(t *testing.T) {
	t.Parallel()
	const id = "11111111-2222-4333-8444-555555555555"
	base := "/home/me/.claude/projects/-w-p/" + id
	r := newReplay(t, replayInit+expectUser("go")+
		mirrorLine(base+".jsonl", `{"n":1}`)+
		mirrorLine(base+".jsonl", `{"n":2}`, `{"n":3}`)+
		sendResult("done")+"eof\n")
	store := &stuckStore{started: make(chan struct{}), release: make(chan struct{})}
	defer close(store.release) // after Close: the store's goroutine ends
	s := r.session(t, v2.WithSessionStore(store), v2.WithSessionID(id),
		v2.WithRequestTimeout(2*time.Second), v2.WithCloseGrace(200*time.Millisecond))
	run(t, s, "go")
	within(t, "the first Append", func() struct{} { <-store.started; return struct{}{} })
	err := within(t, "Close", s.Close)
	if !errors.Is(err, v2.ErrStoreIncomplete) || !strings.Contains(err.Error(), "at least 3 entries") {
		t.Errorf("Close = %v, want ErrStoreIncomplete counting 3 entries", err)
	}
}

// A transcript_mirror line for a file of another session is not appended to that session in the
// store; the session's own lines are. Before the fix it was appended under the other session's key.
func TestReplay_SessionStoreOtherSessionRefused(t *testing.T) {
	t.Parallel()
	const id = "11111111-2222-4333-8444-555555555555"
	const other = "99999999-2222-4333-8444-555555555555"
	dir := "/home/me/.claude/projects/-w-p/"
	r := newReplay(t, replayInit+expectUser("go")+
		mirrorLine(dir+other+".jsonl", `{"n":"injected"}`)+
		mirrorLine(dir+other+"/subagents/agent-a1.jsonl", `{"n":"injected"}`)+
		mirrorLine(dir+id+".jsonl", `{"n":1}`)+
		sendResult("done")+"eof\n")
	store := &recordingStore{}
	s := r.session(t, v2.WithSessionStore(store), v2.WithSessionID(id))
	run(t, s, "go")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`11111111/ {"n":1}`}, store.calls.all()); diff != "" {
		t.Errorf("Append calls (-want +got):\n%s", diff)
	}
}
