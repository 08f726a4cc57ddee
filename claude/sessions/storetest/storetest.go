// Package storetest checks that a sessions.ReadableStore keeps the contract the SDK relies on to
// mirror transcripts to it and resume sessions from it. Run it from a test of the store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) sessions.ReadableStore { return newEmptyStore(t) })
//	}
//
// newStore is called once per check, and must return a store that holds nothing (a new directory,
// a new database schema), cleaned up with t.Cleanup.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// Session ids and keys the checks use. They have the forms the CLI gives them, so that a store
// that validates keys (FileStore) takes them.
const (
	sessionA = "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a01"
	sessionB = "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a02"
	project  = "-work-project"
	project2 = "-work-project2"
)

var (
	keyA     = sessions.Key{ProjectKey: project, SessionID: sessionA}
	keyB     = sessions.Key{ProjectKey: project, SessionID: sessionB}
	subA1    = sessions.Key{ProjectKey: project, SessionID: sessionA, AgentID: "a561eacde5151d284"}
	subA2    = sessions.Key{ProjectKey: project, SessionID: sessionA, AgentID: "agent_2-x"}
	otherKey = sessions.Key{ProjectKey: project2, SessionID: sessionA}
)

// Run runs the checks of the contract of sessions.Store and sessions.ReadableStore, and of
// sessions.DeletableStore and sessions.SummaryStore for a store that implements them (skipped
// otherwise), each as a subtest with a store of its own from newStore.
func Run(t *testing.T, newStore func(t *testing.T) sessions.ReadableStore) {
	checks := []struct {
		name string
		run  func(t *testing.T, s sessions.ReadableStore)
	}{
		{"AppendThenLoad", appendThenLoad},
		{"LoadUnknownKey", loadUnknownKey},
		{"AppendNothing", appendNothing},
		{"KeysApart", keysApart},
		{"ValuesKept", valuesKept},
		{"ManyEntriesInOrder", manyEntriesInOrder},
		{"EntriesNotKept", entriesNotKept},
		{"List", list},
		{"ListModified", listModified},
		{"ConcurrentSessions", concurrentSessions},
		{"CancelledContext", cancelledContext},
		{"DeleteCascades", deleteCascades},
		{"SummariesFolded", summariesFolded},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.run(t, newStore(t)) })
	}
}

// entry returns a transcript-like entry with a uuid made of n.
func entry(n int, more string) jsontext.Value {
	return jsontext.Value(fmt.Sprintf(`{"type":"user","uuid":"00000000-0000-4000-8000-%012d","n":%d%s}`, n, n, more))
}

func entries(from, to int) []jsontext.Value {
	var out []jsontext.Value
	for n := from; n < to; n++ {
		out = append(out, entry(n, ""))
	}
	return out
}

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustAppend(t *testing.T, s sessions.Store, k sessions.Key, es []jsontext.Value) {
	t.Helper()
	if err := s.Append(ctxOf(t), k, es); err != nil {
		t.Fatalf("Append(%+v, %d entries): %v", k, len(es), err)
	}
}

// canonical returns the entries in a form equal for equal JSON values (RFC 8785).
func canonical(t *testing.T, es []jsontext.Value) []string {
	t.Helper()
	out := make([]string, len(es))
	for i, e := range es {
		v := jsontext.Value(slices.Clone(e))
		if err := v.Canonicalize(); err != nil {
			t.Fatalf("entry %d is not JSON: %v: %s", i, err, e)
		}
		out[i] = string(v)
	}
	return out
}

// wantLoad checks that Load(k) returns want, as JSON values.
func wantLoad(t *testing.T, s sessions.ReadableStore, k sessions.Key, want []jsontext.Value) {
	t.Helper()
	got, err := s.Load(ctxOf(t), k)
	if err != nil {
		t.Fatalf("Load(%+v): %v", k, err)
	}
	if diff := cmp.Diff(canonical(t, want), canonical(t, got)); diff != "" {
		t.Errorf("Load(%+v) (-appended +loaded):\n%s", k, diff)
	}
}

func wantNotFound(t *testing.T, s sessions.ReadableStore, k sessions.Key) {
	t.Helper()
	got, err := s.Load(ctxOf(t), k)
	if !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("Load(%+v) = %d entries, %v; want an error wrapping sessions.ErrNotFound", k, len(got), err)
	}
}

