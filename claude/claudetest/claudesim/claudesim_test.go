package claudesim_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/internal/cli"
)

func TestMain(m *testing.M) {
	claudesim.Init()
	os.Exit(m.Run())
}

// A session through the simulator, scripted by a file in testdata, with no Node: the PreToolUse
// guard denies the rm (the directory stays, the model gets an is_error tool result with the
// reason), the Write runs (the file is written), and the audit hook sees only the tool that ran.
// Removing the guard makes this test fail: the rm would run.
func TestSimulatorGuard(t *testing.T) {
	replies, err := claudetest.LoadScript("testdata/guard.json")
	if err != nil {
		t.Fatal(err)
	}
	model := claudetest.NewModel(replies...)
	defer model.Close()
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "data"), 0o755); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var trace []string
	add := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		trace = append(trace, s)
	}
	hooks := shared.Hooks{
		shared.HookEventPreToolUse: {{Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			if strings.Contains(in.ToolInput.String("command"), "rm ") {
				add("deny " + in.ToolUseID + " " + in.ToolName)
				return shared.Deny("rm is not allowed"), nil
			}
			add("allow " + in.ToolUseID + " " + in.ToolName)
			return shared.Allow(), nil
		})}},
		shared.HookEventPostToolUse: {{Handler: shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
			add("ran " + in.ToolUseID + " " + in.ToolName)
			return nil, nil
		})}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := v2.CreateSession(ctx, v2.WithCLIPath(claudesim.Path(t)), v2.WithCwd(project),
		v2.WithBaseEnv(cli.Env(t.TempDir(), model.URL())), v2.WithHooks(hooks))
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	defer s.Close()
	res, err := s.Run(ctx, "tidy up")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	want := []string{"deny toolu_01 Bash", "allow toolu_02 Write", "ran toolu_02 Write"}
	if diff := cmp.Diff(want, trace); diff != "" {
		t.Errorf("hook trace (-want +got):\n%s", diff)
	}
	if res.Result != "I could not remove data; I wrote notes.txt." {
		t.Errorf("result %q", res.Result)
	}
	if _, err := os.Stat(filepath.Join(project, "data")); err != nil {
		t.Errorf("the denied rm ran: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(project, "notes.txt")); err != nil || string(b) != "kept\n" {
		t.Errorf("notes.txt: %q, %v", b, err)
	}
	reqs := model.Requests()
	if len(reqs) != 3 || model.Remaining() != 0 {
		t.Fatalf("%d main-loop requests, %d replies left; want 3 and 0", len(reqs), model.Remaining())
	}
	type result struct {
		ID, Text string
		IsError  bool
	}
	var got []result
	for _, b := range reqs[2].ToolResults() {
		got = append(got, result{b.ToolUseID, b.ResultText(), b.IsError})
	}
	wantResults := []result{
		{"toolu_01", "PreToolUse:Bash hook error: rm is not allowed", true},
		{"toolu_02", "File created successfully at: " + filepath.Join(project, "notes.txt"), false},
	}
	if diff := cmp.Diff(wantResults, got); diff != "" {
		t.Errorf("tool results the model got (-want +got):\n%s", diff)
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
