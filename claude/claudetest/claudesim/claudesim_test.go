package claudesim_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

func TestMain(m *testing.M) {
	claudesim.Init()
	os.Exit(m.Run())
}

// A session through the simulator on a claudetest.Env, scripted by a file in testdata, with no
// Node: the PreToolUse guard denies the rm (the directory stays, the model gets an is_error tool
// result with the reason), the Write runs (the file is written), and the audit hook sees only the
// tool that ran. Removing the guard makes this test fail: the rm would run.
func TestSimulatorGuard(t *testing.T) {
	replies, err := claudetest.LoadScript("testdata/guard.json")
	if err != nil {
		t.Fatal(err)
	}
	env := claudetest.NewEnvWithCLI(t, claudesim.Path(t), func(string) *claudetest.Model {
		return claudetest.NewModel(replies...)
	})
	if err := os.Mkdir(env.Path("data"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if strings.Contains(in.ToolInput.String("command"), "rm ") {
			return shared.Deny("rm is not allowed"), nil
		}
		return shared.Allow(), nil
	})
	audit := shared.OnPostToolUse(func(context.Context, *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		return nil, nil
	})
	res, err := env.Run("tidy up",
		v2.WithHook(shared.HookEventPreToolUse, "", guard),
		v2.WithHook(shared.HookEventPostToolUse, "", audit))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}

	wantHooks := []claudetest.Hook{
		{Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_01", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionDeny, Reason: "rm is not allowed"},
		{Event: shared.HookEventPreToolUse, ToolName: "Write", ToolUseID: "toolu_02", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionAllow},
		{Event: shared.HookEventPostToolUse, ToolName: "Write", ToolUseID: "toolu_02", Outcome: shared.HookOutcomeSuccess},
	}
	if diff := cmp.Diff(wantHooks, env.Hooks()); diff != "" {
		t.Errorf("hook decisions (-want +got):\n%s", diff)
	}
	wantCalls := []claudetest.ToolCall{
		{ID: "toolu_01", Name: "Bash", Input: `{"command":"rm -rf data"}`, Output: "PreToolUse:Bash hook error: rm is not allowed", IsError: true},
		{ID: "toolu_02", Name: "Write", Input: `{"file_path":"notes.txt","content":"kept\n"}`, Output: "File created successfully at: " + env.Path("notes.txt")},
	}
	if diff := cmp.Diff(wantCalls, env.ToolCalls()); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if res.Result != "I could not remove data; I wrote notes.txt." {
		t.Errorf("result %q", res.Result)
	}
	if _, err := os.Stat(env.Path("data")); err != nil {
		t.Errorf("the denied rm ran: %v", err)
	}
	if b, err := os.ReadFile(env.Path("notes.txt")); err != nil || string(b) != "kept\n" {
		t.Errorf("notes.txt: %q, %v", b, err)
	}
	if n, left := len(env.Model.Requests()), env.Model.Remaining(); n != 3 || left != 0 {
		t.Errorf("%d main-loop requests, %d replies left; want 3 and 0", n, left)
	}
}

// Path's executable is the test binary running as the simulator: named claude-sim, it answers
// --version as the simulator, not as a test binary.
func TestPath(t *testing.T) {
	p := claudesim.Path(t)
	if name := strings.TrimSuffix(filepath.Base(p), ".exe"); name != "claude-sim" {
		t.Errorf("Path = %q", p)
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || string(out) != "2.1.330 (Claude Code simulator)\n" {
		t.Errorf("claude-sim --version: %q, %v", out, err)
	}
}

// A PreToolUse callback that the SDK answers with an error, or with something that is not a hook
// answer, blocks the tool: the simulator fails closed. An empty answer lets it run (the control
// case). The simulator is driven over its stdin and stdout, as the SDK would.
func TestSimulatorHookFailureBlocks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string // the control_response to the hook_callback, %s is its request_id
		blocked bool
	}{
		{"error answer", `{"type":"control_response","response":{"subtype":"error","request_id":%q,"error":"boom"}}`, true},
		{"not a hook answer", `{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":[1]}}`, true},
		{"empty answer", `{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":{}}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := claudetest.NewModel(claudetest.ToolReply("toolu_1", "Bash", map[string]any{"command": "touch ran"}), claudetest.TextReply("ok"))
			defer model.Close()
			project := t.TempDir()
			cmd := exec.Command(claudesim.Path(t))
			cmd.Dir = project
			cmd.Env = claudetest.CLIEnv(t.TempDir(), model.URL())
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stdout)
			// next reads stdout up to the first message of type typ and returns it.
			next := func(typ string) map[string]any {
				t.Helper()
				for lines.Scan() {
					var m map[string]any
					if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
						t.Fatalf("simulator wrote %q: %v", lines.Text(), err)
					}
					if m["type"] == typ {
						return m
					}
				}
				t.Fatalf("no %s message: %v", typ, lines.Err())
				return nil
			}
			fmt.Fprintln(stdin, `{"type":"control_request","request_id":"init","request":{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["guard"]}]}}}`)
			next("control_response")
			fmt.Fprintln(stdin, `{"type":"user","message":{"role":"user","content":"go"}}`)
			cb := next("control_request")
			fmt.Fprintf(stdin, tc.answer+"\n", cb["request_id"])
			res := next("result")
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("simulator: %v", err)
			}
			if res["result"] != "ok" {
				t.Errorf("result %v", res)
			}
			_, err = os.Stat(filepath.Join(project, "ran"))
			if ran := err == nil; ran == tc.blocked {
				t.Errorf("the tool ran: %v, want %v", ran, !tc.blocked)
			}
			tr, ok := model.Requests()[1].LastToolResult()
			if !ok || tr.IsError != tc.blocked || (tc.blocked && !strings.Contains(tr.ContentText(), "hook failed")) {
				t.Errorf("tool result %+v (%q)", tr, tr.ContentText())
			}
		})
	}
}
