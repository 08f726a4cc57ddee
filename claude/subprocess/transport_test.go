package subprocess

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Lines the fake CLI writes, built from typed values.

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func hookCallbackLine(id string, input map[string]any) string {
	return jsonLine(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "hook_callback", "callback_id": "cb", "input": input, "tool_use_id": "toolu_req"}})
}

func toolInput(e shared.HookEvent, tool, command string) map[string]any {
	return map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": string(e), "tool_name": tool,
		"tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_" + command}
}

func promptInput(prompt string) map[string]any {
	return map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": "UserPromptSubmit", "prompt": prompt}
}

func canUseToolLine(id, tool, command string) string {
	return jsonLine(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "can_use_tool", "tool_name": tool, "input": map[string]any{"command": command}, "tool_use_id": "toolu_1"}})
}

func cancelLine(id string) string {
	return jsonLine(map[string]any{"type": "control_cancel_request", "request_id": id})
}

const systemLine = `{"type":"system","subtype":"init","session_id":"s1"}`

// success is the control_response the SDK writes for request id with response.
func success(id, response string) string {
	return fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":%s}}`, id, response)
}

var errBoom = errors.New("boom")

// executor returns the hook engine of hs, its logs discarded.
func executor(t testing.TB, hs shared.Hooks) *hooks.Engine {
	t.Helper()
	x, err := hooks.New(hs, hooks.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("hooks.New: %v", err)
	}
	return x
}

// commandIs returns a PreToolUse handler for one command.
func on(command string, fn func(ctx context.Context) (shared.HookOutput, error)) shared.HookConfig {
	return shared.HookConfig{Matcher: "Bash", Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		if shared.ToolCall(in).ToolInput.String("command") != command {
			return nil, nil
		}
		return fn(ctx)
	})}
}

