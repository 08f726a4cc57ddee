package claudetest_test

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// An Env runs the real CLI against its Model: a Write runs in the project, a Bash call denied by
// a PreToolUse hook does not, and the trace, the model's requests and the files say so.
func TestEnvTrace(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": project + "/notes.txt", "content": "hello\n"}),
			claudetest.ToolReply("toolu_02", "Bash", map[string]any{"command": "touch bash-ran.txt", "description": "touch"}),
			claudetest.TextReply("done"),
		)
	})
	noShell := shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		return shared.Deny("no shell in this project"), nil
	})
	res, err := env.Run("write notes, then touch a file",
		v2.WithAllowedTools("Write", "Bash"),
		v2.WithHook(shared.HookEventPreToolUse, "Bash", noShell))
	if err != nil || res.Result != "done" {
		t.Fatalf("Run = %+v, %v; want the result \"done\"", res, err)
	}

	wantCalls := []claudetest.ToolCall{
		{ID: "toolu_01", Name: "Write", Input: `{"file_path":"` + env.Path("notes.txt") + `","content":"hello\n"}`},
		{ID: "toolu_02", Name: "Bash", Input: `{"command":"touch bash-ran.txt","description":"touch"}`, IsError: true},
	}
	calls := env.ToolCalls()
	if diff := cmp.Diff(wantCalls, calls, cmpopts.IgnoreFields(claudetest.ToolCall{}, "Output")); diff != "" {
		t.Errorf("ToolCalls (-want +got):\n%s", diff)
	}
	if len(calls) == 2 && !strings.Contains(calls[1].Output, "no shell in this project") {
		t.Errorf("the denied call's Output = %q, want the hook's reason", calls[1].Output)
	}
	wantHooks := []claudetest.Hook{{Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_02",
		Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionDeny, Reason: "no shell in this project"}}
	if diff := cmp.Diff(wantHooks, env.Hooks()); diff != "" {
		t.Errorf("Hooks (-want +got):\n%s", diff)
	}

	if b, err := os.ReadFile(env.Path("notes.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("notes.txt = %q, %v; want the Write's content", b, err)
	}
	if _, err := os.Stat(env.Path("bash-ran.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied Bash call ran: %v", err)
	}
	reqs := env.Model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	if tr, ok := reqs[2].LastToolResult(); !ok || tr.ToolUseID != "toolu_02" || !tr.IsError || !strings.Contains(tr.ContentText(), "no shell in this project") {
		t.Errorf("the model's third request ends with %+v, want toolu_02's error with the hook's reason", tr)
	}
}

