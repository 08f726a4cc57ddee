package v2_test

import (
	"strings"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// flakyStore fails every third Append before writing anything.
type flakyStore struct {
	inner sessions.Store
	calls atomic.Int32
	keys  records[sessions.Key]
}

func (s *flakyStore) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if s.calls.Add(1)%3 == 1 {
		return errors.New("flaky store: try again")
	}
	s.keys.add(key)
	return s.inner.Append(ctx, key, entries)
}

// WithSessionStore: the store gets the session's transcript and its subagent's as the CLI wrote
// them, line for line (less the CLI's own records of API requests), though Append failed now and
// then; the messages read back from the store are those of the CLI's transcript.
func TestRealCLI_SessionStore(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("echo hi > "+p+"/a.txt")),
			claudetest.ToolReply("toolu_02", "Task", map[string]any{"description": "sub", "prompt": "SUBAGENT-PROMPT", "subagent_type": "general-purpose", "run_in_background": false}),
			claudetest.TextReply("SUBAGENT-ANSWER"),
			claudetest.TextReply("first done"),
			claudetest.TextReply("second done"),
		}
	})
	storeDir := sessions.Dir(t.TempDir())
	store := &flakyStore{inner: sessions.FileStore{Dir: storeDir}}
	s := env.session(t, v2.WithAllowedTools("Bash", "Task"), v2.WithSessionStore(store))
	id := s.SessionID()
	run(t, s, "FIRST")
	run(t, s, "SECOND")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	local := sessions.Dir(filepath.Join(env.home, ".claude"))
	// same compares the CLI's transcript at a with the store's copy at b, line for line, in order,
	// but for the lines of the types the CLI does not mirror (its records of API requests) or
	// mirrors only (a subagent's agent_metadata, which it keeps in a .meta.json file beside it).
	same := func(what, a, b string) {
		t.Helper()
		lines := func(p string, skip func(string) bool) []string {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			var out []string
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				var e struct {
					Type string `json:"type"`
				}
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if !skip(e.Type) {
					out = append(out, l)
				}
			}
			return out
		}
		want := lines(a, func(typ string) bool { return strings.HasPrefix(typ, "api-request") })
		got := lines(b, func(typ string) bool { return typ == "agent_metadata" })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the store's copy differs from the CLI's transcript (-cli +store):\n%s", what, diff)
		}
	}
	lp, _ := local.TranscriptPath(env.project, id)
	sp, _ := storeDir.TranscriptPath(env.project, id)
	same("session", lp, sp)
	agents, err := local.Subagents(env.project, id)
	if err != nil || len(agents) != 1 {
		t.Fatalf("Subagents = %q, %v", agents, err)
	}
	mirrored, err := storeDir.Subagents(env.project, id)
	if diff := cmp.Diff(agents, mirrored); err != nil || diff != "" {
		t.Fatalf("the store's subagents (-cli +store): %v\n%s", err, diff)
	}
	sub := filepath.Join(filepath.Dir(lp), id, "subagents", "agent-"+agents[0]+".jsonl")
	same("subagent", sub, filepath.Join(filepath.Dir(sp), id, "subagents", "agent-"+agents[0]+".jsonl"))
	var fromCLI, fromStore []string
	for m, err := range local.Messages(env.project, id) {
		if err != nil {
			t.Fatal(err)
		}
		fromCLI = append(fromCLI, fmt.Sprintf("%T %s", m, rawOf(m)))
	}
	for m, err := range storeDir.Messages(env.project, id) {
		if err != nil {
			t.Fatal(err)
		}
		fromStore = append(fromStore, fmt.Sprintf("%T %s", m, rawOf(m)))
	}
	if diff := cmp.Diff(fromCLI, fromStore); len(fromCLI) < 6 || diff != "" {
		t.Errorf("Messages from the store (-cli +store), %d from the CLI:\n%s", len(fromCLI), diff)
	}
	if store.calls.Load() < 4 {
		t.Errorf("%d Append calls: the retries were not exercised", store.calls.Load())
	}
	for _, k := range store.keys.all() {
		if k.SessionID != id || k.ProjectKey != sessions.ProjectKey(env.project) {
			t.Errorf("Append key %+v, want session %s of %s", k, id, sessions.ProjectKey(env.project))
		}
	}
}

// rawOf returns a transcript message's line.
func rawOf(m shared.Message) string {
	switch m := m.(type) {
	case *shared.UserMessage:
		return string(m.Raw)
	case *shared.AssistantMessage:
		return string(m.Raw)
	case *shared.SystemMessage:
		return string(m.Raw)
	}
	return "?"
}
