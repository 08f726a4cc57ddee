// Package claudesim is a Claude Code CLI simulator for unit tests that must not need Node: a
// small Go program that speaks the CLI's stream-json control protocol, so that an SDK session can
// run against it, and asks a claudetest.Model (the same scripted replies as with the real CLI)
// what to do.
//
// It is not the CLI. Tests that claim CLI behaviour (permission rules, a tool's exact output, the
// order of hooks, retries, the wording of errors) run the real CLI; the simulator is for the
// logic of a test's own hooks and for machines without npm. Use it from a test binary:
//
//	func TestMain(m *testing.M) {
//		claudesim.Init() // when started as the simulator, runs it and exits
//		os.Exit(m.Run())
//	}
//
//	func TestGuard(t *testing.T) {
//		env := claudetest.NewEnvWithCLI(t, claudesim.Path(t), func(string) *claudetest.Model {
//			return claudetest.NewModel(claudetest.ToolReply("toolu_1", "Bash", map[string]any{"command": "rm -rf data"}))
//		})
//		env.Run("tidy up", v2.WithHook(shared.HookEventPreToolUse, "Bash", guard))
//		// env.Hooks(), env.ToolCalls(), env.Path("data"), env.Model.Requests() as with the real CLI
//	}
//
// A session needs no Env: v2.WithCLIPath(claudesim.Path(t)) and
// v2.WithBaseEnv(claudetest.CLIEnv(home, model.URL())...) point any session at the simulator. Outside
// tests, build the command: go build -o claude-sim
// github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim/cmd/claude-sim.
//
// What it has:
//   - Control requests: initialize (with hooks), get_hooks_listing (no settings hooks),
//     interrupt, set_permission_mode and set_model (accepted, without effect); any other is
//     answered with an error.
//   - Tools, run for real in the session's working directory: Bash (sh -c, combined output), Read,
//     Write and Edit (first occurrence). Any other tool name gets the error result "No such tool
//     available". Tool calls of one answer run one after the other.
//   - Hook events sent to the SDK: UserPromptSubmit, PreToolUse (a deny or block stops the tool
//     and becomes an is_error tool result; updatedInput replaces the input), PostToolUse,
//     PostToolUseFailure and Stop (a block makes one more turn). Matchers follow the CLI's rule:
//     plain names are an exact list, anything else an unanchored regular expression. A hook
//     callback that does not answer within its timeout (default 600 s) is cancelled and blocks; a
//     PreToolUse or UserPromptSubmit callback answered with an error (or an answer that does not
//     decode) blocks too: the simulator fails closed.
//   - Messages: system init, assistant (one per content block), user (tool results) and result
//     (subtype "success"; is_error on an API error or after 50 turns).
//   - The Messages API is called without streaming, with the tools Bash, Read, Write and Edit, the
//     conversation so far, and --system-prompt/--append-system-prompt as the system text. An
//     answer that is an HTTP error ends the turn with an is_error result (no retries).
//
// What it has not: permission rules, modes and callbacks (can_use_tool: every tool is allowed
// unless a hook denies it), the other hook events (SessionStart, PermissionRequest, Notification,
// SubagentStop, PreCompact, ...), MCP servers and SDK tools, subagents, streaming partial
// messages, side queries, sessions on disk (resume, fork), settings files, --max-turns and
// budgets, and the CLI's wording beyond the messages above.
package claudesim

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// exeName is the file name under which a test binary runs as the simulator.
const exeName = "claude-sim"

// initCalled records that Init ran, so that Path can tell a test that forgot it.
var initCalled atomic.Bool

// Init makes a test binary usable as the simulator: call it first in TestMain. When the process
// was started through Path's executable, Init runs the simulator and exits the process with its
// code; otherwise it returns at once.
func Init() {
	initCalled.Store(true)
	if strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == exeName {
		os.Exit(Main())
	}
}

// Path returns the path of a simulator executable for the test: the running test binary, linked
// (or copied) as "claude-sim" into a directory of t.TempDir(). The test binary's TestMain must
// call Init; Path fails the test when it did not.
func Path(t testing.TB) string {
	t.Helper()
	if !initCalled.Load() {
		t.Fatal("claudesim: Path needs claudesim.Init() at the start of the test binary's TestMain")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("claudesim: finding the test binary: %v", err)
	}
	name := exeName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(t.TempDir(), name)
	if os.Link(exe, p) == nil {
		return p
	}
	if err := copyFile(exe, p); err != nil {
		t.Fatalf("claudesim: copying the test binary: %v", err)
	}
	return p
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
