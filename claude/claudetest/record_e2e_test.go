package claudetest_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// step is one line of a session's trace: a PreToolUse decision or a tool that ran (PostToolUse).
type step struct {
	ID, Event, Tool, Input, Decision string
}

// tracer records the trace of a session through its hooks: a guard that denies rm, and an audit
// of every tool that ran.
type tracer struct {
	mu    sync.Mutex
	steps []step
}

func (tr *tracer) add(s step) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.steps = append(tr.steps, s)
}

// sorted returns the trace in tool_use id order (parallel tool calls run in any order).
func (tr *tracer) sorted() []step {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := append([]step(nil), tr.steps...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID+out[i].Event > out[j].ID+out[j].Event })
	return out
}

func inputText(in shared.ToolInput) string {
	b, _ := json.Marshal(in, json.Deterministic(true))
	return string(b)
}

func (tr *tracer) hooks() shared.Hooks {
	guard := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		s := step{ID: in.ToolUseID, Event: "PreToolUse", Tool: in.ToolName, Input: inputText(in.ToolInput), Decision: "allow"}
		if strings.HasPrefix(in.ToolInput.String("command"), "rm ") {
			s.Decision = "deny"
			tr.add(s)
			return shared.Deny("rm is not allowed"), nil
		}
		tr.add(s)
		return shared.Allow(), nil
	})
	audit := shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		tr.add(step{ID: in.ToolUseID, Event: "PostToolUse", Tool: in.ToolName, Input: inputText(in.ToolInput)})
		return nil, nil
	})
	return shared.Hooks{
		shared.HookEventPreToolUse:  {{Handler: guard}},
		shared.HookEventPostToolUse: {{Handler: audit}},
	}
}

// runTraced runs one session of the real CLI in project against the Messages API at baseURL and
// returns its trace, its result text and the project's files.
func runTraced(t *testing.T, bin, project, baseURL string) ([]step, string, []string) {
	t.Helper()
	var tr tracer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := v2.CreateSession(ctx,
		v2.WithCLIPath(bin), v2.WithCwd(project), v2.WithBaseEnv(claudetest.CLIEnv(t.TempDir(), baseURL)),
		v2.WithAllowedTools("Bash", "Write"), v2.WithHooks(tr.hooks()))
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	defer s.Close()
	res, err := s.Run(ctx, "tidy up the project")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var files []string
	entries, _ := os.ReadDir(project)
	for _, e := range entries {
		files = append(files, e.Name())
	}
	return tr.sorted(), res.Result, files
}

// A session recorded through a Recorder (the real CLI, tool calls, a guard hook, parallel tool
// calls, a rate limit) and replayed offline from the saved script by a fresh Model gives the same
// trace: the same tools ran with the same inputs, the guard took the same decisions, the same
// files exist. The upstream is a Model standing in for the real API (no API key here).
func TestRecordAndReplay(t *testing.T) {
	bin := claudetest.RequireCLI(t)
	project := filepath.Join(t.TempDir(), "project")
	if p, err := filepath.EvalSymlinks(filepath.Dir(project)); err == nil {
		project = filepath.Join(p, "project")
	}
	fresh := func() {
		if err := os.RemoveAll(project); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(project, "build"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := []claudetest.Reply{
		claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hello > hello.txt", "description": "greet"}),
		claudetest.ToolsReply(
			claudetest.ToolUse{ID: "toolu_02", Name: "Bash", Input: map[string]any{"command": "rm -rf build"}},
			claudetest.ToolUse{ID: "toolu_03", Name: "Write", Input: map[string]any{"file_path": filepath.Join(project, "notes.txt"), "content": "tidy\n"}},
		),
		claudetest.RateLimitReply(10 * time.Millisecond),
		claudetest.TextReply("Tidied, but I may not remove build."),
	}

	fresh()
	upstream := claudetest.NewModel(script...)
	defer upstream.Close()
	rec, err := claudetest.NewRecorder(upstream.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	liveTrace, liveResult, liveFiles := runTraced(t, bin, project, rec.URL())
	name := filepath.Join(t.TempDir(), "session.json")
	if err := rec.Save(name); err != nil {
		t.Fatalf("Save: %v", err)
	}
	if upstream.Remaining() != 0 {
		t.Fatalf("the live run left %d scripted replies unused", upstream.Remaining())
	}

	replies, err := claudetest.LoadScript(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != len(script) || replies[2].Status != 429 || replies[2].RetryAfter != 10*time.Millisecond {
		t.Fatalf("recorded %d replies, want %d with the rate limit third:\n%s", len(replies), len(script), readFile(t, name))
	}
	fresh()
	replay := claudetest.NewModel(replies...)
	defer replay.Close()
	replayTrace, replayResult, replayFiles := runTraced(t, bin, project, replay.URL())

	wantTrace := []step{
		{"toolu_03", "PreToolUse", "Write", inputText(shared.ToolInput{"file_path": filepath.Join(project, "notes.txt"), "content": "tidy\n"}), "allow"},
		{"toolu_03", "PostToolUse", "Write", inputText(shared.ToolInput{"file_path": filepath.Join(project, "notes.txt"), "content": "tidy\n"}), ""},
		{"toolu_02", "PreToolUse", "Bash", `{"command":"rm -rf build"}`, "deny"},
		{"toolu_01", "PreToolUse", "Bash", `{"command":"echo hello > hello.txt","description":"greet"}`, "allow"},
		{"toolu_01", "PostToolUse", "Bash", `{"command":"echo hello > hello.txt","description":"greet"}`, ""},
	}
	if diff := cmp.Diff(wantTrace, liveTrace); diff != "" {
		t.Errorf("live trace (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(liveTrace, replayTrace); diff != "" {
		t.Errorf("replayed trace differs from the live one (-live +replay):\n%s", diff)
	}
	if diff := cmp.Diff([]any{liveResult, liveFiles}, []any{replayResult, replayFiles}); diff != "" {
		t.Errorf("result and files (-live +replay):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"build", "hello.txt", "notes.txt"}, replayFiles); diff != "" {
		t.Errorf("replayed project files (-want +got):\n%s", diff)
	}
	if len(replay.Requests()) != len(upstream.Requests()) || replay.Remaining() != 0 {
		t.Errorf("replay: %d main-loop requests (live %d), %d replies unused", len(replay.Requests()), len(upstream.Requests()), replay.Remaining())
	}
}
