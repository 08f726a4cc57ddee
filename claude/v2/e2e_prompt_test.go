package v2_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// SendPrompt's per-message fields on the real CLI: a NoQuery message starts no turn and reaches
// the model with the next prompt; a chosen UUID is the transcript entry's uuid (found by
// sessions.Dir.Messages without reading the live stream); an origin is kept with the entry. (The
// priority's wire form: TestReplay_SendPrompt.)
func TestRealCLI_SendPrompt(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "A1", "A2")
	s := env.session(t)
	ctx := testCtx(t)
	if err := s.SendPrompt(ctx, v2.Prompt{Text: "BACKGROUND-NOTE", NoQuery: true}); err != nil {
		t.Fatal(err)
	}
	var note *shared.ResultMessage
	for m, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := m.(*shared.ResultMessage); ok {
			note = r
		}
	}
	if note == nil || note.NumTurns != 0 || len(env.api.Requests()) != 0 {
		t.Fatalf("the NoQuery message: result %+v and %d model requests; want a result of no turn and none", note, len(env.api.Requests()))
	}
	const chosen = "5f3c2a10-8d7e-4b6a-9c1d-2e3f4a5b6c7d"
	if err := s.SendPrompt(ctx, v2.Prompt{Text: "P1", UUID: chosen, Priority: v2.PriorityNext}); err != nil {
		t.Fatal(err)
	}
	for _, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	reqs := env.api.Requests()
	if len(reqs) != 1 || !reqs[0].Contains("BACKGROUND-NOTE") || !reqs[0].Contains("P1") {
		t.Errorf("%d model requests; want one carrying the NoQuery note and P1", len(reqs))
	}
	if err := s.SendPrompt(ctx, v2.Prompt{Text: "P2", Origin: &shared.MessageOrigin{Kind: "human"}}); err != nil {
		t.Fatal(err)
	}
	for _, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	id := s.SessionID()
	s.Close()
	dir := sessions.Dir(filepath.Join(env.home, ".claude"))
	found := false
	for m, err := range dir.Messages(env.project, id) {
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := m.(*shared.UserMessage); ok && u.UUID == chosen {
			found = strings.Contains(string(u.Raw), "P1")
		}
	}
	if !found {
		t.Errorf("no user message with the chosen uuid %s and the text P1 in the transcript", chosen)
	}
	p, _ := dir.TranscriptPath(env.project, id)
	data, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(data), `"content":"P2"},"uuid"`) || !strings.Contains(string(data), `"origin":{"kind":"human"}`) {
		t.Errorf("the transcript lacks P2's origin (%v)", err)
	}
}