func TestHookCallbackAnswered(t *testing.T) {
	t.Parallel()
	hs := shared.Hooks{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
			if c := shared.ToolCall(in).ToolInput.String("command"); strings.Contains(c, "rm") {
				return shared.Deny("no rm: " + c), nil
			}
			return shared.Allow(), nil
		})}},
		shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.AddContext("seen"), nil
		})}},
		shared.HookEventUserPromptSubmit: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Block("not today"), nil
		})}},
	}
	tests := []struct {
		name  string
		line  string
		hooks shared.Hooks
		want  string
	}{
		{"PreToolUse deny", hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "rm -rf /")), hs,
			success("h1", `{"decision":"block","reason":"no rm: rm -rf /","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm: rm -rf /"}}`)},
		{"PreToolUse allow", hookCallbackLine("h2", toolInput(shared.HookEventPreToolUse, "Bash", "ls")), hs,
			success("h2", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`)},
		{"PreToolUse of another tool: no opinion", hookCallbackLine("h3", toolInput(shared.HookEventPreToolUse, "Read", "x")), hs,
			success("h3", `{}`)},
		{"PostToolUse context", hookCallbackLine("h4", toolInput(shared.HookEventPostToolUse, "Bash", "ls")), hs,
			success("h4", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"seen"}}`)},
		{"UserPromptSubmit block", hookCallbackLine("h5", promptInput("hi")), hs,
			success("h5", `{"decision":"block","reason":"not today"}`)},
		{"no hook registered for a guarding event: deny", hookCallbackLine("h6", toolInput(shared.HookEventPreToolUse, "Bash", "ls")), nil,
			success("h6", `{"decision":"block","reason":"no Go hook is registered for PreToolUse; denied by the SDK (fail-closed)","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no Go hook is registered for PreToolUse; denied by the SDK (fail-closed)"}}`)},
		{"no hook registered for another event: no opinion", hookCallbackLine("h7", toolInput(shared.HookEventPostToolUse, "Bash", "ls")), nil,
			success("h7", `{}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var x *hooks.Engine
			if tt.hooks != nil {
				x = executor(t, tt.hooks)
			}
			tr := startFake(t, Config{Hooks: x}, script("out "+tt.line, "read"))
			if diff := cmp.Diff(decodeJSON(t, tt.want), nextEcho(t, tr)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHookEventFraming(t *testing.T) {
	t.Parallel()
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("framed " + shared.ToolCall(in).ToolInput.String("command")), nil
	})}}})
	ev := toolInput(shared.HookEventPreToolUse, "Bash", "ls")
	ev["type"], ev["request_id"] = "hook_event", "e1"
	tr := startFake(t, Config{Hooks: x}, script("out "+jsonLine(ev), "read"))
	want := `{"type":"hook_response","request_id":"e1","tool_use_id":"toolu_ls","hook_event_name":"PreToolUse",
		"decision":"block","reason":"framed ls","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"framed ls"}}`
	if diff := cmp.Diff(decodeJSON(t, want), nextEcho(t, tr)); diff != "" {
		t.Errorf("hook_response (-want +got):\n%s", diff)
	}
}

// TestRequestsAnsweredOutOfOrder: three hook requests are in flight at once; #3 answers first, #1
// only once #3's answer is on the wire, #2 only once #1's is.
func TestRequestsAnsweredOutOfOrder(t *testing.T) {
	t.Parallel()
	release1, release2 := make(chan struct{}), make(chan struct{})
	wait := func(ch chan struct{}) func(ctx context.Context) (shared.HookOutput, error) {
		return func(ctx context.Context) (shared.HookOutput, error) {
			select {
			case <-ch:
				return shared.Allow(), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("1", wait(release1)),
		on("2", wait(release2)),
		on("3", func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }),
	}})
	tr := startFake(t, Config{Hooks: x}, script(
		"out "+hookCallbackLine("r1", toolInput(shared.HookEventPreToolUse, "Bash", "1")),
		"out "+hookCallbackLine("r2", toolInput(shared.HookEventPreToolUse, "Bash", "2")),
		"out "+hookCallbackLine("r3", toolInput(shared.HookEventPreToolUse, "Bash", "3")),
		"read", "read", "read"))
	allow := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`
	for _, step := range []struct {
		id      string
		release chan struct{}
	}{{"r3", release1}, {"r1", release2}, {"r2", nil}} {
		if diff := cmp.Diff(decodeJSON(t, success(step.id, allow)), nextEcho(t, tr)); diff != "" {
			t.Fatalf("answer (-want +got):\n%s", diff)
		}
		if step.release != nil {
			close(step.release)
		}
	}
}

// TestControlCancel: a control_cancel_request cancels the handler's ctx and no answer is written.
func TestControlCancel(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {
		on("slow", func(ctx context.Context) (shared.HookOutput, error) {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		}),
		on("fast", func(context.Context) (shared.HookOutput, error) { return shared.Allow(), nil }),
	}})
	// The fake sends the cancel once the handler runs (a request cancelled before its handler
	// starts never runs it), and the test tells it so with a line on stdin.
	tr := startFake(t, Config{Hooks: x}, script(
		"out "+hookCallbackLine("slow1", toolInput(shared.HookEventPreToolUse, "Bash", "slow")),
		"skip",
		"out "+cancelLine("slow1"),
		"out "+hookCallbackLine("fast1", toolInput(shared.HookEventPreToolUse, "Bash", "fast")),
		"read",
		"echo-until-eof"))
	<-started
	if err := tr.WriteMessage(map[string]string{"type": "go"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's ctx was not cancelled")
	}
	allow := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`
	if diff := cmp.Diff(decodeJSON(t, success("fast1", allow)), nextEcho(t, tr)); diff != "" {
		t.Fatalf("first answer (-want +got):\n%s", diff)
	}
	if err := tr.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	msgs, err := drain(t, tr)
	if !errors.Is(err, shared.ErrClosed) {
		t.Errorf("drain ended with %v, want shared.ErrClosed", err)
	}
	for _, m := range msgs {
		if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "echo" {
			t.Errorf("the cancelled request was answered: %s", r.Raw)
		}
	}
}

func TestUnknownControlRequestSubtype(t *testing.T) {
	t.Parallel()
	line := jsonLine(map[string]any{"type": "control_request", "request_id": "u1", "request": map[string]any{"subtype": "frobnicate"}})
	tr := startFake(t, Config{}, script("out "+line, "read"))
	want := `{"type":"control_response","response":{"subtype":"error","request_id":"u1","error":"unsupported control request subtype: frobnicate"}}`
	if diff := cmp.Diff(decodeJSON(t, want), nextEcho(t, tr)); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
}

func TestCanUseTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fn   shared.CanUseToolFunc
		want string
	}{
		{"no callback denies", nil, `{"behavior":"deny","message":"no permission callback is set; denied by the SDK"}`},
		{"allow with a rewrite", func(_ context.Context, r *shared.CanUseTool) (*shared.PermissionResult, error) {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow, UpdatedInput: shared.ToolInput{"command": r.Input.String("command") + " -l"}, Message: "dropped"}, nil
		}, `{"behavior":"allow","updatedInput":{"command":"ls -l"}}`},
		{"deny without a message", func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
			return &shared.PermissionResult{Behavior: shared.PermissionDeny}, nil
		}, `{"behavior":"deny","message":"denied"}`},
		{"error denies", func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, errBoom },
			`{"behavior":"deny","message":"permission callback failed: boom"}`},
		{"panic denies", func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { panic("argh") },
			`{"behavior":"deny","message":"permission callback panicked: argh; denied by the SDK"}`},
		{"nil result denies", func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return nil, nil },
			`{"behavior":"deny","message":"permission callback returned no result; denied by the SDK"}`},
		{"unknown behavior denies", func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
			return &shared.PermissionResult{Behavior: "maybe"}, nil
		}, `{"behavior":"deny","message":"permission callback returned behavior \"maybe\"; denied by the SDK"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := startFake(t, Config{CanUseTool: tt.fn}, script("out "+canUseToolLine("p1", "Bash", "ls"), "read"))
			if diff := cmp.Diff(decodeJSON(t, success("p1", tt.want)), nextEcho(t, tr)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCanUseToolCancelled: a cancelled permission request is not answered.
func TestCanUseToolCancelled(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	fn := func(ctx context.Context, r *shared.CanUseTool) (*shared.PermissionResult, error) {
		if r.Input.String("command") == "fast" {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		}
		close(started)
		<-ctx.Done()
		close(cancelled)
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}
	tr := startFake(t, Config{CanUseTool: fn}, script(
		"out "+canUseToolLine("p1", "Bash", "slow"),
		"skip",
		"out "+cancelLine("p1"),
		"out "+canUseToolLine("p2", "Bash", "fast"),
		"read", "echo-until-eof"))
	<-started
	if err := tr.WriteMessage(map[string]string{"type": "go"}); err != nil {
		t.Fatal(err)
	}
	<-cancelled
	if diff := cmp.Diff(decodeJSON(t, success("p2", `{"behavior":"allow"}`)), nextEcho(t, tr)); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	tr.Close()
	msgs, _ := drain(t, tr)
	for _, m := range msgs {
		if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "echo" {
			t.Errorf("the cancelled request was answered: %s", r.Raw)
		}
	}
}

// TestDuplicateRequestID: a second request with the id of one in flight is not run; it is denied
// at once (the CLI takes the first answer for an id, so the call is denied and the CLI does not
// wait out its timeout). The first request still runs and is answered.
func TestDuplicateRequestID(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	calls := map[string]int{}
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		c := shared.ToolCall(in).ToolInput.String("command")
		mu.Lock()
		calls[c]++
		mu.Unlock()
		if c == "first" {
			<-release
		}
		return shared.Deny(c), nil
	})}}})
	tr := startFake(t, Config{Hooks: x, CanUseTool: func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		<-release
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}}, script(
		"out "+hookCallbackLine("d1", toolInput(shared.HookEventPreToolUse, "Bash", "first")),
		"out "+hookCallbackLine("d1", toolInput(shared.HookEventPreToolUse, "Bash", "duplicate")),
		"out "+canUseToolLine("p1", "Bash", "ls"),
		"out "+canUseToolLine("p1", "Bash", "rm"),
		"out "+hookCallbackLine("d2", toolInput(shared.HookEventPreToolUse, "Bash", "other")),
		"read", "read", "read", "echo-until-eof"))
	deny := func(r string) string {
		return fmt.Sprintf(`{"decision":"block","reason":%q,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":%q}}`, r, r)
	}
	for i, want := range []string{
		success("d1", deny("duplicate request id d1; denied by the SDK")),
		success("p1", `{"behavior":"deny","message":"duplicate request id p1; denied by the SDK"}`),
		success("d2", deny("other")),
	} {
		if diff := cmp.Diff(decodeJSON(t, want), nextEcho(t, tr)); diff != "" {
			t.Fatalf("answer %d (-want +got):\n%s", i, diff)
		}
	}
	close(release)
	got := []map[string]any{nextEcho(t, tr), nextEcho(t, tr)}
	sortByID := cmpopts.SortSlices(func(a, b map[string]any) bool {
		return a["response"].(map[string]any)["request_id"].(string) < b["response"].(map[string]any)["request_id"].(string)
	})
	want := []map[string]any{decodeJSON(t, success("d1", deny("first"))), decodeJSON(t, success("p1", `{"behavior":"allow"}`))}
	if diff := cmp.Diff(want, got, sortByID); diff != "" {
		t.Fatalf("the first requests' answers (-want +got):\n%s", diff)
	}
	tr.Close()
	msgs, _ := drain(t, tr)
	for _, m := range msgs {
		if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "echo" {
			t.Errorf("another answer: %s", r.Raw)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(map[string]int{"first": 1, "other": 1}, calls); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
}

// TestLineTooLong: an oversized line is a *ProtocolError wrapping a *LineTooLongError, and the
// stream stays in sync: the next line decodes.
func TestLineTooLong(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		max     int
		size    int // of the oversized line, without its newline
		okSizes []int
	}{
		{"small limit", 64, 200, []int{64, 30}},
		{"longer than the read buffer", 100_000, 300_000, []int{100_000, 90_000}},
		{"just over", 1000, 1001, []int{1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			verbs := []string{fmt.Sprintf("pad %d", tt.size)}
			for _, n := range tt.okSizes {
				verbs = append(verbs, fmt.Sprintf("pad %d", n))
			}
			verbs = append(verbs, "out "+systemLine)
			tr := startFake(t, Config{MaxLineSize: tt.max}, script(verbs...))
			ctx := context.Background()
			m, err := tr.Next(ctx)
			var pe *shared.ProtocolError
			var lt *shared.LineTooLongError
			if !errors.As(err, &pe) || !errors.As(err, &lt) {
				t.Fatalf("Next = %v, %v; want a *shared.ProtocolError wrapping a *shared.LineTooLongError", m, err)
			}
			if diff := cmp.Diff(&shared.LineTooLongError{Size: tt.size, Limit: tt.max}, lt); diff != "" || pe.Line != 1 {
				t.Errorf("error %v at line %d (-want +got):\n%s", err, pe.Line, diff)
			}
			for _, n := range tt.okSizes {
				r := nextRaw(t, tr, "pad")
				if len(r.Raw) != n {
					t.Errorf("line of %d bytes came as %d bytes", n, len(r.Raw))
				}
			}
			if s, ok := next(t, tr).(*shared.SystemMessage); !ok || s.Subtype != "init" || s.SessionID != "s1" {
				t.Errorf("after the long line: %+v, want the system/init line", s)
			}
			if _, err := tr.Next(ctx); err != io.EOF {
				t.Errorf("end: %v, want io.EOF", err)
			}
			st := tr.Stats()
			if st.OversizedLines != 1 || st.Lines != int64(2+len(tt.okSizes)) {
				t.Errorf("Stats = %+v", st)
			}
		})
	}
}

