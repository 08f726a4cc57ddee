package pgstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The real CLI on machine A (its own HOME) mirrors a session to PostgreSQL; machine B (another
// HOME, without the transcript) resumes it from there: B's model sees A's turn, and the database
// ends with both turns, each entry once.
func TestRealCLI_ResumeFromPostgres(t *testing.T) {
	store, _ := newStore(t, pool(t))
	a := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.TextReply("ANSWER-ON-A"))
	})
	run := func(env *claudetest.Env, prompt string, opts ...v2.Option) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		s := env.Session(opts...)
		res, err := s.Run(ctx, prompt)
		if err != nil {
			t.Fatalf("Run(%q): %v", prompt, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return res.SessionID
	}
	id := run(a, "PROMPT-ON-A", v2.WithSessionStore(store))

	b := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.TextReply("ANSWER-ON-B"))
	})
	if got := run(b, "PROMPT-ON-B", v2.WithCwd(a.Project), v2.WithResume(id), v2.WithSessionStore(store)); got != id {
		t.Fatalf("B's session is %s, want %s", got, id)
	}
	reqs := b.Model.Requests()
	for _, want := range []string{"PROMPT-ON-A", "ANSWER-ON-A", "PROMPT-ON-B"} {
		if !reqs[len(reqs)-1].Contains(want) {
			t.Errorf("B's model request does not carry %q", want)
		}
	}

	entries, err := store.Load(context.Background(), sessions.Key{ProjectKey: sessions.ProjectKey(a.Project), SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	seen := map[string]bool{}
	for _, e := range entries {
		var v struct {
			UUID string `json:"uuid"`
		}
		if err := json.Unmarshal(e, &v); err != nil {
			t.Fatal(err)
		}
		if v.UUID != "" && seen[v.UUID] {
			t.Errorf("entry %s is in the database twice", v.UUID)
		}
		seen[v.UUID] = true
		all.Write(e)
	}
	s := all.String()
	i, j := strings.Index(s, "ANSWER-ON-A"), strings.Index(s, "ANSWER-ON-B")
	if i < 0 || j < i {
		t.Errorf("the database's transcript does not have A's answer and then B's (at %d, %d)", i, j)
	}
}
