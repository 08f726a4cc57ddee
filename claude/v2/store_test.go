package v2_test

import (
	"context"
	"errors"
	"slices"
	"strings"
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
	s := r.session(t, v2.WithSessionStore(store))
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

// waitingStore's Append waits for its ctx and reports how it ended, except for the last batch.
type waitingStore struct {
	ends  records[string]
	calls records[string]
}

func (s *waitingStore) Append(ctx context.Context, _ sessions.Key, entries []jsontext.Value) error {
	s.calls.add(string(entries[0]))
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
	store := &waitingStore{}
	// The store's own bound (its Append waits for ctx to end, whatever the load); initialize
	// keeps the default request timeout.
	s := r.session(t, v2.WithSessionStore(store), v2.WithStoreTimeout(100*time.Millisecond))
	run(t, s, "go")
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
