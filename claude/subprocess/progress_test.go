package subprocess

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
			{Name: "a", Handler: func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				shared.ReportHookProgress(ctx, "note", "one")
				time.Sleep(time.Second)
				shared.ReportHookProgress(ctx, "note", "two")
				return nil, nil
			}},
			{Name: "b", Timeout: time.Second, Handler: func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				shared.ReportHookProgress(ctx, "note", "before the timeout")
				<-late // ignores ctx, reports after its run was abandoned
				lateReported <- shared.ReportHookProgress(ctx, "note", "after the timeout")
				return nil, nil
			}},
		}}, ExecutorOptions{Observe: log.observe, Progress: log.progress})
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

// Without ExecutorOptions.Progress a handler's ctx has no reporter: reports are dropped.
func TestNoProgressWithoutTheOption(t *testing.T) {
	var reported bool
	x := newExecutor(t, shared.Hooks{shared.HookEventStop: {{Handler: func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
		reported = shared.ReportHookProgress(ctx, "note", "x")
		return nil, nil
	}}}}, ExecutorOptions{})
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
	})}}}, ExecutorOptions{Observe: log.observe, Progress: log.progress})
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

func TestCLIHookEventsConvert(t *testing.T) {
	sys := func(line string) *shared.SystemMessage {
		m := &shared.SystemMessage{}
		if err := json.Unmarshal([]byte(line), m); err != nil {
			t.Fatal(err)
		}
		m.Raw = jsontext.Value(line)
		return m
	}
	started := sys(`{"type":"system","subtype":"hook_started","hook_id":"h1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","uuid":"u1","session_id":"s1"}`)
	response := sys(`{"type":"system","subtype":"hook_response","hook_id":"h1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"out\nerr\n","stdout":"out\n","stderr":"err\n","exit_code":3,"outcome":"error","uuid":"u2","session_id":"s1"}`)
	other := sys(`{"type":"system","subtype":"informational","content":"x"}`)
	var c cliHookEvents
	code := 3
	ignore := cmpopts.IgnoreFields(shared.HookStarted{}, "Time", "Raw")
	if diff := cmp.Diff(&shared.HookStarted{HookRunInfo: shared.HookRunInfo{HookID: "h1", HookName: "PreToolUse:Bash", Event: shared.HookEventPreToolUse, Source: shared.HookSourceCLI}, SessionID: "s1", UUID: "u1"},
		c.convert(started), ignore); diff != "" {
		t.Errorf("hook_started (-want +got):\n%s", diff)
	}
	got, ok := c.convert(response).(*shared.HookResponse)
	if !ok {
		t.Fatalf("hook_response converted to %T", c.convert(response))
	}
	if got.Duration < 0 || got.Time.IsZero() || string(got.Raw) != string(response.Raw) {
		t.Errorf("duration %v, time %v, raw %s", got.Duration, got.Time, got.Raw)
	}
	want := &shared.HookResponse{HookRunInfo: shared.HookRunInfo{HookID: "h1", HookName: "PreToolUse:Bash", Event: shared.HookEventPreToolUse, Source: shared.HookSourceCLI},
		Outcome: shared.HookOutcomeError, ExitCode: &code, Stdout: "out\n", Stderr: "err\n", Output: "out\nerr\n", Error: "err\n", SessionID: "s1", UUID: "u2"}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(shared.HookResponse{}, "Time", "Raw", "Duration")); diff != "" {
		t.Errorf("hook_response (-want +got):\n%s", diff)
	}
	if len(c.starts) != 0 {
		t.Errorf("start times kept after the response: %v", c.starts)
	}
	if c.convert(other) != other {
		t.Error("another system message was converted")
	}
}

func TestEmitQueuesOnTheStream(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("read"))
	ev := &shared.HookStarted{HookRunInfo: shared.HookRunInfo{HookID: "sdk-1", Event: shared.HookEventStop, Source: shared.HookSourceSDK}}
	tr.Emit(ev)
	if m := next(t, tr); m != ev {
		t.Errorf("Next = %#v, want the emitted event", m)
	}
}
