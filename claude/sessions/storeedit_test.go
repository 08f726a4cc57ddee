package sessions_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/sessions/storetest"
)

const storePK = "-w"

// appendOnly is a Store that can only append.
type appendOnly struct{ sessions.Store }

func TestStoreEditErrors(t *testing.T) {
	ctx := context.Background()
	m := &storetest.Memory{}
	key := sessions.Key{ProjectKey: storePK, SessionID: idA}
	if err := m.Append(ctx, key, []jsontext.Value{jsontext.Value(prompt("one"))}); err != nil {
		t.Fatal(err)
	}
	if err := sessions.DeleteFromStore(ctx, appendOnly{m}, storePK, idA); !errors.Is(err, sessions.ErrStoreCannotDelete) || !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("DeleteFromStore of an append-only store: %v, want ErrStoreCannotDelete", err)
	}
	if _, err := sessions.ForkInStore(ctx, m, storePK, idA, sessions.ForkOptions{UpTo: "nope"}); !errors.Is(err, sessions.ErrMessageNotFound) {
		t.Errorf("ForkInStore at a missing message: %v", err)
	}
	if _, err := sessions.ForkInStore(ctx, m, storePK, idB, sessions.ForkOptions{}); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("ForkInStore of a missing session: %v", err)
	}
	if err := sessions.RenameInStore(ctx, m, storePK, "not-a-uuid", "x"); !errors.Is(err, sessions.ErrInvalidID) {
		t.Errorf("RenameInStore of a bad id: %v", err)
	}
	if l, _ := m.List(ctx, storePK); len(l) != 1 {
		t.Errorf("the failed calls appended: %+v", l)
	}
}

// The fork's chain skips progress entries and sidechains, remaps logicalParentUuid, and keeps the
// original's content replacements; an explicit title wins.
func TestForkInStoreChain(t *testing.T) {
	ctx := context.Background()
	m := &storetest.Memory{}
	key := sessions.Key{ProjectKey: storePK, SessionID: idA}
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + idA + `","message":{"role":"user","content":"hi"},"slug":"x"}`,
		`{"type":"progress","uuid":"p1","parentUuid":"u1"}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"p1","message":{"role":"assistant","content":[]}}`,
		`{"type":"assistant","uuid":"s1","parentUuid":"a1","isSidechain":true}`,
		`{"type":"system","uuid":"c1","parentUuid":null,"logicalParentUuid":"a1","subtype":"compact_boundary"}`,
		`{"type":"content-replacement","sessionId":"` + idA + `","replacements":[{"k":1}]}`,
		`{"type":"tag","tag":"t"}`,
	}
	var es []jsontext.Value
	for _, l := range lines {
		es = append(es, jsontext.Value(l))
	}
	if err := m.Append(ctx, key, es); err != nil {
		t.Fatal(err)
	}
	fork, err := sessions.ForkInStore(ctx, m, storePK, idA, sessions.ForkOptions{Title: " Mine "})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Load(ctx, sessions.Key{ProjectKey: storePK, SessionID: fork})
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Type         string           `json:"type"`
		UUID         string           `json:"uuid"`
		Parent       *string          `json:"parentUuid"`
		Logical      *string          `json:"logicalParentUuid"`
		Slug         *string          `json:"slug"`
		Replacements []map[string]int `json:"replacements"`
		CustomTitle  string           `json:"customTitle"`
		ForkedFrom   struct {
			MessageUUID string `json:"messageUuid"`
		} `json:"forkedFrom"`
	}
	newToOld := map[string]string{"": ""}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return newToOld[*p]
	}
	var summary []string
	for _, v := range got {
		var e entry
		if err := json.Unmarshal(v, &e); err != nil {
			t.Fatal(err)
		}
		newToOld[e.UUID] = e.ForkedFrom.MessageUUID
		summary = append(summary, strings.Join([]string{e.Type, e.ForkedFrom.MessageUUID, "parent=" + deref(e.Parent), "logical=" + deref(e.Logical),
			"slug=" + map[bool]string{true: "kept", false: "gone"}[e.Slug != nil], e.CustomTitle}, " "))
		if e.Type == "content-replacement" && len(e.Replacements) != 1 {
			t.Errorf("replacements = %v", e.Replacements)
		}
	}
	want := []string{
		"user u1 parent= logical= slug=gone ",
		"assistant a1 parent=u1 logical= slug=gone ",
		"system c1 parent= logical=a1 slug=gone ",
		"content-replacement  parent= logical= slug=gone ",
		"custom-title  parent= logical= slug=gone Mine",
	}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("fork (-want +got):\n%s", diff)
	}
}

// A cycle of progress entries in the parent chain ends (a hostile transcript): the parent is null.
func TestForkProgressCycle(t *testing.T) {
	ctx := context.Background()
	m := &storetest.Memory{}
	key := sessions.Key{ProjectKey: storePK, SessionID: idA}
	es := []jsontext.Value{
		jsontext.Value(`{"type":"progress","uuid":"p1","parentUuid":"p2"}`),
		jsontext.Value(`{"type":"progress","uuid":"p2","parentUuid":"p1"}`),
		jsontext.Value(`{"type":"user","uuid":"u1","parentUuid":"p1","message":{"role":"user","content":"hi"}}`),
	}
	if err := m.Append(ctx, key, es); err != nil {
		t.Fatal(err)
	}
	fork, err := sessions.ForkInStore(ctx, m, storePK, idA, sessions.ForkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.Load(ctx, sessions.Key{ProjectKey: storePK, SessionID: fork})
	if len(got) != 2 || !strings.Contains(string(got[0]), `"parentUuid":null`) {
		t.Errorf("fork = %s", got)
	}
}

// ListStore reads a fresh summary, and loads a session whose summary is missing or older than its
// transcript.
func TestListStoreSummaries(t *testing.T) {
	ctx := context.Background()
	m := &storetest.Memory{}
	for _, id := range []string{idA, idB} {
		if err := m.Append(ctx, sessions.Key{ProjectKey: storePK, SessionID: id}, []jsontext.Value{jsontext.Value(prompt("one"))}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := sessions.ListStore(ctx, m, storePK)
	if err != nil || len(list) != 2 || list[0].FirstPrompt != "one" || m.Loads() != 0 {
		t.Errorf("ListStore = %+v, %v, %d loads; want 2 sessions from their summaries", list, err, m.Loads())
	}
	stale := staleSummaries{m}
	if list, err := sessions.ListStore(ctx, stale, storePK); err != nil || len(list) != 2 || m.Loads() != 2 {
		t.Errorf("ListStore with stale summaries = %+v, %v, %d loads; want 2 loads", list, err, m.Loads())
	}
}

// staleSummaries gives Memory's summaries, each older than its transcript.
type staleSummaries struct{ *storetest.Memory }

func (s staleSummaries) Summaries(ctx context.Context, pk string) ([]sessions.Summary, error) {
	sums, err := s.Memory.Summaries(ctx, pk)
	for i := range sums {
		sums[i].Modified = sums[i].Modified.Add(-1)
	}
	return sums, err
}