// appendThenLoad: entries come back in the order of the Append calls and within each.
func appendThenLoad(t *testing.T, s sessions.ReadableStore) {
	mustAppend(t, s, keyA, []jsontext.Value{entry(2, ""), entry(1, "")})
	mustAppend(t, s, keyA, []jsontext.Value{entry(9, "")})
	mustAppend(t, s, keyA, []jsontext.Value{entry(3, ""), entry(0, ""), entry(7, "")})
	wantLoad(t, s, keyA, []jsontext.Value{entry(2, ""), entry(1, ""), entry(9, ""), entry(3, ""), entry(0, ""), entry(7, "")})
}

// loadUnknownKey: a key never appended to is ErrNotFound, also beside keys that were.
func loadUnknownKey(t *testing.T, s sessions.ReadableStore) {
	wantNotFound(t, s, keyA)
	mustAppend(t, s, keyA, entries(0, 1))
	wantNotFound(t, s, keyB)
	wantNotFound(t, s, subA1)
	wantNotFound(t, s, otherKey)
}

// appendNothing: an Append of no entries creates no key.
func appendNothing(t *testing.T, s sessions.ReadableStore) {
	mustAppend(t, s, keyA, nil)
	mustAppend(t, s, subA1, []jsontext.Value{})
	wantNotFound(t, s, keyA)
	wantNotFound(t, s, subA1)
	if got, err := s.List(ctxOf(t), project); err != nil || len(got) != 0 {
		t.Errorf("List after Appends of nothing = %+v, %v; want none", got, err)
	}
	mustAppend(t, s, keyA, entries(0, 2))
	mustAppend(t, s, keyA, nil)
	wantLoad(t, s, keyA, entries(0, 2))
}

// keysApart: sessions, subagents and projects do not share entries.
func keysApart(t *testing.T, s sessions.ReadableStore) {
	keys := []sessions.Key{keyA, keyB, subA1, subA2, otherKey, {ProjectKey: project2, SessionID: sessionA, AgentID: subA1.AgentID}}
	for i, k := range keys {
		mustAppend(t, s, k, entries(i*10, i*10+i+1))
	}
	for i, k := range keys {
		wantLoad(t, s, k, entries(i*10, i*10+i+1))
	}
}

// valuesKept: every JSON value comes back equal: escapes, NUL, line separators, non-ASCII,
// nesting, numbers, empty containers, long strings.
func valuesKept(t *testing.T, s sessions.ReadableStore) {
	es := []jsontext.Value{
		jsontext.Value(`{"type":"user","text":"line\nbreak\ttab \"quoted\" back\\slash \u0000 nul \u2028\u2029 </script>"}`),
		jsontext.Value("{\"type\":\"assistant\",\"text\":\"caf\u00e9 \u65e5\u672c \U0001F600\",\"escaped\":\"\\u00e9\\ud83d\\ude00\"}"),
		jsontext.Value(`{ "type" : "x", "nested" : {"a":[1,2.5,-3e-7,{"b":null}],"c":true,"d":false}, "empty":{}, "list":[] }`),
		jsontext.Value(`{"type":"x","big":12345678901234,"neg":-0.125,"zero":0}`),
		jsontext.Value(`{"type":"x","long":"` + strings.Repeat("0123456789abcdef", 64<<10/16) + `"}`),
		jsontext.Value(`{}`),
	}
	mustAppend(t, s, keyA, es)
	wantLoad(t, s, keyA, es)
}

// manyEntriesInOrder: a few thousand entries in batches of various sizes keep their order.
func manyEntriesInOrder(t *testing.T, s sessions.ReadableStore) {
	n := 0
	for _, size := range []int{1, 500, 7, 1000, 3, 250, 1} {
		mustAppend(t, s, keyA, entries(n, n+size))
		n += size
	}
	wantLoad(t, s, keyA, entries(0, n))
}

// entriesNotKept: the store does not keep the caller's entries past Append (their memory may be
// reused), and Load's result is the caller's to change.
func entriesNotKept(t *testing.T, s sessions.ReadableStore) {
	es := entries(0, 3)
	mustAppend(t, s, keyA, es)
	for _, e := range es {
		copy(e[len(e)-2:], "9}") // the same length, another value
	}
	wantLoad(t, s, keyA, entries(0, 3))
	got, err := s.Load(ctxOf(t), keyA)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		for i := range e {
			e[i] = ' '
		}
	}
	wantLoad(t, s, keyA, entries(0, 3))
}