// TestFraming: noise, blank lines, CRLF and a last line without newline.
func TestFraming(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script(
		"out npm WARN something non-JSON",
		`raw "\n"`,
		`raw "   \r\n"`,
		`raw "{\"type\":\"system\",\"subtype\":\"crlf\"}\r\n"`,
		"out [1,2,3]",
		"out {broken json",
		`out {"type":"system","subtype":"plain"}`,
		`raw "{\"type\":\"system\",\"subtype\":\"last\"}"`,
	))
	var subtypes []string
	var protoErrs int
	ctx := context.Background()
	for {
		m, err := tr.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if s, ok := m.(*shared.SystemMessage); ok {
			subtypes = append(subtypes, s.Subtype)
			if strings.ContainsAny(string(s.Raw), "\r\n") {
				t.Errorf("line kept its line ending: %q", s.Raw)
			}
		} else {
			t.Errorf("unexpected %T", m)
		}
	}
	if diff := cmp.Diff([]string{"crlf", "plain", "last"}, subtypes); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if protoErrs != 0 {
		t.Errorf("%d protocol errors", protoErrs)
	}
	want := shared.Stats{Lines: 8, NoiseLines: 3}
	if diff := cmp.Diff(want, tr.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
}

// TestUndecodableRequestsAnswered: a request whose body cannot be decoded is reported as a
// *ProtocolError and answered: guarding events deny, others get an error answer.
func TestUndecodableRequestsAnswered(t *testing.T) {
	t.Parallel()
	badPre := toolInput(shared.HookEventPreToolUse, "Bash", "x")
	badPre["tool_input"] = "not an object"
	noTool := toolInput(shared.HookEventPreToolUse, "Bash", "x")
	delete(noTool, "tool_name")
	badPrompt := promptInput("x")
	badPrompt["prompt"] = 42
	badPost := toolInput(shared.HookEventPostToolUse, "Bash", "x")
	badPost["tool_input"] = []int{1}
	badPerm := jsonLine(map[string]any{"type": "control_request", "request_id": "c1", "request": map[string]any{
		"subtype": "can_use_tool", "tool_name": "Bash", "input": "ls"}})
	tests := []struct {
		name, line string
		check      func(t *testing.T, answer map[string]any)
	}{
		{"PreToolUse with a bad tool_input", hookCallbackLine("b1", badPre), wantVerdict("b1", "hookSpecificOutput.permissionDecision", "deny")},
		{"PreToolUse without tool_name", hookCallbackLine("b2", noTool), wantVerdict("b2", "hookSpecificOutput.permissionDecision", "deny")},
		{"UserPromptSubmit with a bad prompt", hookCallbackLine("b3", badPrompt), wantVerdict("b3", "decision", "block")},
		{"PostToolUse: an error answer", hookCallbackLine("b4", badPost), func(t *testing.T, a map[string]any) {
			r := a["response"].(map[string]any)
			if r["subtype"] != "error" || r["request_id"] != "b4" || !strings.Contains(r["error"].(string), "could not decode") {
				t.Errorf("answer = %v", a)
			}
		}},
		{"can_use_tool with a bad input", badPerm, wantVerdict("c1", "behavior", "deny")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := executor(t, shared.Hooks{
				shared.HookEventPreToolUse:  {{Handler: trivialHandler}},
				shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })}},
			})
			tr := startFake(t, Config{Hooks: x}, script("out "+tt.line, "read"))
			_, err := tr.Next(context.Background())
			var pe *shared.ProtocolError
			var de *parser.DecodeError
			if !errors.As(err, &pe) || !errors.As(err, &de) || pe.Line != 1 {
				t.Fatalf("Next: %v, want a *shared.ProtocolError at line 1 wrapping a *parser.DecodeError", err)
			}
			tt.check(t, nextEcho(t, tr))
			if st := tr.Stats(); st.DecodeErrors != 1 {
				t.Errorf("Stats = %+v", st)
			}
		})
	}
}