// Sessions of one Env share its trace, its Home and its project; Session leaves closing to the
// test's end or to the caller.
func TestEnvSessions(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo one > one.txt", "description": "one"}),
			claudetest.TextReply("first"),
			claudetest.ToolReply("toolu_02", "Bash", map[string]any{"command": "cat one.txt", "description": "two"}),
			claudetest.TextReply("second"),
		)
	})
	for _, want := range []string{"first", "second"} {
		s := env.Session(v2.WithAllowedTools("Bash"))
		res, err := s.Run(context.Background(), "go")
		if err != nil || res.Result != want {
			t.Fatalf("Run = %+v, %v; want %q", res, err, want)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want := []claudetest.ToolCall{
		{ID: "toolu_01", Name: "Bash", Input: `{"command":"echo one > one.txt","description":"one"}`, Output: "(Bash completed with no output)"},
		{ID: "toolu_02", Name: "Bash", Input: `{"command":"cat one.txt","description":"two"}`, Output: "one"},
	}
	if diff := cmp.Diff(want, env.ToolCalls()); diff != "" {
		t.Errorf("ToolCalls of both sessions (-want +got):\n%s", diff)
	}
	if hooks := env.Hooks(); len(hooks) != 0 {
		t.Errorf("Hooks = %+v, want none (no Go hooks)", hooks)
	}
	if entries, err := os.ReadDir(env.Home + "/.claude/projects"); err != nil || len(entries) != 1 {
		t.Errorf("Home/.claude/projects: %v, %v; want the project's sessions there", entries, err)
	}
}

type dbLookupIn struct {
	Key string `json:"key"`
}

type dbLookupOut struct {
	Value string `json:"value"`
}

// A Go tool (an in-process MCP server) runs with the model's input, its result reaches the model,
// and a permission callback decides each call: here it denies the second.
func TestEnvGoToolAndPermissionCallback(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "mcp__db__lookup", map[string]any{"key": "k1"}),
			claudetest.ToolReply("toolu_02", "mcp__db__lookup", map[string]any{"key": "secret"}),
			claudetest.TextReply("done"),
		)
	})
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	ran := make(chan string, 2) // the handler's calls; buffered: the test reads them after Run
	mcp.AddTool(srv, &mcp.Tool{Name: "lookup"}, func(_ context.Context, _ *mcp.CallToolRequest, in dbLookupIn) (*mcp.CallToolResult, dbLookupOut, error) {
		ran <- in.Key
		return nil, dbLookupOut{Value: "value-of-" + in.Key}, nil
	})
	noSecrets := func(_ context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		if req.Input.String("key") == "secret" {
			return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "secrets stay secret"}, nil
		}
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}

	env.Run("look k1 and the secret up", v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithCanUseTool(noSecrets))

	close(ran)
	var keys []string
	for k := range ran {
		keys = append(keys, k)
	}
	if diff := cmp.Diff([]string{"k1"}, keys); diff != "" {
		t.Errorf("the Go tool ran for (-want +got):\n%s", diff)
	}
	want := []claudetest.ToolCall{
		{ID: "toolu_01", Name: "mcp__db__lookup", Input: `{"key":"k1"}`, Output: `{"value":"value-of-k1"}`},
		{ID: "toolu_02", Name: "mcp__db__lookup", Input: `{"key":"secret"}`, Output: "secrets stay secret", IsError: true},
	}
	if diff := cmp.Diff(want, env.ToolCalls()); diff != "" {
		t.Errorf("ToolCalls (-want +got):\n%s", diff)
	}
}

// A hook that fails on an event that guards an action is a deny, and Hooks says so.
func TestEnvHookFailureIsADeny(t *testing.T) {
	t.Parallel()
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "touch ran.txt", "description": "touch"}),
			claudetest.TextReply("done"),
		)
	})
	broken := shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		return nil, errors.New("policy store unreachable")
	})
	env.Run("touch", v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPreToolUse, "Bash", broken))

	want := []claudetest.Hook{{Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_01",
		Outcome: shared.HookOutcomeError, Decision: shared.DecisionDeny, Reason: "hook failed, denied by the SDK (fail-closed)"}}
	if diff := cmp.Diff(want, env.Hooks()); diff != "" {
		t.Errorf("Hooks (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(env.Path("ran.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the Bash call ran despite the failed guard: %v", err)
	}
}

// A hook's additionalContext reaches the model: the PostToolUse hook's text is in the request
// after the tool call and in none before (what Env.Model's Requests are for).
func TestEnvAdditionalContextReachesModel(t *testing.T) {
	t.Parallel()
	const note = "audit note 7f3: the listing was logged"
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "ls", "description": "list"}),
			claudetest.TextReply("done"),
		)
	})
	audit := shared.OnPostToolUse(func(context.Context, *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		return shared.AddContext(note), nil
	})
	if _, err := env.Run("list the project", v2.WithAllowedTools("Bash"),
		v2.WithHook(shared.HookEventPostToolUse, "Bash", audit)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	var got []bool
	for _, r := range env.Model.Requests() {
		got = append(got, r.Contains(note))
	}
	if diff := cmp.Diff([]bool{false, true}, got); diff != "" {
		t.Errorf("the note in each main-loop request (-want +got):\n%s", diff)
	}
}
