package hooks

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/internal/commandhook"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Progress lines come between a run's start and end reports; a line reported after the run
// ended (the handler overran and was abandoned) is dropped.
func TestProgressBetweenStartAndEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := newRunLog()
		late := make(chan struct{})
		lateReported := make(chan bool, 1)
		x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {
			{Name: "a", Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				shared.ReportHookProgress(ctx, "note", "one")
				time.Sleep(time.Second)
				shared.ReportHookProgress(ctx, "note", "two")
				return nil, nil
			})},
			{Name: "b", Timeout: time.Second, Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				shared.ReportHookProgress(ctx, "note", "before the timeout")
				<-late // ignores ctx, reports after its run was abandoned
				lateReported <- shared.ReportHookProgress(ctx, "note", "after the timeout")
				return nil, nil
			})},
		}}, Options{Observe: log.observe, Progress: log.progress})
		res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
		close(late)
		<-lateReported
		want := []string{"a started", "a note: one", "a note: two", "a success", "b started", "b note: before the timeout", "b timeout"}
		if diff := cmp.Diff(want, log.got()); diff != "" {
			t.Errorf("reports (-want +got):\n%s", diff)
		}
		if res.Ran != 2 {
			t.Errorf("Ran = %d", res.Ran)
		}
	})
}

// Without Options.Progress a handler's ctx has no reporter: reports are dropped.
func TestNoProgressWithoutTheOption(t *testing.T) {
	var reported bool
	x := newExecutor(t, shared.Hooks{shared.HookEventStop: {{Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
		reported = shared.ReportHookProgress(ctx, "note", "x")
		return nil, nil
	})}}}, Options{})
	x.Run(context.Background(), input(shared.HookEventStop, ""), "r")
	if reported {
		t.Error("ReportHookProgress = true without a Progress option")
	}
}

// A command hook's output lines reach the executor's Progress as they come, stdout and stderr,
// and CommandHookOptions.Progress too (never concurrently).
func TestCommandHookProgressThroughTheExecutor(t *testing.T) {
	log := newRunLog()
	var opt []string
	x := newExecutor(t, shared.Hooks{shared.HookEventPostToolUse: {{Name: "cmd", Handler: commandhook.New("echo one; echo two >&2; echo three", shared.CommandHookOptions{
		Progress: func(stream, line string) { opt = append(opt, stream+":"+line) },
	})}}}, Options{Observe: log.observe, Progress: log.progress})
	res := x.Run(context.Background(), input(shared.HookEventPostToolUse, "Bash"), "r")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	got := log.got()
	if len(got) != 5 || got[0] != "cmd started" || got[4] != "cmd success" {
		t.Fatalf("reports %q, want start, three lines, end", got)
	}
	// stdout and stderr are two pipes: only the order within each is defined.
	sortLines := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	if diff := cmp.Diff([]string{"cmd stdout: one", "cmd stderr: two", "cmd stdout: three"}, got[1:4], sortLines); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"stdout:one", "stderr:two", "stdout:three"}, opt, sortLines); diff != "" {
		t.Errorf("CommandHookOptions.Progress (-want +got):\n%s", diff)
	}
	var stdout []string
	for _, l := range got {
		if after, ok := strings.CutPrefix(l, "cmd stdout: "); ok {
			stdout = append(stdout, after)
		}
	}
	if diff := cmp.Diff([]string{"one", "three"}, stdout); diff != "" {
		t.Errorf("stdout order (-want +got):\n%s", diff)
	}
}
