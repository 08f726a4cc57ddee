package claudetest_test

import (
	"bytes"
	"context"

	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A guard test: the model asks to write outside the project, a PreToolUse hook denies it, and
// the test checks that the file is absent, that the hook denied, and that the model was told why.
// In a real test, t is the test's *testing.T.
func ExampleNewEnv() {
	var t *testing.T // func TestGuard(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "escape.txt")
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": outside, "content": "x"}),
			claudetest.TextReply("done"),
		)
	})
	guard := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if p := in.ToolInput.String("file_path"); !strings.HasPrefix(p, env.Project+string(filepath.Separator)) {
			return shared.Deny("outside the project: " + p), nil
		}
		return nil, nil
	})

	env.Run("write the file", v2.WithAllowedTools("Write"), v2.WithHook(shared.HookEventPreToolUse, "Write", guard))

	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the guard let the Write through: %v", err)
	}
	if h := env.Hooks(); len(h) != 1 || h[0].Decision != shared.DecisionDeny {
		t.Errorf("hooks = %+v, want one deny", h)
	}
	if r, ok := env.Model.LastRequest(); !ok || !r.Contains("outside the project") {
		t.Errorf("the model was not told why")
	}
}

// ToolCalls are plain values: compare them with go-cmp, or look at one.
func ExampleEnv_ToolCalls() {
	var t *testing.T // in a test
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "rm -rf build"}))
	})
	env.Run("clean up", v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no rm"}, nil
	}))
	for _, c := range env.ToolCalls() {
		if c.Name == "Bash" && (!c.IsError || !strings.Contains(c.Output, "no rm")) {
			t.Errorf("rm was not denied: %+v", c)
		}
	}
}

// The Model is an HTTP server: here a client other than the CLI asks it for a reply, and the
// request is recorded.
func ExampleNewModel() {
	model := claudetest.NewModel(claudetest.TextReply("Hello from the script."))
	defer model.Close()

	body := `{"model":"claude-test","max_tokens":100,"tools":[{"name":"Bash"}],` +
		`"messages":[{"role":"user","content":"hi there"}]}`
	resp, err := http.Post(model.URL()+"/v1/messages", "application/json", bytes.NewBufferString(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var msg struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	if err := json.UnmarshalRead(resp.Body, &msg); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(msg.Content[0].Text, msg.StopReason)
	reqs := model.Requests()
	fmt.Println(len(reqs), reqs[0].Contains("hi there"))
	// Output:
	// Hello from the script. end_turn
	// 1 true
}

// CLIEnv is the environment a session needs to run the CLI against a Model without an Env (a
// program, a benchmark): pass it to v2.WithBaseEnv. These are the variables it sets.
func ExampleCLIEnv() {
	env := claudetest.CLIEnv("/tmp/scratch-home", "http://127.0.0.1:8080")
	for _, kv := range env[len(env)-4:] {
		fmt.Println(kv)
	}
	// Output:
	// HOME=/tmp/scratch-home
	// ANTHROPIC_BASE_URL=http://127.0.0.1:8080
	// ANTHROPIC_API_KEY=sk-ant-test
	// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
}

// FindCLI lets a test decide for itself what a missing CLI means.
func ExampleFindCLI() {
	path, err := claudetest.FindCLI()
	if errors.Is(err, shared.ErrCLINotFound) {
		fmt.Println("no CLI:", err) // says where it looked and how to install it
		return
	}
	fmt.Println("testing with", path)
}
