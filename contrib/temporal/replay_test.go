package temporalagent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// historyDir holds recorded histories of replayWorkflow, one per version of this module that
// changed what RunTurn and NewApprovals do inside a workflow (testdata/history/<version>.json).
const historyDir = "testdata/history"

// replayWorkflow is the workflow whose histories TestReplayHistories replays: the commands
// RunTurn and NewApprovals emit in a user's workflow (an approval waited for, decided by signal,
// the turn resumed with it, a second turn on the same session), under activity options that set
// a task queue and a heartbeat timeout but no start-to-close timeout (the case RunTurn's option
// merge changed). Do not change it: a recorded history must replay on it.
func replayWorkflow(ctx workflow.Context, queue string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: queue, HeartbeatTimeout: time.Minute})
	ap, err := temporalagent.NewApprovals(ctx, time.Hour)
	if err != nil {
		return "", err
	}
	first, err := temporalagent.RunTurn(ctx, ap, temporalagent.TurnInput{Prompt: "one"})
	if err != nil {
		return "", err
	}
	second, err := temporalagent.RunTurn(ctx, ap, temporalagent.TurnInput{Prompt: "two",
		Options: temporalagent.SessionOptions{Resume: first.SessionID, ResumeAt: first.LastMessage}})
	if err != nil {
		return "", err
	}
	return first.Result + " " + second.Result, nil
}

// replayActivity stands in for the turn's activity while a history is recorded: the first turn
// stops for an approval, its resumption and the second turn succeed.
func replayActivity(_ context.Context, in temporalagent.TurnInput) (*temporalagent.TurnResult, error) {
	const session = "0b6f3c52-5a3e-4c57-9d69-8a1f8e9b7c11"
	if in.Prompt == "one" {
		next := temporalagent.TurnInput{Prompt: "one, resumed", Options: temporalagent.SessionOptions{Resume: session}}
		return &temporalagent.TurnResult{SessionID: session, Subtype: "success",
			Pending: &temporalagent.Approval{ID: "a1", ToolName: "Bash", SessionID: session}, Next: &next}, nil
	}
	return &temporalagent.TurnResult{SessionID: session, LastMessage: "6f0e7c1d-3b7a-4a39-8f39-5b8f5a7d2c10",
		Result: in.Prompt + " done", Subtype: "success"}, nil
}

// replayedTurn is what RunTurn asked of one activity in a replay: the turn's prompt and how many
// decisions it carried.
type replayedTurn struct {
	Prompt    string
	Decisions int
}

// replayedTurns is what RunTurn does, per recorded history, when it replays on this version's
// code: a workflow keeps the behaviour of the version it started on (workflow.GetVersion). Before
// issue 37, RunTurn passed every decision so far to every turn; since, it passes a decision once,
// to the turn that resumes for it. (The option merge changes nothing in these histories:
// replayWorkflow's options name the workflow's own queue and the default heartbeat timeout.)
var replayedTurns = map[string][]replayedTurn{
	"v0-before-issue37.json": {{"one", 0}, {"one, resumed", 1}, {"two", 1}},
	"v1-issue37.json":        {{"one", 0}, {"one, resumed", 1}, {"two", 0}},
}

// TestReplayHistories replays every recorded history of replayWorkflow on this version's code
// (worker.WorkflowReplayer): a change to the commands RunTurn or NewApprovals emit that is not
// guarded by workflow.GetVersion fails it, as it would fail a running workflow on a worker
// upgraded to this version. The replay's activity calls are watched too (an interceptor): the
// replay checks the commands only by type and activity id, not their options nor input, so a
// workflow that started on an older version could otherwise take the new behaviour (its next
// turns on another queue, with other decisions) unseen.
func TestReplayHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(historyDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded histories in %s (%v)", historyDir, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, ok := replayedTurns[filepath.Base(f)]
			if !ok {
				t.Fatalf("%s has no expected turns in replayedTurns: add what RunTurn does in that history", f)
			}
			rec := &turnRecorder{}
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{rec}})
			if err != nil {
				t.Fatal(err)
			}
			r.RegisterWorkflow(replayWorkflow)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replaying %s on this version: %v", f, err)
			}
			if diff := gocmp.Diff(want, rec.turns); diff != "" {
				t.Errorf("the turns RunTurn asked for in the replay of %s (-want +got):\n%s", f, diff)
			}
		})
	}
}

// turnRecorder records each activity a replayed workflow schedules.
type turnRecorder struct {
	interceptor.WorkerInterceptorBase
	turns []replayedTurn
}

func (r *turnRecorder) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &turnInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, rec: r}
}

type turnInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	rec *turnRecorder
}

func (i *turnInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&turnOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, rec: i.rec})
}

type turnOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	rec *turnRecorder
}

func (o *turnOutbound) ExecuteActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	if in, ok := args[0].(temporalagent.TurnInput); ok && len(args) == 1 {
		o.rec.turns = append(o.rec.turns, replayedTurn{Prompt: in.Prompt, Decisions: len(in.Decisions)})
	}
	return o.Next.ExecuteActivity(ctx, activityType, args...)
}

// TestRecordHistory records replayWorkflow's history on the real server into
// testdata/history/$TEMPORALAGENT_RECORD_HISTORY.json (skipped when unset). Record one for each
// version that changes what RunTurn or NewApprovals emit, and keep the older ones.
func TestRecordHistory(t *testing.T) {
	name := os.Getenv("TEMPORALAGENT_RECORD_HISTORY")
	if name == "" {
		t.Skip("set TEMPORALAGENT_RECORD_HISTORY to the version's name to record its history")
	}
	ts := server(t)
	c := ts.GetDefaultClient()
	queue := "replay-" + randomTag()
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(replayWorkflow)
	w.RegisterActivityWithOptions(replayActivity, activity.RegisterOptions{Name: temporalagent.ActivityName})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, replayWorkflow, queue)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the approval to be pending", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", temporalagent.QueryPending)
		var pending []temporalagent.Approval
		return err == nil && v.Get(&pending) == nil && len(pending) == 1
	})
	if err := c.SignalWorkflow(ctx, run.GetID(), "", temporalagent.SignalDecide, temporalagent.Decision{ApprovalID: "a1", Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	var h historypb.History
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, e)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: " "}.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(historyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(historyDir, name+".json")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d events of %q in %s", len(h.Events), out, path)
}