// wantVerdict checks a success answer to id whose response has value at path (dot-separated).
func wantVerdict(id, path, value string) func(t *testing.T, a map[string]any) {
	return func(t *testing.T, a map[string]any) {
		t.Helper()
		r, _ := a["response"].(map[string]any)
		if r["subtype"] != "success" || r["request_id"] != id {
			t.Fatalf("answer = %v, want a success for %s", a, id)
		}
		var v any = r["response"]
		for _, k := range strings.Split(path, ".") {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if v != value {
			t.Errorf("%s = %v, want %q (answer %v)", path, v, value, a)
		}
		if b, _ := json.Marshal(a); !strings.Contains(string(b), "could not decode") {
			t.Errorf("the answer does not say why: %s", b)
		}
	}
}

func TestRequest(t *testing.T) {
	t.Parallel()
	t.Run("answers are correlated by id", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("respond-reversed 2", "wait-eof"))
		var wg sync.WaitGroup
		got := make([]map[string]any, 2)
		errs := make([]error, 2)
		for i, sub := range []string{"alpha", "beta"} {
			wg.Go(func() {
				raw, err := tr.Request(context.Background(), testRequest{sub})
				errs[i] = err
				json.Unmarshal(raw, &got[i])
			})
		}
		wg.Wait()
		for i, sub := range []string{"alpha", "beta"} {
			if errs[i] != nil || got[i]["subtype"] != sub || !strings.HasPrefix(got[i]["id"].(string), "req_") {
				t.Errorf("Request(%s) = %v, %v", sub, got[i], errs[i])
			}
		}
	})
	t.Run("success", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script(`respond success {"pid":42}`, "wait-eof"))
		raw, err := tr.Request(context.Background(), testRequest{"initialize"})
		if err != nil || string(raw) != `{"pid":42}` {
			t.Errorf("Request = %s, %v", raw, err)
		}
	})
	t.Run("a CLI error is a *shared.ControlError", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("respond error no such model", "wait-eof"))
		_, err := tr.Request(context.Background(), testRequest{"set_model"})
		if diff := cmp.Diff(&shared.ControlError{Subtype: "set_model", Message: "no such model"}, err); diff != "" {
			t.Errorf("err (-want +got):\n%s", diff)
		}
	})
	t.Run("RequestTimeout", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{RequestTimeout: 50 * time.Millisecond}, script("wait-eof"))
		_, err := tr.Request(context.Background(), testRequest{"interrupt"})
		if !errors.Is(err, shared.ErrRequestTimeout) {
			t.Errorf("err = %v, want shared.ErrRequestTimeout", err)
		}
	})
	t.Run("ctx", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("wait-eof"))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := tr.Request(ctx, testRequest{"interrupt"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("the process exits while waiting", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("skip", "stderr first line", "stderr fatal: boom", "exit 3"))
		_, err := tr.Request(context.Background(), testRequest{"initialize"})
		want := &shared.ProcessError{ExitCode: 3, Stderr: "first line\nfatal: boom"}
		// Err is the *exec.ExitError (checked by TestProcessErrorUnwraps).
		ignoreErr := cmpopts.IgnoreFields(shared.ProcessError{}, "Err")
		if diff := cmp.Diff(want, err, ignoreErr); diff != "" {
			t.Errorf("err (-want +got):\n%s", diff)
		}
		if _, err := tr.Next(context.Background()); cmp.Diff(want, err, ignoreErr) != "" {
			t.Errorf("Next = %v, want the *shared.ProcessError", err)
		}
		if diff := cmp.Diff(want, tr.ExitErr(), ignoreErr); diff != "" {
			t.Errorf("ExitErr (-want +got):\n%s", diff)
		}
		if _, err := tr.Request(context.Background(), testRequest{"initialize"}); cmp.Diff(want, err, ignoreErr) != "" {
			t.Errorf("Request after the exit = %v, want the *shared.ProcessError", err)
		}
		if err := tr.WriteMessage(map[string]string{"type": "x"}); cmp.Diff(want, err, ignoreErr) != "" {
			t.Errorf("WriteMessage after the exit = %v, want the *shared.ProcessError", err)
		}
	})
}

