// Command temporal-fleet runs a fleet of agent sessions from one Temporal workflow: each task is a
// session of its own, on its own checkout of a repository, all in parallel; the workflow collects
// their results. The worker guards every session with a claude/policy policy confined to its
// checkout (policy.Confined): writes, reads of credentials and Bash commands are checked on the
// worker, fail-closed, whatever the workflow asks.
//
//	temporal server start-dev &                       # or any Temporal cluster
//	go run . -worker &                                 # as many workers as you like
//	go run . -repo ~/src/app "update the README" "fix the lint warnings"
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// TaskQueue is the queue of the fleet's workflows and turns.
const TaskQueue = "agent-fleet"

// FleetInput is the fleet workflow's input.
type FleetInput struct {
	// Checkouts are the sessions' working directories, one per task (inside the workers'
	// workspace root).
	Checkouts []string
	// Tasks are the prompts, one per session.
	Tasks []string
	// Options are every session's options (model, tools, budget...); Cwd is each checkout.
	Options temporalagent.SessionOptions
}

// FleetResult is one session's outcome.
type FleetResult struct {
	Task      string
	SessionID string `json:",omitempty"`
	Result    string `json:",omitempty"`
	CostUSD   float64
	Err       string `json:",omitempty"`
}

// Fleet runs one session per task, in parallel, and returns their results in the tasks' order.
// A failed session is reported in its FleetResult and does not stop the others.
func Fleet(ctx workflow.Context, in FleetInput) ([]FleetResult, error) {
	if len(in.Checkouts) != len(in.Tasks) {
		return nil, fmt.Errorf("temporal-fleet: %d checkouts for %d tasks", len(in.Checkouts), len(in.Tasks))
	}
	approvals, err := temporalagent.NewApprovals(ctx, 24*time.Hour)
	if err != nil {
		return nil, err
	}
	results := make([]FleetResult, len(in.Tasks))
	wg := workflow.NewWaitGroup(ctx)
	for i, task := range in.Tasks {
		wg.Add(1)
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer wg.Done()
			opts := in.Options
			opts.Cwd = in.Checkouts[i]
			results[i] = FleetResult{Task: task}
			res, err := temporalagent.RunTurn(ctx, approvals, temporalagent.TurnInput{Prompt: task, Options: opts})
			if res != nil {
				results[i].SessionID, results[i].Result, results[i].CostUSD = res.SessionID, res.Result, res.TotalCostUSD
			}
			if err != nil {
				results[i].Err = err.Error()
			}
		})
	}
	wg.Wait(ctx)
	return results, nil
}

// NewWorker returns a worker that runs Fleet and the sessions' turns: each session works in a
// checkout inside root, guarded by Policy(checkout). sessionOpts are every session's (the CLI,
// its environment, a logger).
func NewWorker(c client.Client, root string, sessionOpts ...v2.Option) (worker.Worker, error) {
	acts, err := temporalagent.NewActivities(
		temporalagent.WithWorkspaceRoot(root),
		temporalagent.WithSessionOptions(sessionOpts...),
		temporalagent.WithTurnOptions(func(_ context.Context, checkout string) []v2.Option {
			return []v2.Option{v2.WithPolicy(Policy(checkout))}
		}),
	)
	if err != nil {
		return nil, err
	}
	w := worker.New(c, TaskQueue, worker.Options{})
	w.RegisterWorkflow(Fleet)
	acts.Register(w)
	return w, nil
}

// Policy is a session's policy: it writes only inside its checkout (not in .git nor .env*
// files), reads no credentials, and runs only Bash commands whose every path it can check. Pair
// it with v2.WithSandbox(v2.PolicySandbox(p)) where bubblewrap (Linux) or Seatbelt (macOS) is
// available, so that the OS holds programs run by Bash to the same roots.
func Policy(checkout string) *policy.Policy {
	return policy.Confined(checkout)
}

// Checkouts makes n clones of repo under root (root/<name>-<i>), for n sessions that must not
// step on each other, and returns their paths.
func Checkouts(ctx context.Context, repo, root string, n int) ([]string, error) {
	var out []string
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("%s-%d", filepath.Base(repo), i))
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			if b, err := exec.CommandContext(ctx, "git", "clone", "--quiet", repo, dir).CombinedOutput(); err != nil {
				return nil, fmt.Errorf("temporal-fleet: cloning %s: %v: %s", repo, err, b)
			}
		}
		out = append(out, dir)
	}
	return out, nil
}

func main() {
	hostPort := flag.String("temporal", client.DefaultHostPort, "Temporal frontend host:port")
	runWorker := flag.Bool("worker", false, "run a worker instead of starting a fleet")
	repo := flag.String("repo", ".", "the repository the sessions work on (cloned once per session)")
	root := flag.String("root", filepath.Join(os.TempDir(), "agent-fleet"), "where the checkouts are (the workers' workspace root)")
	flag.Parse()
	c, err := client.Dial(client.Options{HostPort: *hostPort})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if *runWorker {
		w, err := NewWorker(c, *root)
		if err != nil {
			log.Fatal(err)
		}
		log.Fatal(w.Run(worker.InterruptCh()))
	}
	ctx := context.Background()
	tasks := flag.Args()
	dirs, err := Checkouts(ctx, *repo, *root, len(tasks))
	if err != nil {
		log.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: TaskQueue}, Fleet,
		FleetInput{Checkouts: dirs, Tasks: tasks, Options: temporalagent.SessionOptions{PermissionMode: string(v2.PermissionModeAcceptEdits)}})
	if err != nil {
		log.Fatal(err)
	}
	var results []FleetResult
	if err := run.Get(ctx, &results); err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Printf("%s\n  session %s, $%.4f\n  %s%s\n", r.Task, r.SessionID, r.CostUSD, r.Result, r.Err)
	}
}
