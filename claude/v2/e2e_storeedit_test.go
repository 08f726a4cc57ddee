package v2_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/sessions/storetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Store-backed sessions (the official SDKs' *_via_store / sessionStore functions) on a session
// the real CLI ran and mirrored: StatStore reads what Dir.Stat reads of the CLI's own transcript;
// RenameInStore and TagInStore show in ListStore, which reads the store's summaries without
// loading a transcript; ForkInStore makes a session with fresh uuids, forkedFrom and a derived
// title, which the CLI on another machine resumes from the store with exactly the conversation
// up to the fork point; DeleteFromStore removes the original and keeps the fork.
func TestRealCLI_StoreEdits(t *testing.T) {
	t.Parallel()
	a := textEnv(t, "A1", "A2")
	store := &storetest.Memory{}
	s := a.session(t, v2.WithSessionStore(store))
	id := s.SessionID()
	live, _ := query(t, s, "P1")
	query(t, s, "P2")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	atA1 := assistantUUID(t, live, "A1")
	ctx := testCtx(t)
	pk := sessions.ProjectKey(a.project)

	// One session's Info from the store: what Dir.Stat reads of the CLI's transcript.
	local, err := sessions.Dir(filepath.Join(a.home, ".claude")).Stat(a.project, id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sessions.StatStore(ctx, store, pk, id)
	if err != nil {
		t.Fatal(err)
	}
	pick := func(i sessions.Info) []string {
		return []string{i.ID, i.Title, i.CustomTitle, i.Tag, i.FirstPrompt, i.LastPrompt, i.Model, i.Cwd, i.GitBranch, i.Started.String()}
	}
	if diff := cmp.Diff(pick(local), pick(got)); diff != "" || got.FirstPrompt != "P1" {
		t.Errorf("StatStore (-Dir.Stat of the CLI's transcript +store):\n%s", diff)
	}

	if err := sessions.RenameInStore(ctx, store, pk, id, "STORE-TITLE"); err != nil {
		t.Fatal(err)
	}
	if err := sessions.TagInStore(ctx, store, pk, id, "STORE-TAG"); err != nil {
		t.Fatal(err)
	}
	loads := store.Loads()
	list, err := sessions.ListStore(ctx, store, pk)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != id || list[0].Title != "STORE-TITLE" || list[0].Tag != "STORE-TAG" || list[0].FirstPrompt != "P1" {
		t.Errorf("ListStore after RenameInStore and TagInStore = %+v", list)
	}
	if n := store.Loads() - loads; n != 0 {
		t.Errorf("ListStore loaded %d transcripts; the summaries should have served", n)
	}

	fork, err := sessions.ForkInStore(ctx, store, pk, id, sessions.ForkOptions{UpTo: atA1})
	if err != nil {
		t.Fatal(err)
	}
	original, _ := store.Load(ctx, sessions.Key{ProjectKey: pk, SessionID: id})
	forked, _ := store.Load(ctx, sessions.Key{ProjectKey: pk, SessionID: fork})
	checkFork(t, original, forked, id, fork, atA1)

	// The CLI on another machine resumes the fork from the store.
	b := textEnv(t, "B3")
	s = b.session(t, v2.WithCwd(a.project), v2.WithResume(fork), v2.WithSessionStore(store))
	if got := s.SessionID(); got != fork {
		t.Errorf("SessionID() = %s, want the fork %s", got, fork)
	}
	query(t, s, "P3")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	last, _ := b.api.LastRequest()
	if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P3"}, conversationTexts(last)); diff != "" {
		t.Errorf("the resumed fork's request (-want +got):\n%s", diff)
	}

	if err := sessions.DeleteFromStore(ctx, store, pk, id); err != nil {
		t.Fatal(err)
	}
	if _, err := sessions.StatStore(ctx, store, pk, id); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("StatStore after DeleteFromStore: %v, want ErrNotFound", err)
	}
	list, err = sessions.ListStore(ctx, store, pk)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != fork || list[0].Title != "STORE-TITLE (fork)" {
		t.Errorf("ListStore after DeleteFromStore = %+v, want only the fork, titled %q", list, "STORE-TITLE (fork)")
	}
}

