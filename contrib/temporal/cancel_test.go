package temporalagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// Cancelling the workflow in the middle of a tool call ends the turn, the CLI and the tool's
// process: the activity ends cancelled, and nothing with the session's tag is left running. The
// tool call cannot end by itself: it marks that it runs, then reads a FIFO nobody writes to
// until the test is over.
func TestCancelEndsTheCLI(t *testing.T) {
	d := cancelTurn(t, testHeartbeatTimeout)
	t.Logf("from CancelWorkflow: the CLI and its tool ended after %s, the workflow after %s", d.toStopped.Round(time.Millisecond), d.toEnd.Round(time.Millisecond))
}

// TestCancelLatency runs the cancel test $TEMPORALAGENT_CANCEL_RUNS times (skipped when unset)
// with DefaultActivityOptions (a heartbeat timeout of 1 minute: the SDK's throttle lets a
// heartbeat, and the cancellation in its answer, through once per 48 s; the cancel watch asks
// every second), and logs the medians docs/TEMPORAL.md reports: from CancelWorkflow to the end of
// the CLI and its tool (polled in /proc), and to the workflow's end.
//
//	TEMPORALAGENT_CANCEL_RUNS=10 go test -run TestCancelLatency -v .
func TestCancelLatency(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TEMPORALAGENT_CANCEL_RUNS"))
	if n <= 0 {
		t.Skip("set TEMPORALAGENT_CANCEL_RUNS to the number of cancellations to time")
	}
	var stopped, ended []time.Duration
	for i := range n {
		t.Run(itoa(i), func(t *testing.T) {
			d := cancelTurn(t, 0)
			stopped, ended = append(stopped, d.toStopped), append(ended, d.toEnd)
			t.Logf("CancelWorkflow -> CLI and tool ended %s, -> workflow ended %s", d.toStopped.Round(time.Millisecond), d.toEnd.Round(time.Millisecond))
		})
	}
	if len(ended) > 0 {
		t.Logf("%d cancellations: CancelWorkflow -> CLI and tool ended p50 %s (min %s, max %s); -> workflow ended p50 %s (min %s, max %s)",
			len(ended), p50(stopped), slices.Min(stopped), slices.Max(stopped), p50(ended), slices.Min(ended), slices.Max(ended))
	}
}

// cancelTimes are the durations of one cancellation, from CancelWorkflow.
type cancelTimes struct {
	toStopped time.Duration // to the end of the CLI and its tool (the last process with the session's tag)
	toEnd     time.Duration // to the workflow's end
}

// blockedTurn is a turn whose tool call cannot end by itself (blockedTurn).
type blockedTurn struct {
	c   client.Client
	run client.WorkflowRun
	cfg workerConfig
	env *claudetest.Env
}

// startBlockedTurn starts a workflow whose turn, with the given heartbeat timeout (0: the default
// options'), runs a Bash call that marks that it runs, then reads a FIFO nobody writes to until
// the test is over; it returns once the call runs.
func startBlockedTurn(ctx context.Context, t *testing.T, heartbeatTimeout time.Duration) blockedTurn {
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + randomTag()
	fifo := filepath.Join(t.TempDir(), "never-written")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
			if res, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("the blocked call returned: " + res.ContentText())
			}
			return claudetest.ToolReply("toolu_1", "Bash", map[string]any{"command": "touch running && cat " + fifo})
		})
	})
	t.Cleanup(func() { releaseFIFO(fifo) }) // if the tool is still there (the test failed), let it end
	cfg := workerConfig{cli: claudetest.RequireCLI(t), home: env.Home, modelURL: env.Model.URL(), project: env.Project, tag: randomTag()}
	startActivityWorker(t, ts, actQueue, cfg)

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, crashWorkflow, actQueue, heartbeatTimeout,
		temporalagent.TurnInput{Prompt: "wait", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tool call to run", func() bool {
		_, err := os.Stat(env.Path("running"))
		return err == nil
	})
	if n := len(tagged(cfg.tag)); n < 2 {
		t.Fatalf("%d processes carry the session's tag while the tool runs, want the CLI and its tool", n)
	}
	return blockedTurn{c: c, run: run, cfg: cfg, env: env}
}

// cancelTurn runs the cancel test once, with the turn's heartbeat timeout (0: the default
// options'), and returns its durations.
func cancelTurn(t *testing.T, heartbeatTimeout time.Duration) cancelTimes {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	b := startBlockedTurn(ctx, t, heartbeatTimeout)
	c, run, cfg, env := b.c, b.run, b.cfg, b.env
	stopped := make(chan time.Time, 1)
	cancelledAt := time.Now()
	go func() { // ends with the processes, or the bound that only catches a hang
		for len(tagged(cfg.tag)) > 0 && time.Since(cancelledAt) < 5*time.Minute {
			time.Sleep(5 * time.Millisecond)
		}
		stopped <- time.Now()
	}()
	if err := c.CancelWorkflow(ctx, run.GetID(), ""); err != nil {
		t.Fatal(err)
	}
	err := run.Get(ctx, nil)
	took := cancelTimes{toEnd: time.Since(cancelledAt)}
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Fatalf("the workflow ended with %v, want a cancellation", err)
	}
	// WaitForCancellation: the workflow ended after its activity, which reported the cancellation.
	if got := activityEnd(ctx, t, c, run.GetID()); got != enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED {
		t.Errorf("the activity ended with %v, want %v", got, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED)
	}
	// The activity returned only once Close had ended the CLI and its tool; a killed process may
	// still be reaped by its parent for a moment.
	waitFor(t, "no process with the session's tag", func() bool { return len(tagged(cfg.tag)) == 0 })
	took.toStopped = (<-stopped).Sub(cancelledAt)
	if n := len(env.Model.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want 1 (the tool call never returned)", n)
	}
	return took
}

// A workflow run that ends while its turn runs (terminated here; a reset or a timeout ends it
// too) ends the turn's CLI and its tool: the server no longer runs the workflow, and nothing
// would use what the CLI does. The heartbeat timeout is 10 minutes, so the SDK's heartbeat (at
// most one per 8 minutes) cannot be what ends it: the cancel watch is. Without the watch's check
// of the run, the CLI went on until Bash's 2-minute timeout ended the tool, and asked the model
// for its next step: the model's second request fails the test.
func TestEndedWorkflowEndsTheCLI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	b := startBlockedTurn(ctx, t, 10*time.Minute)
	if err := b.c.TerminateWorkflow(ctx, b.run.GetID(), "", "an operator ended it"); err != nil {
		t.Fatal(err)
	}
	terminatedAt := time.Now()
	waitFor(t, "no process with the session's tag", func() bool { return len(tagged(b.cfg.tag)) == 0 })
	t.Logf("TerminateWorkflow -> the CLI and its tool ended %s", time.Since(terminatedAt).Round(time.Millisecond))
	if n := len(b.env.Model.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want 1 (the tool call never returned)", n)
	}
}

// activityEnd returns the type of the event that ended the workflow's (first) activity.
func activityEnd(ctx context.Context, t *testing.T, c client.Client, wfID string) enumspb.EventType {
	t.Helper()
	it := c.GetWorkflowHistory(ctx, wfID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch typ := e.GetEventType(); typ {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
			enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			return typ
		}
	}
	return enumspb.EVENT_TYPE_UNSPECIFIED
}

// releaseFIFO opens the FIFO for writing without blocking (it fails when no reader is left) and
// closes it, so that a reader still blocked on it reads EOF.
func releaseFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}