func TestCloseReturnsTheSameErrorEveryTime(t *testing.T) {
	t.Parallel()
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("wait-eof"))
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if err := tr.Close(); err != nil {
					t.Errorf("Close = %v", err)
				}
			})
		}
		wg.Wait()
		if err := tr.Close(); err != nil {
			t.Errorf("Close again = %v", err)
		}
		if _, err := tr.Next(context.Background()); err != shared.ErrClosed {
			t.Errorf("Next after Close = %v, want shared.ErrClosed", err)
		}
		if err := tr.WriteMessage(map[string]string{"type": "x"}); err != shared.ErrClosed {
			t.Errorf("WriteMessage after Close = %v, want shared.ErrClosed", err)
		}
	})
	t.Run("crashed", func(t *testing.T) {
		t.Parallel()
		tr := startFake(t, Config{}, script("stderr oops", "exit 7"))
		<-tr.Done()
		first := tr.Close()
		var pe *shared.ProcessError
		if !errors.As(first, &pe) || pe.ExitCode != 7 || pe.Stderr != "oops" {
			t.Fatalf("Close = %v, want a *shared.ProcessError with code 7", first)
		}
		for range 3 {
			if err := tr.Close(); err != first {
				t.Errorf("Close again = %v, want the same %v", err, first)
			}
		}
	})
}

func TestStartContextClosesTheTransport(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	tr, err := Start(ctx, fakeConfig(Config{}, "script", "wait-eof"))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-tr.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling Start's ctx did not close the transport")
	}
	if err := tr.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}

func TestWriteStalls(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{WriteTimeout: 50 * time.Millisecond, CloseGrace: 50 * time.Millisecond}, script("hang"))
	big := map[string]string{"type": "user", "pad": strings.Repeat("x", 1<<20)} // more than a pipe holds
	if err := tr.WriteMessage(big); !errors.Is(err, shared.ErrStalled) {
		t.Errorf("WriteMessage = %v, want shared.ErrStalled", err)
	}
}