// checkFork checks the fork's first entries against the original's messages up to atA1: fresh
// uuids, the parent chain kept under the new uuids, forkedFrom naming each original, the fork's
// session id; then its title.
func checkFork(t *testing.T, original, forked []jsontext.Value, id, fork, upTo string) {
	t.Helper()
	type entry struct {
		Type        string  `json:"type"`
		UUID        string  `json:"uuid"`
		Parent      *string `json:"parentUuid"`
		SessionID   string  `json:"sessionId"`
		CustomTitle string  `json:"customTitle"`
		ForkedFrom  *struct {
			SessionID   string `json:"sessionId"`
			MessageUUID string `json:"messageUuid"`
		} `json:"forkedFrom"`
	}
	decode := func(v jsontext.Value) entry {
		var e entry
		if err := json.Unmarshal(v, &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	origByUUID := map[string]entry{}
	for _, v := range original {
		if e := decode(v); e.UUID != "" {
			origByUUID[e.UUID] = e
		}
	}
	newToOld := map[string]string{}
	var chain []string
	for i, v := range forked {
		e := decode(v)
		if e.SessionID != fork {
			t.Errorf("fork entry %d has session %q, want %s", i, e.SessionID, fork)
		}
		if _, clash := origByUUID[e.UUID]; clash || e.UUID == "" {
			t.Errorf("fork entry %d (%s) has the uuid %q: not fresh", i, e.Type, e.UUID)
		}
		if e.Type == "custom-title" {
			if i != len(forked)-1 || e.CustomTitle != "STORE-TITLE (fork)" {
				t.Errorf("fork entry %d: a title %q; want the last entry, %q", i, e.CustomTitle, "STORE-TITLE (fork)")
			}
			continue
		}
		if e.ForkedFrom == nil || e.ForkedFrom.SessionID != id {
			t.Fatalf("fork entry %d: forkedFrom %+v, want the session %s", i, e.ForkedFrom, id)
		}
		old, ok := origByUUID[e.ForkedFrom.MessageUUID]
		if !ok || old.Type != e.Type {
			t.Fatalf("fork entry %d (%s): forkedFrom names %q, no %s of the original", i, e.Type, e.ForkedFrom.MessageUUID, e.Type)
		}
		newToOld[e.UUID] = old.UUID
		if (e.Parent == nil) != (old.Parent == nil) || e.Parent != nil && newToOld[*e.Parent] != *old.Parent {
			t.Errorf("fork entry %d: parent %v does not map to the original's %v", i, e.Parent, old.Parent)
		}
		chain = append(chain, e.Type)
	}
	if len(newToOld) == 0 || !mapsTo(newToOld, upTo) {
		t.Errorf("the fork does not end at %s: %v", upTo, chain)
	}
	t.Logf("fork: %s", strings.Join(chain, ", "))
}

func mapsTo(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}

// alwaysFailing is a store whose Append always fails; failed is closed at the third failure of
// the first batch, the last attempt the mirror makes before giving it up.
type alwaysFailing struct {
	calls  atomic.Int32
	failed chan struct{}
}

func (s *alwaysFailing) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if s.calls.Add(1) == 3 {
		close(s.failed)
	}
	return errors.New("STORE-DOWN")
}

// A batch the store does not take (three failed Appends) is yielded as a
// *shared.MirrorErrorMessage naming the session's transcript, as both official SDKs synthesize
// it; the session goes on.
func TestRealCLI_MirrorError(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "A1", "A2")
	store := &alwaysFailing{failed: make(chan struct{})}
	s := env.session(t, v2.WithSessionStore(store))
	first, _ := query(t, s, "P1")
	<-store.failed // the first batch's last attempt failed: its mirror_error is queued when Append returns
	second, res := query(t, s, "P2")
	if res.IsError {
		t.Fatalf("the second turn failed: %+v", res)
	}
	var got []*shared.MirrorErrorMessage
	for _, m := range append(first, second...) {
		if me, ok := m.(*shared.MirrorErrorMessage); ok {
			got = append(got, me)
		}
	}
	if len(got) == 0 {
		t.Fatal("no *shared.MirrorErrorMessage in the two turns")
	}
	me := got[0]
	if me.Subtype != "mirror_error" || me.Error != "STORE-DOWN" || me.Key.SessionID != s.SessionID() ||
		me.Key.ProjectKey != sessions.ProjectKey(env.project) || me.Key.Subpath != "" || me.UUID == "" || me.SessionID != s.SessionID() {
		t.Errorf("mirror_error = %+v", me)
	}
	if !strings.Contains(string(me.Raw), `"subtype":"mirror_error"`) || !strings.Contains(string(me.Raw), `"type":"system"`) {
		t.Errorf("mirror_error Raw = %s", me.Raw)
	}
}
