package guards_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	guards "github.com/hookwire/agent-sdk-go/examples/testing-guards"
)

// Each test needs the real CLI: without it, it skips (or fails, with CI=true). Install it once
// with `go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli`.

// The model asks to write a file outside the project, then one inside. The guard denies the
// first: the file is absent and the model is told why. The second goes through.
func TestProjectGuardDeniesWriteOutsideProject(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "escape.txt")
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": outside, "content": "owned\n"}),
			claudetest.ToolReply("toolu_02", "Write", map[string]any{"file_path": filepath.Join(project, "notes.txt"), "content": "ok\n"}),
			claudetest.TextReply("done"),
		)
	})

	env.Run("write two files",
		// The permission rule lets writes through without a prompt, anywhere: the guard is what
		// keeps them in the project.
		v2.WithAllowedTools("Write"),
		v2.WithHook(shared.HookEventPreToolUse, shared.FileWriteToolsMatcher, guards.ProjectGuard(env.Project)),
	)

	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write outside the project happened (stat: %v)", err)
	}
	if _, err := os.Stat(env.Path("notes.txt")); err != nil {
		t.Errorf("the write inside the project did not happen: %v", err)
	}
	want := []claudetest.Hook{
		{Event: shared.HookEventPreToolUse, ToolName: "Write", ToolUseID: "toolu_01", Outcome: shared.HookOutcomeSuccess,
			Decision: shared.DecisionDeny, Reason: "writes stay in the project: " + outside + " is outside"},
		{Event: shared.HookEventPreToolUse, ToolName: "Write", ToolUseID: "toolu_02", Outcome: shared.HookOutcomeSuccess},
	}
	if diff := cmp.Diff(want, env.Hooks()); diff != "" {
		t.Errorf("hook decisions (-want +got):\n%s", diff)
	}
	// The model's next request carries the denial as the tool's error result.
	reqs := env.Model.Requests()
	if len(reqs) < 2 {
		t.Fatalf("the model got %d requests, want at least 2", len(reqs))
	}
	if tr, _ := reqs[1].LastToolResult(); !tr.IsError || !strings.Contains(tr.ContentText(), "is outside") {
		t.Errorf("the model got %q (is_error %v) for the denied write, want an error naming the reason", tr.ContentText(), tr.IsError)
	}
}

// Every Bash call needs a permission (the settings' ask rule), so the PermissionRequest hook
// decides them: it approves `ls` and leaves `rm` to the CLI, which asks, and with nobody to ask in
// an unattended session, denies.
func TestShellPermissionsApproveLsAndAskForRm(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "ls", "description": "list"}),
			// The canary: had this line run at all, rm-canary.txt would exist.
			claudetest.ToolReply("toolu_02", "Bash", map[string]any{"command": "touch rm-canary.txt; rm -f data.txt", "description": "clean"}),
			claudetest.TextReply("done"),
		)
	})
	if err := os.WriteFile(env.Path("data.txt"), []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	res, _ := env.Run("list, then clean up",
		v2.WithSettings(`{"permissions":{"ask":["Bash"]}}`),
		v2.WithHook(shared.HookEventPermissionRequest, "Bash", guards.ShellPermissions()),
	)

	calls := env.ToolCalls()
	if len(calls) != 2 {
		t.Fatalf("tool calls = %+v, want 2", calls)
	}
	if calls[0].IsError || !strings.Contains(calls[0].Output, "data.txt") {
		t.Errorf("ls: %+v, want it approved and listing data.txt", calls[0])
	}
	if !calls[1].IsError {
		t.Errorf("rm: %+v, want it not run", calls[1])
	}
	for _, name := range []string{"rm-canary.txt"} {
		if _, err := os.Stat(env.Path(name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists: the rm line ran", name)
		}
	}
	if _, err := os.Stat(env.Path("data.txt")); err != nil {
		t.Errorf("data.txt is gone: %v", err)
	}
	want := []claudetest.Hook{
		{Event: shared.HookEventPermissionRequest, ToolName: "Bash", ToolUseID: "toolu_01", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionAllow},
		{Event: shared.HookEventPermissionRequest, ToolName: "Bash", ToolUseID: "toolu_02", Outcome: shared.HookOutcomeSuccess}, // no opinion: ask
	}
	if diff := cmp.Diff(want, env.Hooks(), cmpopts.IgnoreFields(claudetest.Hook{}, "Reason")); diff != "" {
		t.Errorf("hook decisions (-want +got):\n%s", diff)
	}
	// The CLI reports the call it denied for want of an answer.
	if res == nil || !strings.Contains(string(res.PermissionDenials), "toolu_02") || strings.Contains(string(res.PermissionDenials), "toolu_01") {
		t.Errorf("permission_denials = %s, want toolu_02 only", res.PermissionDenials)
	}
}

// The audit hook writes one JSON line per tool call that ran, with its id, tool and input.
func TestAuditLogOneLinePerToolCall(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hi", "description": "greet"}),
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_02", Name: "Write", Input: map[string]any{"file_path": filepath.Join(project, "a.txt"), "content": "a\n"}},
				claudetest.ToolUse{ID: "toolu_03", Name: "Read", Input: map[string]any{"file_path": filepath.Join(project, "a.txt")}},
			),
			claudetest.TextReply("done"),
		)
	})
	var log bytes.Buffer // in a real program, a file
	env.Run("greet, write and read",
		v2.WithAllowedTools("Bash", "Write", "Read"),
		v2.WithHook(shared.HookEventPostToolUse, "", guards.AuditLog(&log)),
	)

	if log.Len() == 0 {
		t.Fatal("the audit log is empty")
	}
	var got []guards.AuditRecord
	for _, line := range strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n") {
		var r guards.AuditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		got = append(got, r)
	}
	// One line per call the CLI ran, whatever the order in which the parallel calls finished.
	var want []guards.AuditRecord
	for _, c := range env.ToolCalls() {
		var in any
		if err := json.Unmarshal([]byte(c.Input), &in); err != nil {
			t.Fatal(err)
		}
		want = append(want, guards.AuditRecord{ToolUseID: c.ID, Tool: c.Name, Input: in})
	}
	byID := cmpopts.SortSlices(func(a, b guards.AuditRecord) bool { return a.ToolUseID < b.ToolUseID })
	if diff := cmp.Diff(want, got, byID, cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "replace_all" })); diff != "" {
		t.Errorf("audit log (-from the tool calls +logged):\n%s", diff)
	}
	if len(got) != 3 {
		t.Errorf("%d audit lines, want 3", len(got))
	}
}