func TestStderr(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var lines []string
	onStderr := func(l string) {
		mu.Lock()
		lines = append(lines, l)
		mu.Unlock()
	}
	tr := startFake(t, Config{OnStderr: onStderr, StderrTail: 16}, script("stderr one", "stderr two", "stderr three", "stderr the last words"))
	<-tr.Done()
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"one", "two", "three", "the last words"}, lines); diff != "" {
		t.Errorf("OnStderr lines (-want +got):\n%s", diff)
	}
	if got := tr.StderrTail(); got != "the last words" {
		t.Errorf("StderrTail = %q", got)
	}
}

func TestOnMessageSeesControlTraffic(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var types []string
	onMessage := func(m shared.Message) {
		mu.Lock()
		types = append(types, m.Type())
		mu.Unlock()
	}
	tr := startFake(t, Config{OnMessage: onMessage}, script(
		"out "+canUseToolLine("p1", "Bash", "ls"), "skip", "out "+systemLine))
	if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
		t.Fatal("want the system message")
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"control_request", "system"}, types); diff != "" {
		t.Errorf("OnMessage (-want +got):\n%s", diff)
	}
}

func TestChildEnvDropsCLAUDECODE(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{BaseEnv: append(os.Environ(), "CLAUDECODE=1", "KEEP=base"), Env: []string{"CLAUDECODE=1", "KEEP=extra"}},
		script("env CLAUDECODE", "env KEEP"))
	for _, want := range []string{`{"type":"env","name":"CLAUDECODE","set":false,"value":""}`, `{"type":"env","name":"KEEP","set":true,"value":"extra"}`} {
		if diff := cmp.Diff(decodeJSON(t, want), decodeJSON(t, string(nextRaw(t, tr, "env").Raw))); diff != "" {
			t.Errorf("env (-want +got):\n%s", diff)
		}
	}
}

