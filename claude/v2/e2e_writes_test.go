package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// shared.FileWriteToolsMatcher and shared.WrittenPaths guard the file-writing tools of CLI 2.1.330
// (issue 12 item 7): NotebookEdit, which writes the file named by notebook_path, reaches the guard
// and is denied outside the project like Write and Edit; Read is not sent to it.
func TestRealCLI_FileWriteGuard(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	nb := `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["print(1)"],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`
	if err := os.WriteFile(filepath.Join(outside, "n.ipynb"), []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	// The CLI edits only notebooks it has read: both are read first.
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		if err := os.WriteFile(filepath.Join(p, "in.ipynb"), []byte(nb), 0o644); err != nil {
			t.Error(err)
		}
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Read", map[string]any{"file_path": filepath.Join(outside, "n.ipynb")}),
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_02", Name: "NotebookEdit", Input: map[string]any{"notebook_path": filepath.Join(outside, "n.ipynb"), "cell_id": "c1", "new_source": "print('OUTSIDE')"}},
				claudetest.ToolUse{ID: "toolu_03", Name: "Write", Input: map[string]any{"file_path": filepath.Join(outside, "w.txt"), "content": "OUTSIDE"}},
				claudetest.ToolUse{ID: "toolu_04", Name: "Read", Input: map[string]any{"file_path": filepath.Join(p, "in.ipynb")}},
			),
			claudetest.ToolReply("toolu_05", "NotebookEdit", map[string]any{"notebook_path": filepath.Join(p, "in.ipynb"), "cell_id": "c1", "new_source": "print('INSIDE')"}),
			claudetest.TextReply("done"),
		}
	})
	type call struct{ Tool, Decision string }
	var calls records[call]
	guard := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		paths, err := shared.WrittenPaths(in.ToolName, in.ToolInput)
		if err != nil {
			calls.add(call{in.ToolName, "deny"})
			return shared.Deny(err.Error()), nil
		}
		for _, p := range paths {
			if rel, err := filepath.Rel(env.project, p); err != nil || !filepath.IsLocal(rel) {
				calls.add(call{in.ToolName, "deny"})
				return shared.Deny(p + " is outside the project"), nil
			}
		}
		calls.add(call{in.ToolName, "none"})
		return nil, nil
	})
	s := env.session(t, v2.WithPermissionMode(v2.PermissionModeAcceptEdits), v2.WithAllowedTools("NotebookEdit", "Write", "Read"),
		v2.WithHook(shared.HookEventPreToolUse, shared.FileWriteToolsMatcher, guard))
	run(t, s, "edit the notebooks")
	want := []call{{"NotebookEdit", "deny"}, {"Write", "deny"}, {"NotebookEdit", "none"}}
	if diff := cmp.Diff(want, calls.all()); diff != "" {
		t.Errorf("guard calls (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "n.ipynb")); string(b) != nb {
		t.Errorf("the notebook outside the project changed: %s", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "w.txt")); err == nil {
		t.Error("the Write outside the project ran")
	}
	if b, _ := os.ReadFile(env.path("in.ipynb")); !containsAll(string(b), "INSIDE") {
		t.Errorf("the notebook inside the project was not edited: %s", b)
	}
}
