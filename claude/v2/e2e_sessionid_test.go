package v2_test

import (
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_SessionID: WithSessionID names the session the CLI runs: its system/init and the
// turn's result carry that id (the CLI makes a random one otherwise).
func TestRealCLI_SessionID(t *testing.T) {
	t.Parallel()
	const id = "0b9f2c9e-6f4a-4c57-9d0e-3a1e5b7c8d90"
	env := textEnv(t, "hello")
	s := env.session(t, v2.WithSessionID(id))
	res := run(t, s, "hi")
	if s.SessionID() != id || res.SessionID != id {
		t.Errorf("session id %q, result's %q; want %q", s.SessionID(), res.SessionID, id)
	}
}
