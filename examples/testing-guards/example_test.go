package guards_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	guards "github.com/hookwire/agent-sdk-go/examples/testing-guards"
)

// The shortest guard test: the model asks to write outside the project, the guard denies it, and
// the file is absent. In a test, t is the test's *testing.T (guards_test.go has the full test).
func ExampleProjectGuard() {
	var t *testing.T // func TestProjectGuard(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "escape.txt")
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": outside, "content": "x"}))
	})
	env.Run("write it", v2.WithAllowedTools("Write"),
		v2.WithHook(shared.HookEventPreToolUse, shared.FileWriteToolsMatcher, guards.ProjectGuard(env.Project)))
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write outside the project happened")
	}
}

// A PermissionRequest hook approves ls and leaves rm to the CLI, which, with nobody to ask,
// denies it: the trace shows both.
func ExampleShellPermissions() {
	var t *testing.T // func TestShellPermissions(t *testing.T) {
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "ls"}),
			claudetest.ToolReply("toolu_02", "Bash", map[string]any{"command": "rm -f data.txt"}),
		)
	})
	env.Run("list, then clean up", v2.WithSettings(`{"permissions":{"ask":["Bash"]}}`),
		v2.WithHook(shared.HookEventPermissionRequest, "Bash", guards.ShellPermissions()))
	if c := env.ToolCalls(); len(c) != 2 || c[0].IsError || !c[1].IsError {
		t.Errorf("want ls to run and rm to be denied: %+v", c)
	}
}

// A PostToolUse audit hook writes one JSON line per tool call that ran.
func ExampleAuditLog() {
	var t *testing.T // func TestAuditLog(t *testing.T) {
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hi"}))
	})
	var log bytes.Buffer
	env.Run("greet", v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPostToolUse, "", guards.AuditLog(&log)))
	if n := strings.Count(log.String(), "\n"); n != len(env.ToolCalls()) {
		t.Errorf("%d audit lines for %d tool calls", n, len(env.ToolCalls()))
	}
}