// list: one Transcript per key of the project, subagents included; none for other projects.
func list(t *testing.T, s sessions.ReadableStore) {
	if got, err := s.List(ctxOf(t), project); err != nil || len(got) != 0 {
		t.Errorf("List of an empty store = %+v, %v; want none and no error", got, err)
	}
	for _, k := range []sessions.Key{keyA, keyB, subA1, subA2, otherKey} {
		mustAppend(t, s, k, entries(0, 2))
		mustAppend(t, s, k, entries(2, 3))
	}
	got, err := s.List(ctxOf(t), project)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var keys []sessions.Key
	for _, tr := range got {
		keys = append(keys, tr.Key)
	}
	less := func(a, b sessions.Key) int {
		return strings.Compare(a.ProjectKey+"/"+a.SessionID+"/"+a.AgentID, b.ProjectKey+"/"+b.SessionID+"/"+b.AgentID)
	}
	slices.SortFunc(keys, less)
	want := []sessions.Key{keyA, subA1, subA2, keyB}
	slices.SortFunc(want, less)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("List(%q) keys (-want +got):\n%s", project, diff)
	}
	if got, err := s.List(ctxOf(t), "-never-used"); err != nil || len(got) != 0 {
		t.Errorf("List of a project never appended to = %+v, %v; want none and no error", got, err)
	}
}

// listModified: Modified is a plausible time of the last Append (the store's clock may differ
// from the test's, by less than a day), and does not go back when entries are appended.
func listModified(t *testing.T, s sessions.ReadableStore) {
	mustAppend(t, s, keyA, entries(0, 1))
	first := modified(t, s, keyA)
	if d := time.Since(first); d > 24*time.Hour || d < -24*time.Hour {
		t.Errorf("Modified = %v, %v from now: not the time of the Append", first, d)
	}
	mustAppend(t, s, keyA, entries(1, 2))
	if second := modified(t, s, keyA); second.Before(first) {
		t.Errorf("Modified went back from %v to %v after an Append", first, second)
	}
}

func modified(t *testing.T, s sessions.ReadableStore, k sessions.Key) time.Time {
	t.Helper()
	got, err := s.List(ctxOf(t), k.ProjectKey)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	for _, tr := range got {
		if tr.Key == k {
			if tr.Modified.IsZero() {
				t.Fatalf("List: %+v has no Modified time", k)
			}
			return tr.Modified
		}
	}
	t.Fatalf("List(%q) = %+v, without %+v", k.ProjectKey, got, k)
	return time.Time{}
}

// concurrentSessions: Appends to distinct sessions from goroutines at once, each session's in
// order, keep each session's entries apart and in order.
func concurrentSessions(t *testing.T, s sessions.ReadableStore) {
	const sessionsN, batches = 8, 20
	keys := make([]sessions.Key, sessionsN)
	var wg sync.WaitGroup
	errs := make(chan error, sessionsN)
	for i := range keys {
		keys[i] = sessions.Key{ProjectKey: project, SessionID: fmt.Sprintf("0a4ad2a5-98a6-4c7b-9a1c-%012d", i)}
		wg.Go(func() {
			for b := range batches {
				if err := s.Append(ctxOf(t), keys[i], entries(b*3, b*3+3)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Append: %v", err)
	}
	for _, k := range keys {
		wantLoad(t, s, k, entries(0, batches*3))
	}
}

// cancelledContext: every call returns an error wrapping the context's when ctx is done, and an
// Append on a cancelled context adds nothing.
func cancelledContext(t *testing.T, s sessions.ReadableStore) {
	mustAppend(t, s, keyA, entries(0, 1))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Append(ctx, keyA, entries(1, 2)); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a cancelled context = %v, want an error wrapping context.Canceled", err)
	}
	if got, err := s.Load(ctx, keyA); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context = %d entries, %v; want an error wrapping context.Canceled", len(got), err)
	}
	if got, err := s.List(ctx, project); !errors.Is(err, context.Canceled) {
		t.Errorf("List with a cancelled context = %+v, %v; want an error wrapping context.Canceled", got, err)
	}
	wantLoad(t, s, keyA, entries(0, 1))
}
