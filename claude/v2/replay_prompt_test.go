package v2_test

import (
	"errors"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// SendPrompt writes the per-message fields as the official SDKs' SDKUserMessage (uuid, priority,
// shouldQuery, origin), on the recorded wire: the fake model cannot tell a priority's effect from
// the default on one turn, so the line is what is checked; an invalid prompt is refused and
// nothing is written.
func TestReplay_SendPrompt(t *testing.T) {
	t.Parallel()
	const u = "5f3c2a10-8d7e-4b6a-9c1d-2e3f4a5b6c7d"
	r := newReplay(t, replayInit+
		`expect {"type":"user","message":{"role":"user","content":"now please"},"uuid":"`+u+`","priority":"now","shouldQuery":false,"origin":{"kind":"peer","from":"uds:/tmp/x"}}`+"\n"+
		sendResult("done")+"eof\n")
	s := r.session(t)
	ctx := testCtx(t)
	for _, bad := range []v2.Prompt{{}, {Text: "a", Blocks: []shared.ContentBlock{v2.TextBlock("b")}}, {Text: "a", UUID: "nope"}, {Text: "a", Priority: "soon"}} {
		if err := s.SendPrompt(ctx, bad); err == nil {
			t.Errorf("SendPrompt(%+v) = nil, want an error", bad)
		}
	}
	var se *v2.SessionIDError
	if err := s.SendPrompt(ctx, v2.Prompt{Text: "a", UUID: "nope"}); !errors.As(err, &se) {
		t.Errorf("a bad UUID: %v, want a *SessionIDError", err)
	}
	if err := s.SendPrompt(ctx, v2.Prompt{Text: "now please", UUID: u, Priority: v2.PriorityNow, NoQuery: true,
		Origin: &shared.MessageOrigin{Kind: "peer", From: "uds:/tmp/x"}}); err != nil {
		t.Fatal(err)
	}
	for _, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
