package subprocess

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

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
