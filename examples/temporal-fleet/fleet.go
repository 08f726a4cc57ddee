// Command temporal-fleet runs a fleet of agent sessions from one Temporal workflow: each task is a
// session of its own, on its own checkout of a repository, all in parallel; the workflow collects
// their results. The worker guards every session with a claude/policy policy confined to its
// checkout (policy.Confined): writes, reads of credentials and Bash commands are checked on the
// worker, fail-closed, whatever the workflow asks. Each turn is recorded in a ledger and its
// transcript in a store (PostgreSQL, or files), so that a worker's crash resumes the session
// elsewhere without running a completed tool call again.
//
// Without -temporal it runs a demonstration on this machine (see demo.go): an in-process Temporal
// server, N sessions on a fake model, two worker processes, the first killed mid-turn:
//
//	go run .
//
// On a Temporal cluster:
//
//	go run . -temporal localhost:7233 -worker &       # as many workers as you like
//	go run . -temporal localhost:7233 -repo ~/src/app "update the README" "fix the lint warnings"
package main

import (
	"context"
	"fmt"
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
	// HeartbeatTimeout is the turns' heartbeat timeout: a dead worker is noticed within it.
	// Default: DefaultActivityOptions' (1 minute).
	HeartbeatTimeout time.Duration `json:",omitempty"`
}

// FleetResult is one session's outcome.
type FleetResult struct {
	Task      string
	SessionID string `json:",omitempty"`
	Result    string `json:",omitempty"`
	CostUSD   float64
	Resumes   int    `json:",omitempty"` // how often a crash made the turn resume
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
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{HeartbeatTimeout: in.HeartbeatTimeout})
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
				results[i].SessionID, results[i].Result, results[i].CostUSD, results[i].Resumes = res.SessionID, res.Result, res.TotalCostUSD, res.Resumes
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
// checkout inside root, guarded by Policy(checkout). opts are the activities' own: the sessions'
// options (temporalagent.WithSessionOptions: the CLI, its environment, a logger), the store and
// the ledger.
func NewWorker(c client.Client, root string, opts ...temporalagent.Option) (worker.Worker, error) {
	acts, err := temporalagent.NewActivities(append([]temporalagent.Option{
		temporalagent.WithWorkspaceRoot(root),
		temporalagent.WithTurnOptions(func(_ context.Context, checkout string) []v2.Option {
			return []v2.Option{v2.WithPolicy(Policy(checkout))}
		}),
	}, opts...)...)
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
