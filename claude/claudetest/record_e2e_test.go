package claudetest_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// tidyHooks are the session's hooks in TestRecordAndReplay: a guard that denies rm, and an audit
// of every tool that ran.
func tidyHooks() []v2.Option {
	guard := shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		if strings.HasPrefix(in.ToolInput.String("command"), "rm ") {
			return shared.Deny("rm is not allowed"), nil
		}
		return shared.Allow(), nil
	})
	audit := shared.OnPostToolUse(func(context.Context, *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		return nil, nil
	})
	return []v2.Option{
		v2.WithAllowedTools("Bash", "Write"),
		v2.WithHook(shared.HookEventPreToolUse, "", guard),
		v2.WithHook(shared.HookEventPostToolUse, "", audit),
	}
}

// tidy runs the session of TestRecordAndReplay in env (with more options) and returns what a
// recording must reproduce: the tool calls and hook runs (the env's project directory replaced by
// $PROJECT, the only part that differs between two envs), the result text and the project's files.
func tidy(t *testing.T, env *claudetest.Env, more ...v2.Option) ([]claudetest.ToolCall, []claudetest.Hook, string, []string) {
	t.Helper()
	if err := os.Mkdir(env.Path("build"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := env.Run("tidy up the project", append(tidyHooks(), more...)...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	unproject := func(s string) string { return strings.ReplaceAll(s, env.Project, "$PROJECT") }
	calls := env.ToolCalls()
	for i := range calls {
		calls[i].Input, calls[i].Output = unproject(calls[i].Input), unproject(calls[i].Output)
	}
	hooks := env.Hooks()
	for i := range hooks {
		hooks[i].Reason = unproject(hooks[i].Reason)
	}
	var files []string
	entries, err := os.ReadDir(env.Project)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files = append(files, e.Name())
	}
	return calls, hooks, res.Result, files
}

// A session recorded through a Recorder (the real CLI, a guard hook, parallel tool calls, a rate
// limit) and replayed offline from the saved script by a second Env gives the same trace: the same
// tools ran with the same inputs and outputs, the hooks took the same decisions, the result and
// the project's files are the same. The upstream is the live Env's Model standing in for the real
// API (no API key here).
func TestRecordAndReplay(t *testing.T) {
	t.Parallel()
	live := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hello > hello.txt", "description": "greet"}),
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_02", Name: "Bash", Input: map[string]any{"command": "rm -rf build"}},
				claudetest.ToolUse{ID: "toolu_03", Name: "Write", Input: map[string]any{"file_path": project + "/notes.txt", "content": "tidy\n"}},
			),
			claudetest.RateLimitReply(10*time.Millisecond),
			claudetest.TextReply("Tidied, but I may not remove build."),
		)
	})
	rec, err := claudetest.NewRecorder(live.Model.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	// Later options win: the sessions talk to the Recorder, which passes on to the Model.
	liveCalls, liveHooks, liveResult, liveFiles := tidy(t, live, v2.WithBaseEnv(claudetest.CLIEnv(live.Home, rec.URL())...))
	name := t.TempDir() + "/session.json"
	if err := rec.Save(name); err != nil {
		t.Fatalf("Save: %v", err)
	}
	if n := live.Model.Remaining(); n != 0 {
		t.Fatalf("the live run left %d scripted replies unused", n)
	}

	replies, err := claudetest.LoadScript(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != 4 || replies[2].Status != 429 || replies[2].RetryAfter != 10*time.Millisecond {
		t.Fatalf("recorded %d replies, want 4 with the rate limit third:\n%s", len(replies), readFile(t, name))
	}
	replay := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		// The script holds the live project's absolute path (the Write's file_path, as the model
		// wrote it); the replay's scratch project is another directory. Edit the script, as a user
		// replaying an incident elsewhere would.
		for _, r := range replies {
			for i, u := range r.ToolUses {
				in := u.Input.(jsontext.Value)
				r.ToolUses[i].Input = jsontext.Value(bytes.ReplaceAll(in, []byte(live.Project), []byte(project)))
			}
		}
		return claudetest.NewModel(replies...)
	})
	replayCalls, replayHooks, replayResult, replayFiles := tidy(t, replay)

	wantCalls := []claudetest.ToolCall{
		{ID: "toolu_01", Name: "Bash", Input: `{"command":"echo hello > hello.txt","description":"greet"}`, Output: "(Bash completed with no output)"},
		{ID: "toolu_02", Name: "Bash", Input: `{"command":"rm -rf build"}`, Output: "PreToolUse:Bash hook error: rm is not allowed", IsError: true},
		{ID: "toolu_03", Name: "Write", Input: `{"file_path":"$PROJECT/notes.txt","content":"tidy\n"}`, Output: "File created successfully at: $PROJECT/notes.txt (file state is current in your context — no need to Read it back)"},
	}
	wantHooks := []claudetest.Hook{
		{Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_01", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionAllow},
		{Event: shared.HookEventPostToolUse, ToolName: "Bash", ToolUseID: "toolu_01", Outcome: shared.HookOutcomeSuccess},
		{Event: shared.HookEventPreToolUse, ToolName: "Bash", ToolUseID: "toolu_02", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionDeny, Reason: "rm is not allowed"},
		{Event: shared.HookEventPreToolUse, ToolName: "Write", ToolUseID: "toolu_03", Outcome: shared.HookOutcomeSuccess, Decision: shared.DecisionAllow},
		{Event: shared.HookEventPostToolUse, ToolName: "Write", ToolUseID: "toolu_03", Outcome: shared.HookOutcomeSuccess},
	}
	// The hooks of the parallel calls (toolu_02, toolu_03) may end in either order.
	byCall := cmpopts.SortSlices(func(a, b claudetest.Hook) bool {
		return a.ToolUseID+string(a.Event) < b.ToolUseID+string(b.Event)
	})
	if diff := cmp.Diff(wantCalls, liveCalls); diff != "" {
		t.Errorf("live tool calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantHooks, liveHooks, byCall); diff != "" {
		t.Errorf("live hook runs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(liveCalls, replayCalls); diff != "" {
		t.Errorf("replayed tool calls differ from the live ones (-live +replay):\n%s", diff)
	}
	if diff := cmp.Diff(liveHooks, replayHooks, byCall); diff != "" {
		t.Errorf("replayed hook runs differ from the live ones (-live +replay):\n%s", diff)
	}
	if diff := cmp.Diff([]any{liveResult, liveFiles}, []any{replayResult, replayFiles}); diff != "" {
		t.Errorf("result and files (-live +replay):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"build", "hello.txt", "notes.txt"}, replayFiles); diff != "" {
		t.Errorf("replayed project files (-want +got):\n%s", diff)
	}
	if r, l := len(replay.Model.Requests()), len(live.Model.Requests()); r != l || replay.Model.Remaining() != 0 {
		t.Errorf("replay: %d main-loop requests (live %d), %d replies unused", r, l, replay.Model.Remaining())
	}
}
