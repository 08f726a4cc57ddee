package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// outsideDir makes a directory beside the project holding keep.txt, and returns it.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// listing returns the names below dir, sorted.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// The scripted model tries the classic escapes, each as the real CLI's tool call; with
// v2.WithPolicy the files outside the project stay as they were, the two writes inside are done
// (the policy's allow stands in for a permission), and the model is told which rule denied each.
func TestRealCLI_PolicyStopsEscapes(t *testing.T) {
	t.Parallel()
	out := outsideDir(t)
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd} }
	escapes := []map[string]any{
		bash("echo pwned > " + out + "/a.txt"),
		bash("cd .. && echo x > escape.txt"),
		bash("ln -s " + out + " l && echo x > l/b.txt"),
		bash("bash -c 'rm -f " + out + "/keep.txt'"),
		bash("find " + out + " -delete"),
		bash("python3 -c 'open(\"" + out + "/c.txt\", \"w\")'"),
		bash("f() { rm -f keep.txt; }; cd " + out + " && f"),
		bash("cat > " + out + "/d.txt <<'EOF'\nx\nEOF"),
		bash("touch {x," + out + "/e.txt}"),
		bash("rm -rf ."),
		bash("echo x > .git/config"),
	}
	env := claudetest.NewEnv(t, func(p string) *claudetest.Model {
		var replies []claudetest.Reply
		for i, in := range escapes {
			replies = append(replies, claudetest.ToolReply("toolu_e"+string(rune('a'+i)), "Bash", in))
		}
		replies = append(replies,
			claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": out + "/f.txt", "content": "x"}),
			claudetest.ToolReply("toolu_w2", "Write", map[string]any{"file_path": "../g.txt", "content": "x"}),
			claudetest.ToolReply("toolu_ok1", "Bash", bash("echo ok > inside.txt && mkdir -p build && rm -rf build")),
			claudetest.ToolReply("toolu_ok2", "Write", map[string]any{"file_path": p + "/notes.txt", "content": "x"}),
			claudetest.TextReply("done"))
		return claudetest.NewModel(replies...)
	})
	if err := os.MkdirAll(env.Path(".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := listing(t, filepath.Dir(env.Project))
	// The program's own hook, registered before the policy, runs after it: it sees only the
	// calls the policy let through.
	var mu sync.Mutex
	var seen []string
	own := v2.WithHook(shared.HookEventPreToolUse, "*", shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, in.ToolName)
		return nil, nil
	}))
	if _, err := env.Run("try to escape", own, v2.WithPolicy(policy.Confined(env.Project))); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	if diff := cmp.Diff([]string{"Bash", "Write"}, seen); diff != "" {
		t.Errorf("the program's hook saw (-want +got):\n%s", diff)
	}
	mu.Unlock()
	if diff := cmp.Diff([]string{".", "keep.txt"}, listing(t, out)); diff != "" {
		t.Errorf("outside directory changed (-want +got):\n%s", diff)
	}
	after := slices.DeleteFunc(listing(t, filepath.Dir(env.Project)), func(n string) bool { return strings.HasPrefix(n, "project") })
	before = slices.DeleteFunc(before, func(n string) bool { return strings.HasPrefix(n, "project") })
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("the project's parent changed (-want +got):\n%s", diff)
	}
	for _, f := range []string{"inside.txt", "notes.txt"} {
		if _, err := os.Stat(env.Path(f)); err != nil {
			t.Errorf("%s not written inside the project: %v", f, err)
		}
	}
	if _, err := os.Stat(env.Path(".git/config")); err == nil {
		t.Error(".git/config written")
	}
	// Every escape came back to the model as a denial naming its rule.
	denials := 0
	for _, r := range env.Model.Requests() {
		for _, b := range r.ToolResults() {
			if strings.Contains(b.ContentText(), "policy: denied by rule") {
				denials++
			}
		}
	}
	if want := len(escapes) + 2; denials < want {
		t.Errorf("the model saw %d policy denials, want %d", denials, want)
	}
}

// What static analysis cannot see: the model writes a Makefile inside the project (allowed), then
// runs make, which a policy under kernel confinement lets run (WithKernelConfinement: here
// without the confinement itself, to show what it is for), and the recipe writes outside. Without
// the sandbox the write happens; with v2.PolicySandbox the OS stops it.
func TestRealCLI_PolicySandboxStopsWhatAnalysisCannotSee(t *testing.T) {
	t.Parallel()
	claudetest.RequireSandbox(t)
	for _, sandboxed := range []bool{false, true} {
		t.Run(map[bool]string{false: "hook only", true: "with sandbox"}[sandboxed], func(t *testing.T) {
			t.Parallel()
			out := outsideDir(t)
			env := claudetest.NewEnv(t, func(p string) *claudetest.Model {
				return claudetest.NewModel(
					claudetest.ToolReply("toolu_s1", "Write", map[string]any{"file_path": p + "/Makefile", "content": "all:\n\techo escaped > " + out + "/s.txt; echo in > inside.txt\n"}),
					claudetest.ToolReply("toolu_s2", "Bash", map[string]any{"command": "make"}),
					claudetest.TextReply("done"))
			})
			// The policy as under kernel confinement, without the confinement: only the CLI's
			// sandbox is left to stop the recipe.
			p := policy.Confined(env.Project).WithKernelConfinement()
			opts := []v2.Option{v2.WithPolicy(p), v2.WithoutOSConfinement()}
			if sandboxed {
				opts = append(opts, v2.WithSandbox(v2.PolicySandbox(p)))
			} else {
				opts = append(opts, v2.WithoutOSConfinement()) // else the kernel stops it (v2's e2e_confine_test.go)
			}
			if _, err := env.Run("run the script", opts...); err != nil {
				t.Fatalf("Run: %v", err)
			}
			_, err := os.Stat(filepath.Join(out, "s.txt"))
			if escaped := err == nil; escaped == sandboxed {
				t.Errorf("sandboxed=%v: outside file written = %v", sandboxed, escaped)
			}
			if _, err := os.Stat(env.Path("inside.txt")); err != nil {
				t.Errorf("the script did not run (inside.txt missing): %v", err)
			}
		})
	}
}
