package v2_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Resuming from a store: a session run on machine A (its own HOME) with a store is resumed on
// machine B (another HOME, no transcript of it) with the same store; the CLI on B finds the
// session, its model request carries A's turn, the subagent's transcript and .meta.json are
// restored, and B's new turn is mirrored to the store after A's entries, none of them twice.
// Without the store, B cannot resume it.
func TestRealCLI_ResumeFromStore(t *testing.T) {
	t.Parallel()
	a := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Task", map[string]any{"description": "sub", "prompt": "SUBAGENT-PROMPT", "subagent_type": "general-purpose", "run_in_background": false}),
			claudetest.TextReply("SUBAGENT-ANSWER"),
			claudetest.TextReply("ANSWER-ON-A"),
		}
	})
	store := sessions.FileStore{Dir: sessions.Dir(t.TempDir())}
	s := a.session(t, v2.WithAllowedTools("Task"), v2.WithSessionStore(store))
	id := s.SessionID()
	run(t, s, "PROMPT-ON-A")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	b := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("ANSWER-ON-B")} })
	bDir := sessions.Dir(filepath.Join(b.home, ".claude"))
	if s0, err := b.create(t, v2.WithCwd(a.project), v2.WithResume(id)); err == nil {
		_, err = s0.Run(testCtx(t), "PROBE")
		s0.Close()
		if err == nil {
			t.Fatal("B resumed the session without the store")
		}
		t.Logf("without the store: the first turn fails: %v", err)
	} else {
		t.Logf("without the store: CreateSession fails: %v", err)
	}
	if got := b.requestsContaining("PROMPT-ON-A"); len(got) != 0 {
		t.Fatalf("without the store, B's model was sent A's prompt (requests %v)", got)
	}
	if p, _ := bDir.TranscriptPath(a.project, id); fileExists(p) {
		t.Fatalf("without the store, B has a transcript of the session: %s", p)
	}

	s = b.session(t, v2.WithCwd(a.project), v2.WithResume(id), v2.WithSessionStore(store))
	res := run(t, s, "PROMPT-ON-B")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if res == nil || res.IsError || res.SessionID != id {
		t.Fatalf("result on B = %+v, want a success in session %s", res, id)
	}
	reqs := b.api.Requests()
	last := reqs[len(reqs)-1]
	for _, want := range []string{"PROMPT-ON-A", "ANSWER-ON-A", "PROMPT-ON-B"} {
		if !last.Contains(want) {
			t.Errorf("B's model request does not carry %q: the earlier turn was not resumed", want)
		}
	}

	// The subagent came back with its metadata.
	aDir := sessions.Dir(filepath.Join(a.home, ".claude"))
	agents, err := aDir.Subagents(a.project, id)
	if err != nil || len(agents) != 1 {
		t.Fatalf("A's subagents = %q, %v", agents, err)
	}
	aMeta := readJSON(t, filepath.Join(aDir.ProjectDir(a.project), id, "subagents", "agent-"+agents[0]+".meta.json"))
	bMeta := readJSON(t, filepath.Join(bDir.ProjectDir(a.project), id, "subagents", "agent-"+agents[0]+".meta.json"))
	if diff := cmp.Diff(aMeta, bMeta); diff != "" {
		t.Errorf("the subagent's .meta.json on B (-A +B):\n%s", diff)
	}
	var subTexts []string
	for m, err := range bDir.SubagentMessages(a.project, id, agents[0]) {
		if err != nil {
			t.Fatal(err)
		}
		subTexts = append(subTexts, rawOf(m))
	}
	if j := strings.Join(subTexts, "\n"); !strings.Contains(j, "SUBAGENT-PROMPT") || !strings.Contains(j, "SUBAGENT-ANSWER") {
		t.Errorf("the subagent's messages on B:\n%s", j)
	}

	// The store has A's turn, then B's, each entry once.
	entries, err := store.Load(t.Context(), sessions.Key{ProjectKey: sessions.ProjectKey(a.project), SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var order []string
	for _, e := range entries {
		var v struct {
			UUID    string         `json:"uuid"`
			Type    string         `json:"type"`
			Message jsontext.Value `json:"message"`
		}
		if err := json.Unmarshal(e, &v); err != nil {
			t.Fatal(err)
		}
		if v.UUID != "" && seen[v.UUID] {
			t.Errorf("entry %s (%s) is in the store twice", v.UUID, v.Type)
		}
		seen[v.UUID] = true
		for _, mark := range []string{"PROMPT-ON-A", "ANSWER-ON-A", "PROMPT-ON-B", "ANSWER-ON-B"} {
			if v.Type != "last-prompt" && strings.Contains(string(v.Message), mark) && (len(order) == 0 || order[len(order)-1] != mark) {
				order = append(order, mark)
			}
		}
	}
	if diff := cmp.Diff([]string{"PROMPT-ON-A", "ANSWER-ON-A", "PROMPT-ON-B", "ANSWER-ON-B"}, order); diff != "" {
		t.Errorf("the turns in the store (-want +got):\n%s", diff)
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
