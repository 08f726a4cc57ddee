package v2_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithCwd given twice with different directories is refused (issue 35 item 6): before, the last
// one won silently and the agent wrote into a directory the program named second. Given once more
// over v2.WithDefaults, the later one is the session's directory: the agent's relative write
// lands there.
func TestRealCLI_OptionGivenTwice(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": "w.txt", "content": "w"}),
			claudetest.TextReply("done"),
		}
	})
	other := t.TempDir()
	if p, err := filepath.EvalSymlinks(other); err == nil {
		other = p
	}
	// The env's own WithCwd is a default (claudetest.Env.Options): these two are the program's.
	_, err := env.create(t, v2.WithCwd(env.project), v2.WithCwd(other))
	if err == nil || !strings.HasPrefix(err.Error(), "v2: WithCwd: given twice with different values") {
		t.Fatalf("CreateSession with WithCwd twice = %v, want the given-twice error", err)
	}
	s := env.session(t, v2.WithCwd(other), v2.WithPermissionMode(v2.PermissionModeAcceptEdits))
	run(t, s, "write w.txt")
	if _, err := os.Stat(filepath.Join(other, "w.txt")); err != nil || env.exists("w.txt") {
		t.Errorf("the write went to the env's directory (%v) or not to WithCwd's (%v)", env.exists("w.txt"), err)
	}
}
