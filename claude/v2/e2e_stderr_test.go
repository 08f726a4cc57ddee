package v2_test

import (
	"strings"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithStderr is called with the real CLI's stderr, line by line: CLI 2.1.330's debug log, which
// --debug-to-stderr sends there, has lines of its own ("[DEBUG] ...") that name this session's
// project directory.
func TestRealCLI_Stderr(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok")
	var lines records[string]
	s := env.session(t, v2.WithStderr(lines.add), v2.WithExtraArgs("--debug-to-stderr"))
	run(t, s, "hi")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var found bool
	for _, l := range lines.all() {
		if strings.Contains(l, "\n") {
			t.Errorf("a line with a newline: %q", l)
		}
		found = found || strings.Contains(l, "[DEBUG]") && strings.Contains(l, env.project)
	}
	if !found {
		t.Errorf("%d stderr lines, none of the CLI's debug log naming %s", lines.len(), env.project)
	}
}
