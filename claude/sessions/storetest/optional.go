package storetest

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// The checks of the optional interfaces: each is skipped for a store that does not implement it.

// deleteCascades: Delete of a session's key removes it and its subagents, of a subagent's key only
// that subagent; deleting what is not there is no error.
func deleteCascades(t *testing.T, s sessions.ReadableStore) {
	ds, ok := s.(sessions.DeletableStore)
	if !ok {
		t.Skip("not a sessions.DeletableStore")
	}
	for _, k := range []sessions.Key{keyA, subA1, subA2, keyB} {
		mustAppend(t, s, k, entries(0, 2))
	}
	if err := ds.Delete(ctxOf(t), subA2); err != nil {
		t.Fatalf("Delete(%+v): %v", subA2, err)
	}
	wantNotFound(t, s, subA2)
	wantLoad(t, s, subA1, entries(0, 2))
	wantLoad(t, s, keyA, entries(0, 2))
	if err := ds.Delete(ctxOf(t), keyA); err != nil {
		t.Fatalf("Delete(%+v): %v", keyA, err)
	}
	wantNotFound(t, s, keyA)
	wantNotFound(t, s, subA1)
	wantLoad(t, s, keyB, entries(0, 2))
	got, err := s.List(ctxOf(t), project)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Key != keyB {
		t.Errorf("List after Delete = %+v, want only %+v", got, keyB)
	}
	if err := ds.Delete(ctxOf(t), keyA); err != nil {
		t.Errorf("Delete of a deleted key: %v, want no error", err)
	}
}

// summariesFolded: Summaries gives, per session (not per subagent), the FoldSummary of its
// entries, not older than List's Modified; none for another project.
func summariesFolded(t *testing.T, s sessions.ReadableStore) {
	ss, ok := s.(sessions.SummaryStore)
	if !ok {
		t.Skip("not a sessions.SummaryStore")
	}
	prompt := func(text string) jsontext.Value {
		return jsontext.Value(`{"type":"user","uuid":"00000000-0000-4000-8000-0000000000` + text + `","timestamp":"2026-11-25T04:00:00Z","cwd":"/w","message":{"role":"user","content":"prompt ` + text + `"}}`)
	}
	a1 := []jsontext.Value{prompt("01"), jsontext.Value(`{"type":"assistant","uuid":"x","message":{"model":"m1","content":[]}}`)}
	a2 := []jsontext.Value{jsontext.Value(`{"type":"custom-title","customTitle":"T","sessionId":"` + sessionA + `"}`), prompt("02")}
	mustAppend(t, s, keyA, a1)
	mustAppend(t, s, subA1, []jsontext.Value{prompt("03")})
	mustAppend(t, s, keyA, a2)
	mustAppend(t, s, keyB, []jsontext.Value{prompt("04")})
	got, err := ss.Summaries(ctxOf(t), project)
	if err != nil {
		t.Fatalf("Summaries: %v", err)
	}
	want := map[string]sessions.Summary{
		sessionA: sessions.FoldSummary(sessions.FoldSummary(sessions.Summary{}, keyA, a1), keyA, a2),
		sessionB: sessions.FoldSummary(sessions.Summary{}, keyB, []jsontext.Value{prompt("04")}),
	}
	byID := map[string]sessions.Summary{}
	for _, sum := range got {
		byID[sum.SessionID] = sum
		if mod := modified(t, s, sessions.Key{ProjectKey: project, SessionID: sum.SessionID}); sum.Modified.Before(mod) {
			t.Errorf("summary of %s: Modified %v before the transcript's %v", sum.SessionID, sum.Modified, mod)
		}
		sum.Modified = want[sum.SessionID].Modified
		byID[sum.SessionID] = sum
	}
	if diff := cmp.Diff(want, byID); diff != "" {
		t.Errorf("Summaries (-folded +store):\n%s", diff)
	}
	if got, err := ss.Summaries(ctxOf(t), "-never-used"); err != nil || len(got) != 0 {
		t.Errorf("Summaries of a project never appended to = %+v, %v; want none and no error", got, err)
	}
	if errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("Summaries: %v", err)
	}
}