// TestFindCLI is not parallel: it sets the environment.
func TestFindCLI(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	notExe := filepath.Join(dir, "plain")
	if err := os.WriteFile(notExe, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		explicit  string
		env, path string
		want      string
		wantTried []string
		unusable  bool
		installed []string // versions in the installer's per-user cache
	}{
		{name: "explicit", explicit: exe, want: exe},
		{name: "explicit missing", explicit: "/nope/claude", wantTried: []string{`the CLI path option "/nope/claude" (no such file)`}, unusable: true},
		{name: "explicit is a directory", explicit: dir, wantTried: []string{fmt.Sprintf("the CLI path option %q (a directory, not the CLI executable)", dir)}, unusable: true},
		{name: "explicit is not executable", explicit: notExe, wantTried: []string{fmt.Sprintf("the CLI path option %q (not executable (mode -rw-r--r--))", notExe)}, unusable: true},
		{name: "CLAUDE_CLI_PATH", env: exe, want: exe},
		{name: "PATH", path: dir, want: exe},
		{name: "nothing", path: t.TempDir(), wantTried: []string{"CLAUDE_CLI_PATH (unset)", "claude on PATH", "CACHE/agent-sdk-go/claude-cli-VERSION"}},
		// The installer's per-user cache comes last; of two versions, the newer.
		{name: "installer's cache", path: t.TempDir(), installed: []string{"2.1.330", "2.1.332", "2.1.99"}, want: "CACHE/agent-sdk-go/claude-cli-2.1.332/node_modules/.bin/claude"},
		{name: "PATH before the installer's cache", path: dir, installed: []string{"2.1.332"}, want: exe},
		{name: "CLAUDE_CLI_PATH before the installer's cache", env: exe, path: t.TempDir(), installed: []string{"2.1.332"}, want: exe},
		// A CLAUDE_CLI_PATH that names no executable is an error, not a reason to run another CLI.
		{name: "bad CLAUDE_CLI_PATH, a CLI on PATH", env: "/nope/claude", path: dir, wantTried: []string{"CLAUDE_CLI_PATH=/nope/claude (no such file)"}, unusable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CLI_PATH", tt.env)
			t.Setenv("PATH", tt.path)
			home := t.TempDir()
			t.Setenv("HOME", home)                                   // os.UserCacheDir on macOS
			t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "xdg"))   // and on Linux
			t.Setenv("LocalAppData", filepath.Join(home, "appdata")) // and on Windows
			cache, err := os.UserCacheDir()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range tt.installed {
				p := filepath.Join(cache, "agent-sdk-go", "claude-cli-"+v, "node_modules", ".bin", "claude")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			tt.want = strings.Replace(tt.want, "CACHE", cache, 1)
			for i := range tt.wantTried {
				tt.wantTried[i] = strings.Replace(tt.wantTried[i], "CACHE", cache, 1)
			}
			got, err := FindCLI(tt.explicit)
			if tt.wantTried == nil {
				if err != nil || got != tt.want {
					t.Errorf("FindCLI = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var nf *shared.CLINotFoundError
			if !errors.As(err, &nf) || !errors.Is(err, shared.ErrCLINotFound) {
				t.Fatalf("FindCLI = %q, %v; want a *shared.CLINotFoundError", got, err)
			}
			if diff := cmp.Diff(tt.wantTried, nf.Tried); diff != "" {
				t.Errorf("Tried (-want +got):\n%s", diff)
			}
			if nf.Unusable != tt.unusable || strings.Contains(err.Error(), "npm install") == tt.unusable {
				t.Errorf("Unusable = %v in %q; want %v, and the install hint only when nothing was given", nf.Unusable, err, tt.unusable)
			}
			for _, tried := range tt.wantTried {
				if !strings.Contains(err.Error(), tried) {
					t.Errorf("message %q does not say it tried %q", err, tried)
				}
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(context.Background(), Config{}); err == nil {
		t.Error("Start without a CLIPath succeeded")
	}
	if _, err := Start(context.Background(), Config{CLIPath: "/nope/claude"}); err == nil || !strings.Contains(err.Error(), "/nope/claude") {
		t.Errorf("Start of a missing binary = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, fakeConfig(Config{}, "script", "")); !errors.Is(err, context.Canceled) {
		t.Errorf("Start with a cancelled ctx = %v", err)
	}
}

// TestNoGoroutinesAfterClose is not parallel: it counts goroutines. Requests are in flight when
// Close is called.
func TestNoGoroutinesAfterClose(t *testing.T) {
	if left := waitNoTransportGoroutines(5 * time.Second); left != "" {
		t.Fatalf("transport goroutines before the test:\n%s", left)
	}
	before := runtime.NumGoroutine()
	started := make(chan struct{}, 2)
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})}}})
	perm := func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	tr, err := Start(context.Background(), fakeConfig(Config{Hooks: x, CanUseTool: perm, CloseGrace: 50 * time.Millisecond}, "script", script(
		"out "+hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "ls")),
		"out "+canUseToolLine("p1", "Bash", "ls"),
		"wait-eof")))
	if err != nil {
		t.Fatal(err)
	}
	<-started
	<-started
	if transportGoroutines() == "" {
		t.Fatal("no transport goroutine found while it runs: the leak check is blind")
	}
	if err := tr.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if left := waitNoTransportGoroutines(5 * time.Second); left != "" {
		t.Errorf("goroutines left after Close:\n%s", left)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

// TestManyRequestsSomeSlow: a burst of hook requests, a third of them slow, so that many are in
// flight at once and answered out of order; every request is answered exactly once, and every
// line is read once.
func TestManyRequestsSomeSlow(t *testing.T) {
	t.Parallel()
	const n = 150
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
		c := shared.ToolCall(in).ToolInput.String("command")
		if i, _ := strconv.Atoi(c); i%3 == 0 {
			time.Sleep(3 * time.Millisecond) // the workload: a slow handler
		}
		return shared.Deny(c), nil
	})}}})
	var verbs []string
	for i := range n {
		verbs = append(verbs, "out "+hookCallbackLine(fmt.Sprintf("m%d", i), toolInput(shared.HookEventPreToolUse, "Bash", strconv.Itoa(i))))
	}
	for range n {
		verbs = append(verbs, "read")
	}
	verbs = append(verbs, "out "+systemLine, "echo-until-eof")
	tr := startFake(t, Config{Hooks: x}, script(verbs...))
	got := map[string]string{}
	for range n {
		a := nextEcho(t, tr)
		r := a["response"].(map[string]any)
		id := r["request_id"].(string)
		if _, dup := got[id]; dup {
			t.Errorf("%s answered twice", id)
		}
		got[id] = r["response"].(map[string]any)["reason"].(string)
	}
	for i := range n {
		if got[fmt.Sprintf("m%d", i)] != strconv.Itoa(i) {
			t.Errorf("m%d: answer %q", i, got[fmt.Sprintf("m%d", i)])
		}
	}
	if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
		t.Error("the line after the burst is lost")
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	msgs, _ := drain(t, tr)
	for _, m := range msgs {
		if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "echo" {
			t.Errorf("an extra answer: %s", r.Raw)
		}
	}
	// The requests, their echoes, the system line and the fake's eof line.
	if st := tr.Stats(); st.Lines != 2*n+2 {
		t.Errorf("Stats = %+v, want %d lines", st, 2*n+2)
	}
}

// TestQuickHandlerRunsOnTheReader: a hook request is served on the goroutine that read its line,
// with no goroutine started for it: the handler's stack runs down to readStdout.
func TestQuickHandlerRunsOnTheReader(t *testing.T) {
	t.Parallel()
	onReader := make(chan bool, 1)
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		onReader <- strings.Contains(string(debug.Stack()), "(*Transport).readStdout")
		return shared.Deny("seen"), nil
	})}}})
	tr := startFake(t, Config{Hooks: x}, script(
		"out "+hookCallbackLine("m1", toolInput(shared.HookEventPreToolUse, "Bash", "ls")), "read", "echo-until-eof"))
	if id, _, _ := answerOf(t, nextEcho(t, tr)); id != "m1" {
		t.Fatalf("answer for %q, want m1", id)
	}
	if !<-onReader {
		t.Error("the handler ran on a goroutine of its own, not on the reader's")
	}
}

