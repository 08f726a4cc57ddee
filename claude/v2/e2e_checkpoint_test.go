package v2_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// promptUUIDs returns the uuids of a stored session's prompts (user messages with string content),
// by prompt text.
func promptUUIDs(t *testing.T, dir sessions.Dir, cwd, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for m, err := range dir.Messages(cwd, id) {
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := m.(*shared.UserMessage); ok && len(u.Blocks) == 0 {
			var p string
			if json.Unmarshal(u.Message.Content, &p) == nil {
				out[p] = u.UUID
			}
		}
	}
	return out
}

// File checkpoints: files written by the Write tool in two turns; a dry run lists what a rewind to
// the second prompt would change and changes nothing; the rewind restores the first turn's files.
func TestRealCLI_RewindFiles(t *testing.T) {
	t.Parallel()
	write := func(id, path, content string) claudetest.ToolUse {
		return claudetest.ToolUse{ID: id, Name: "Write", Input: map[string]any{"file_path": path, "content": content}}
	}
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		a, b := filepath.Join(p, "a.txt"), filepath.Join(p, "b.txt")
		return []claudetest.Reply{
			claudetest.ToolsReply(write("toolu_01", a, "ONE\n")), claudetest.TextReply("first done"),
			claudetest.ToolReply("toolu_02", "Read", map[string]any{"file_path": a}),
			claudetest.ToolsReply(write("toolu_03", a, "CHANGED\n"), write("toolu_04", b, "TWO\n")), claudetest.TextReply("second done"),
		}
	})
	read := func(name string) string {
		b, err := os.ReadFile(env.path(name))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}
	s := env.session(t, v2.WithAllowedTools("Write", "Read"), v2.WithFileCheckpointing())
	run(t, s, "FIRST")
	run(t, s, "SECOND")
	if a, b := read("a.txt"), read("b.txt"); a != "CHANGED\n" || b != "TWO\n" {
		t.Fatalf("after two turns: a.txt %q, b.txt %q", a, b)
	}
	prompts := promptUUIDs(t, sessions.Dir(filepath.Join(env.home, ".claude")), env.project, s.SessionID())
	second := prompts["SECOND"]
	if second == "" {
		t.Fatalf("no uuid for the second prompt in %v", prompts)
	}

	dry, err := s.RewindFiles(testCtx(t), second, true)
	if err != nil {
		t.Fatalf("RewindFiles dry run: %v", err)
	}
	want := v2.RewindResult{CanRewind: true, FilesChanged: []string{env.path("a.txt"), env.path("b.txt")}, Insertions: 1, Deletions: 2}
	if diff := cmp.Diff(want, dry); diff != "" {
		t.Errorf("dry run (-want +got):\n%s", diff)
	}
	if a, b := read("a.txt"), read("b.txt"); a != "CHANGED\n" || b != "TWO\n" {
		t.Errorf("the dry run changed files: a.txt %q, b.txt %q", a, b)
	}

	if _, err := s.RewindFiles(testCtx(t), second, false); err != nil {
		t.Fatalf("RewindFiles: %v", err)
	}
	if a := read("a.txt"); a != "ONE\n" {
		t.Errorf("a.txt after the rewind: %q, want ONE", a)
	}
	if env.exists("b.txt") {
		t.Errorf("b.txt, made in the second turn, is still there: %q", read("b.txt"))
	}

	// Without checkpointing the CLI cannot rewind: a dry run says so.
	s2 := env.session(t, v2.WithAllowedTools("Write", "Read"))
	r, err := s2.RewindFiles(testCtx(t), second, true)
	if err != nil || r.CanRewind || r.Error == "" {
		t.Errorf("dry run without checkpointing = %+v, %v; want CanRewind false and a reason", r, err)
	}
}
