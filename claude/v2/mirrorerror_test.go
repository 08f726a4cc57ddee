package v2

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The mirror_error of a subagent's batch names it by the official SDKs' subpath, and its Raw is
// a line the parser reads back as the same message.
func TestMirrorErrorKey(t *testing.T) {
	key := sessions.Key{ProjectKey: "-w", SessionID: "11111111-2222-4333-8444-555555555555", AgentID: "a1"}
	m := mirrorError(key, errors.New("store down"))
	if m.Key.Subpath != "subagents/agent-a1" || m.Key.SessionID != key.SessionID || m.Key.ProjectKey != "-w" || m.Error != "store down" {
		t.Errorf("mirror_error = %+v", m)
	}
	back, err := parser.Parse(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := back.(*shared.MirrorErrorMessage)
	if !ok {
		t.Fatalf("Parse(Raw) = %T", back)
	}
	got.Raw, m.Raw = nil, nil
	if diff := cmp.Diff(m, got); diff != "" {
		t.Errorf("Raw read back (-made +parsed):\n%s", diff)
	}
}