// TestWaitingHandlerHandsTheReadingOn: a request is served on the reader's goroutine, and a
// handler that waits hands the reading to another goroutine. Here the first request's handler
// waits for the second request's handler to run: without the hand-off, the second request would
// never be read and the first would end at its (one minute) timeout, denied.
func TestWaitingHandlerHandsTheReadingOn(t *testing.T) {
	t.Parallel()
	secondRan := make(chan struct{})
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Timeout: time.Minute, Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		c := shared.ToolCall(in).ToolInput.String("command")
		if c == "second" {
			close(secondRan)
			return shared.Deny("second"), nil
		}
		select {
		case <-secondRan:
			return shared.Deny("first, after the second"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})}}})
	tr := startFake(t, Config{Hooks: x}, script(
		"out "+hookCallbackLine("m1", toolInput(shared.HookEventPreToolUse, "Bash", "first")),
		"out "+hookCallbackLine("m2", toolInput(shared.HookEventPreToolUse, "Bash", "second")),
		"read", "read", "echo-until-eof"))
	got := map[string]string{}
	for range 2 {
		r := nextEcho(t, tr)["response"].(map[string]any)
		got[r["request_id"].(string)] = r["response"].(map[string]any)["reason"].(string)
	}
	want := map[string]string{"m1": "first, after the second", "m2": "second"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

func TestWriteMessageEncodingError(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("read"))
	if err := tr.WriteMessage(map[string]any{"bad": make(chan int)}); err == nil || !strings.Contains(err.Error(), "encoding message") {
		t.Errorf("WriteMessage = %v, want an encoding error", err)
	}
	// Nothing half-written: the next message is the next line.
	if err := tr.WriteMessage(map[string]string{"type": "ok"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"type": "ok"}, nextEcho(t, tr)); diff != "" {
		t.Errorf("line (-want +got):\n%s", diff)
	}
}

// TestHandlerTimesOut: a handler that overruns its timeout gets the CLI the fail-closed denial,
// whether it honours its ctx or ignores it. The line after the request is read while the handler
// hangs.
func TestHandlerTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	tests := []struct {
		name    string
		handler shared.HookHandler
		wantErr error
	}{
		{"honours ctx", shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			<-ctx.Done()
			return shared.Allow(), nil // too late: must not count
		}), context.DeadlineExceeded},
		{"ignores ctx", shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			<-release
			return shared.Allow(), nil
		}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctxErr := make(chan error, 1)
			x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Name: "slow", Timeout: 20 * time.Millisecond,
				Handler: shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
					out, err := tt.handler.Handle(ctx, in)
					ctxErr <- ctx.Err()
					return out, err
				})}}})
			tr := startFake(t, Config{Hooks: x}, script("out "+hookCallbackLine("t1", toolInput(shared.HookEventPreToolUse, "Bash", "ls")), "out "+systemLine, "read"))
			if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
				t.Fatal("the line after the request was not read while the handler ran")
			}
			a := nextEcho(t, tr)
			r := a["response"].(map[string]any)["response"].(map[string]any)
			reason, _ := r["reason"].(string)
			if r["decision"] != "block" || !strings.Contains(reason, "timed out") {
				t.Errorf("answer %v, want the fail-closed denial for a timeout", a)
			}
			if tt.wantErr != nil {
				if err := <-ctxErr; !errors.Is(err, tt.wantErr) {
					t.Errorf("the handler's ctx.Err() = %v, want %v", err, tt.wantErr)
				}
			}
		})
	}
}

// TestLargeLinesArriveWhole: a line larger than the pipe holds is written with the write
// deadline; the CLI reads every line whole and in order.
func TestLargeLinesArriveWhole(t *testing.T) {
	t.Parallel()
	tr := startFake(t, Config{}, script("read", "read", "read"))
	var sent []string
	for i, n := range []int{3 << 20, 100, 300 << 10} {
		msg := map[string]string{"type": "user", "n": strconv.Itoa(i), "pad": strings.Repeat(string(rune('a'+i)), n)}
		if err := tr.WriteMessage(msg); err != nil {
			t.Fatalf("WriteMessage(%d bytes): %v", n, err)
		}
		b, _ := json.Marshal(msg, json.Deterministic(true)) // as the transport writes it
		sent = append(sent, string(b))
	}
	for i, want := range sent {
		got := nextRaw(t, tr, "echo")
		var echo struct {
			Line string `json:"line"`
		}
		if err := json.Unmarshal(got.Raw, &echo); err != nil || echo.Line != want {
			line := echo.Line
			t.Errorf("line %d arrived as %d bytes, want %d bytes as sent", i, len(line), len(want))
		}
	}
}

// testRequest is a control request of the subtype it holds, with no other member.
type testRequest struct{ subtype string }

func (r testRequest) ControlSubtype() string { return r.subtype }

// MarshalJSONTo writes no member.
func (testRequest) MarshalJSONTo(enc *jsontext.Encoder) error {
	return enc.WriteValue(jsontext.Value("{}"))
}

type testMembers struct {
	TaskID string `json:"task_id"`
}

func (testMembers) ControlSubtype() string { return "stop_task" }

// A control request is written with its subtype first, then its own members.
func TestControlRequestBody(t *testing.T) {
	for _, tt := range []struct {
		req  ControlRequest
		want string
	}{
		{testRequest{"interrupt"}, `{"subtype":"interrupt"}`},
		{testMembers{TaskID: "t1"}, `{"subtype":"stop_task","task_id":"t1"}`},
	} {
		b, err := json.Marshal(requestBody{tt.req})
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%T: %s, want %s", tt.req, b, tt.want)
		}
	}
}
