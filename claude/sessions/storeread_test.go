package sessions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// A session copied to a store reads back from it as from the config directory: ListStore gives
// Dir.List's Infos (but for Path and LastActivity, the store's), StoreMessages gives Messages'
// and SubagentMessages' messages, ParentToolUseID included.
func TestListStoreAndStoreMessages(t *testing.T) {
	ctx := context.Background()
	dir := sessions.Dir(t.TempDir())
	const cwd = "/nonexistent/project"
	base := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	writeTranscript(t, dir, cwd, idA, base, prompt("first-a"), assistantLine,
		`{"type":"custom-title","customTitle":"Named","sessionId":"x"}`, `{"type":"tag","tag":"t1","sessionId":"x"}`)
	main := writeTranscript(t, dir, cwd, idB, base.Add(time.Minute), prompt("first-b"), toolLine, systemLine,
		`{"type":"last-prompt","lastPrompt":"latest-b"}`)
	writeTranscript(t, dir, cwd, idC, base, `{"type":"summary","summary":"no prompt","leafUuid":"x"}`, `{"type":"attachment"}`)
	subDir := filepath.Join(filepath.Dir(main), idB, "subagents")
	must(t, os.MkdirAll(subDir, 0o700))
	must(t, os.WriteFile(filepath.Join(subDir, "agent-a1.jsonl"), []byte(userLine+"\n"+assistantLine+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(subDir, "agent-a1.meta.json"), []byte(`{"agentType":"x","toolUseId":"toolu_9"}`), 0o600))

	store := sessions.FileStore{Dir: sessions.Dir(t.TempDir())}
	for _, id := range []string{idA, idB, idC} {
		must(t, dir.CopyToStore(ctx, store, cwd, id))
	}

	want, err := dir.List(ctx, cwd)
	must(t, err)
	got, err := sessions.ListStore(ctx, store, sessions.ProjectKey(cwd))
	must(t, err)
	ignore := cmpopts.IgnoreFields(sessions.Info{}, "Path", "LastActivity")
	if diff := cmp.Diff(sortByID(want), sortByID(got), ignore); diff != "" || len(got) < 2 {
		t.Errorf("ListStore (-Dir.List +ListStore), %d sessions:\n%s", len(got), diff)
	}

	key := sessions.Key{ProjectKey: sessions.ProjectKey(cwd), SessionID: idB}
	if diff := cmp.Diff(collect(t, dir.Messages(cwd, idB)), collect(t, sessions.StoreMessages(ctx, store, key))); diff != "" {
		t.Errorf("StoreMessages (-Messages +StoreMessages):\n%s", diff)
	}
	key.AgentID = "a1"
	subs := collect(t, sessions.StoreMessages(ctx, store, key))
	if diff := cmp.Diff(collect(t, dir.SubagentMessages(cwd, idB, "a1")), subs); diff != "" || len(subs) != 2 {
		t.Errorf("StoreMessages of a subagent (-SubagentMessages +StoreMessages):\n%s", diff)
	}
	if p := subs[0].(*shared.UserMessage).ParentToolUseID; p == nil || *p != "toolu_9" {
		t.Errorf("a subagent's ParentToolUseID = %v, want toolu_9", p)
	}
	key.SessionID = idD
	for _, err := range sessions.StoreMessages(ctx, store, key) {
		if !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("StoreMessages of a missing key: %v, want ErrNotFound", err)
		}
	}
}

func sortByID(infos []sessions.Info) map[string]sessions.Info {
	m := map[string]sessions.Info{}
	for _, i := range infos {
		m[i.ID] = i
	}
	return m
}

func collect(t *testing.T, seq func(func(shared.Message, error) bool)) []shared.Message {
	t.Helper()
	var out []shared.Message
	for m, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
