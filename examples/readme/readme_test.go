// Package readme runs the README's code: TestQuickstart builds the "Quickstart with hooks"
// program as the README shows it and runs it against the real CLI and a scripted fake model.
package readme

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// quickstart returns the Go code block of the README's "Quickstart with hooks" section.
func quickstart(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Quickstart with hooks\n")
	if !ok {
		t.Fatal(`README.md has no "## Quickstart with hooks" section`)
	}
	_, code, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("the quickstart section has no ```go block")
	}
	code, _, ok = strings.Cut(code, "\n```")
	if !ok {
		t.Fatal("the quickstart's code block does not end")
	}
	return code + "\n"
}

// The quickstart completes its task: the model's Write of haiku.txt is allowed by the policy
// (no permission rule needed) and the program exits 0 having printed the result. A model that
// writes outside the project is denied, and the program says so and exits 1.
func TestQuickstart(t *testing.T) {
	cli := claudetest.RequireCLI(t)
	// Build the README's program inside this module (for its go.mod), in a directory go's
	// ./... patterns skip.
	src, err := os.MkdirTemp(".", "_quickstart")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(src) })
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(quickstart(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "quickstart")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // only catches a hang
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./"+filepath.Base(src)).CombinedOutput(); err != nil {
		t.Fatalf("go build of the README quickstart: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name     string
		path     func(project string) string
		wantExit int
		wantOut  string
	}{
		{"writes in the project", func(p string) string { return filepath.Join(p, "haiku.txt") }, 0, "haiku written"},
		// The policy denies the only action, so Run itself fails (v2.ErrPermissionDenied).
		{"writes outside", func(p string) string { return filepath.Join(filepath.Dir(p), "haiku.txt") }, 1, "v2: turn refused: permission denied: Write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := claudetest.NewEnv(t, func(p string) *claudetest.Model {
				return claudetest.NewModel(
					claudetest.ToolReply("toolu_q1", "Write", map[string]any{"file_path": tc.path(p), "content": "old pond\nfrog jumps in\nsplash\n"}),
					claudetest.TextReply("haiku written"))
			})
			cmd := exec.CommandContext(ctx, bin)
			cmd.Dir = env.Project
			cmd.Env = append(claudetest.CLIEnv(env.Home, env.Model.URL()), "CLAUDE_CLI_PATH="+cli)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			exit := 0
			if ee, ok := err.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if exit != tc.wantExit || !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("exit %d, output:\n%s\nwant exit %d and %q", exit, out.String(), tc.wantExit, tc.wantOut)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(env.Project), "haiku.txt")); err == nil {
				t.Error("haiku.txt written outside the project")
			}
		})
	}
}
