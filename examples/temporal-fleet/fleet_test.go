package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.temporal.io/sdk/client"
	"go.temporal.io/server/temporaltest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// A fleet of two sessions, in parallel, on two clones of a repository, against a real Temporal
// server in the test process and the real CLI on the fake API: the session told to write in its
// checkout does; the one told to write outside is refused by the policy, and the file is not
// there. Both results come back, in the tasks' order.
func TestFleetConfinesEachSessionToItsCheckout(t *testing.T) {
	cli := claudetest.RequireCLI(t)
	tmp := t.TempDir()
	repo, root, outside := filepath.Join(tmp, "app"), filepath.Join(tmp, "checkouts"), filepath.Join(tmp, "outside")
	gitRepo(t, repo)
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	dirs, err := Checkouts(ctx, repo, root, 2)
	if err != nil {
		t.Fatal(err)
	}
	inside, escape := filepath.Join(dirs[0], "NOTES.md"), filepath.Join(outside, "escape.txt")
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
			if res, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("the write said: " + res.ContentText())
			}
			target := inside
			if r.Contains("task-outside") {
				target = escape
			}
			return claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": target, "content": "notes\n"})
		})
	})

	ts := temporaltest.NewServer(temporaltest.WithT(t))
	waitForNamespace(ctx, t, ts.GetDefaultClient(), ts.GetDefaultNamespace())
	w, err := NewWorker(ts.GetDefaultClient(), root,
		temporalagent.WithSessionOptions(v2.WithCLIPath(cli), v2.WithBaseEnv(claudetest.CLIEnv(env.Home, env.Model.URL())...)))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	run, err := ts.GetDefaultClient().ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: TaskQueue}, Fleet, FleetInput{
		Checkouts: dirs,
		Tasks:     []string{"task-inside: write the notes", "task-outside: write next to the checkout"},
		Options:   temporalagent.SessionOptions{PermissionMode: string(v2.PermissionModeAcceptEdits)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var results []FleetResult
	if err := run.Get(ctx, &results); err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want 2: %+v", len(results), results)
	}
	for i, r := range results {
		if r.Err != "" || r.SessionID == "" {
			t.Errorf("session %d: error %q, session id %q", i, r.Err, r.SessionID)
		}
	}
	if b, err := os.ReadFile(inside); err != nil || string(b) != "notes\n" {
		t.Errorf("the write inside the checkout: %q, %v", b, err)
	}
	if _, err := os.Stat(escape); !os.IsNotExist(err) {
		t.Errorf("the write outside the checkout happened (stat: %v)", err)
	}
	if !strings.Contains(results[1].Result, "outside") {
		t.Errorf("the refused session's result does not say why: %q", results[1].Result)
	}
	var tasks []string
	for _, r := range results {
		tasks = append(tasks, r.Task)
	}
	if diff := cmp.Diff([]string{"task-inside: write the notes", "task-outside: write next to the checkout"}, tasks); diff != "" {
		t.Errorf("the results' order (-want +got):\n%s", diff)
	}
	t.Logf("refused: %s", results[1].Result)
}

// waitForNamespace returns once the server's namespace takes a workflow: it starts one nobody
// runs, and terminates it (on a loaded machine, starting a workflow failed with "Namespace ... is
// not found" for a while). The bound is ctx's.
func waitForNamespace(ctx context.Context, t *testing.T, c client.Client, ns string) {
	t.Helper()
	for {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "readiness"}, "readiness")
		if err == nil {
			err = c.TerminateWorkflow(ctx, run.GetID(), run.GetRunID(), "the namespace "+ns+" is ready")
		}
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the Temporal test server's namespace: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// gitRepo makes a repository with one commit at dir.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "--quiet", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "init"},
	} {
		if b, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, b)
		}
	}
}
