package subprocess

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// answerOf returns the "response" object of an echoed control_response, and its request id and
// subtype.
func answerOf(t *testing.T, a map[string]any) (id, subtype string, response map[string]any) {
	t.Helper()
	r, _ := a["response"].(map[string]any)
	response, _ = r["response"].(map[string]any)
	id, _ = r["request_id"].(string)
	subtype, _ = r["subtype"].(string)
	return id, subtype, response
}

// TestRequestsCutShortAreAnswered: a request line that is not valid JSON (cut short) is counted as
// noise, and answered at once where its request id can be read: a PreToolUse and a can_use_tool
// are denied, other events get an error answer. A line cut before its id is only noise.
func TestRequestsCutShortAreAnswered(t *testing.T) {
	t.Parallel()
	pre := `{"type":"control_request","request_id":"cut1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","tool_use_id":"t1","input":{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_inp`
	perm := `{"type":"control_request","request_id":"cut2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"rm -`
	post := `{"type":"control_request","request_id":"cut3","request":{"subtype":"hook_callback","callback_id":"hook_PostToolUse","input":{"hook_event_name":"PostToolUse","tool_response":"x`
	noID := `{"type":"control_request","requ`
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: trivialHandler}}})
	tr := startFake(t, Config{Hooks: x}, script("out "+pre, "out "+perm, "out "+post, "out "+noID, "read", "read", "read", "out "+systemLine))
	var got []string
	for range 3 {
		id, sub, resp := answerOf(t, nextEcho(t, tr))
		got = append(got, fmt.Sprintf("%s %s %v %v", id, sub, deepGet(resp, "hookSpecificOutput", "permissionDecision"), resp["behavior"]))
	}
	want := []string{"cut1 success deny <nil>", "cut2 success <nil> deny", "cut3 error <nil> <nil>"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
		t.Error("the stream lost sync")
	}
	if st := tr.Stats(); st.NoiseLines != 4 {
		t.Errorf("Stats = %+v, want 4 noise lines", st)
	}
}

func deepGet(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	return v
}

// TestDeeplyNestedRequestDenied: a 13 MB request line of nested arrays, whole or cut short, does
// not crash the SDK: it is not decoded (a *parser.DecodeError in a *ProtocolError: the parser reads iteratively and stops at its depth bound), its id is read without
// recursion, and the PreToolUse it carries is denied.
func TestDeeplyNestedRequestDenied(t *testing.T) {
	t.Parallel()
	const depth = 6_500_000 // 13 MB
	head := `{"type":"control_request","request_id":"deep1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","tool_use_id":"t1","input":{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"x":$NEST`
	for _, tt := range []struct{ name, line string }{{"whole", head + "}}}}"}, {"cut short", head}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: trivialHandler}}})
			tr := startFake(t, Config{Hooks: x}, script(fmt.Sprintf("nest %d %s", depth, tt.line), "read", "out "+systemLine))
			var de *parser.DecodeError
			if _, err := tr.Next(context.Background()); !errors.As(err, &de) {
				t.Fatalf("Next = %v, want a *parser.DecodeError", err)
			}
			id, sub, resp := answerOf(t, nextEcho(t, tr))
			if id != "deep1" || sub != "success" || deepGet(resp, "hookSpecificOutput", "permissionDecision") != "deny" {
				t.Errorf("answer %s %s %v, want deep1 denied", id, sub, resp)
			}
			if _, ok := next(t, tr).(*shared.SystemMessage); !ok {
				t.Error("the stream lost sync")
			}
		})
	}
}

// TestCallbackForTheWrongEvent: the SDK registers one callback per event ("hook_<Event>"). A
// request on a callback with an input of another event is refused, not dispatched by the input:
// the CLI reads the answer as the registered event's. PreToolUse's callback denies; PostToolUse's
// gets an error answer (no opinion). Neither runs a handler.
func TestCallbackForTheWrongEvent(t *testing.T) {
	t.Parallel()
	ran := make(chan shared.HookEvent, 4)
	handler := func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
		ran <- in.Base().HookEventName
		return nil, nil // {}: "no opinion", an allow for PreToolUse's callback
	}
	x := executor(t, shared.Hooks{
		shared.HookEventPreToolUse:  {{Handler: shared.HookHandlerFunc(handler)}},
		shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(handler)}},
	})
	line := func(id, callback string, in map[string]any) string {
		return jsonLine(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
			"subtype": "hook_callback", "callback_id": callback, "input": in, "tool_use_id": "toolu_1"}})
	}
	tr := startFake(t, Config{Hooks: x}, script(
		"out "+line("w1", "hook_PreToolUse", toolInput(shared.HookEventPostToolUse, "Bash", "rm")),
		"out "+line("w2", "hook_PostToolUse", toolInput(shared.HookEventPreToolUse, "Bash", "rm")),
		"read", "read"))
	id, sub, resp := answerOf(t, nextEcho(t, tr))
	if id != "w1" || sub != "success" || deepGet(resp, "hookSpecificOutput", "permissionDecision") != "deny" ||
		!strings.Contains(resp["reason"].(string), "registered for PreToolUse") {
		t.Errorf("w1: %s %s %v, want PreToolUse's denial", id, sub, resp)
	}
	if id, sub, _ := answerOf(t, nextEcho(t, tr)); id != "w2" || sub != "error" {
		t.Errorf("w2: %s %s, want an error answer", id, sub)
	}
	select {
	case e := <-ran:
		t.Errorf("a %s handler ran", e)
	default:
	}
}

// TestPermissionCallbackTimeout: a permission callback that does not answer within
// PermissionTimeout is denied (fail-closed) whether it honours its ctx or not; its ctx ends with
// ErrPermissionTimeout as the cause.
func TestPermissionCallbackTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	tests := []struct {
		name  string
		hangs func(ctx context.Context)
	}{
		{"honours ctx", func(ctx context.Context) { <-ctx.Done() }},
		{"ignores ctx", func(context.Context) { <-release }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cause := make(chan error, 1)
			cb := func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
				tt.hangs(ctx)
				cause <- context.Cause(ctx)
				return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil // too late
			}
			tr := startFake(t, Config{CanUseTool: cb, PermissionTimeout: 50 * time.Millisecond}, script("out "+canUseToolLine("p1", "Bash", "ls"), "read"))
			id, _, resp := answerOf(t, nextEcho(t, tr))
			if msg, _ := resp["message"].(string); id != "p1" || resp["behavior"] != "deny" || !strings.Contains(msg, "did not answer within") {
				t.Errorf("answer %s %v, want the timeout's denial", id, resp)
			}
			if tt.name == "honours ctx" {
				if err := <-cause; !errors.Is(err, shared.ErrPermissionTimeout) {
					t.Errorf("the callback's ctx cause = %v, want shared.ErrPermissionTimeout", err)
				}
			}
		})
	}
}

// TestPermissionTimeoutDefault: without PermissionTimeout, the callback gets hooks.DefaultTimeout.
func TestPermissionTimeoutDefault(t *testing.T) {
	t.Parallel()
	deadline := make(chan time.Duration, 1)
	cb := func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
		d, _ := ctx.Deadline()
		deadline <- time.Until(d)
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}
	tr := startFake(t, Config{CanUseTool: cb}, script("out "+canUseToolLine("p1", "Bash", "ls"), "read"))
	nextEcho(t, tr)
	if d := <-deadline; d <= hooks.DefaultTimeout-time.Second || d > hooks.DefaultTimeout {
		t.Errorf("the callback's deadline is %v away, want about %v", d, hooks.DefaultTimeout)
	}
}

// TestParentSessionEnvDropped: the variables a Claude Code session sets for its children (its
// session id, messaging socket and token, PID, project dir...) do not reach the CLI from the
// inherited environment; set explicitly through Env they do.
func TestParentSessionEnvDropped(t *testing.T) {
	t.Parallel()
	base := append(os.Environ(), "CLAUDE_CODE_SESSION_ID=parent", "CLAUDE_CODE_MESSAGING_SOCKET=/tmp/parent.sock",
		"CLAUDE_CODE_MESSAGING_TOKEN=tok", "CLAUDE_PID=123", "CLAUDE_PROJECT_DIR=/parent", "CLAUDE_CODE_CHILD_SESSION=1",
		"CLAUDE_CODE_ENTRYPOINT=cli", "KEEP=1")
	tr := startFake(t, Config{BaseEnv: base, Env: []string{"CLAUDE_PROJECT_DIR=/mine"}}, script(
		"env CLAUDE_CODE_SESSION_ID", "env CLAUDE_CODE_MESSAGING_SOCKET", "env CLAUDE_CODE_MESSAGING_TOKEN", "env CLAUDE_PID",
		"env CLAUDE_CODE_CHILD_SESSION", "env CLAUDE_CODE_ENTRYPOINT", "env CLAUDE_PROJECT_DIR", "env KEEP"))
	got := map[string]any{}
	for range 8 {
		e := decodeJSON(t, string(nextRaw(t, tr, "env").Raw))
		got[e["name"].(string)] = e["value"]
		if e["set"] == false {
			got[e["name"].(string)] = nil
		}
	}
	want := map[string]any{"CLAUDE_CODE_SESSION_ID": nil, "CLAUDE_CODE_MESSAGING_SOCKET": nil, "CLAUDE_CODE_MESSAGING_TOKEN": nil,
		"CLAUDE_PID": nil, "CLAUDE_CODE_CHILD_SESSION": nil, "CLAUDE_CODE_ENTRYPOINT": nil, "CLAUDE_PROJECT_DIR": "/mine", "KEEP": "1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the CLI's environment (-want +got):\n%s", diff)
	}
}

// permissionRequestLine is the PermissionRequest hook_callback the CLI sends with a can_use_tool
// for tool call toolUseID.
func permissionRequestLine(id, toolUseID string) string {
	return jsonLine(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "hook_callback", "callback_id": "hook_PermissionRequest", "tool_use_id": toolUseID,
		"input": map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
			"tool_input": map[string]any{"command": "rm"}}}})
}

// TestPermissionDecisionsOfOneToolCallAgree: the CLI sends the PermissionRequest hook and
// can_use_tool for one tool call at once and takes the first decisive answer. The SDK's two
// answers agree, and deny wins: an allow waits for the other side's decision. The guard here
// denies only once it sees the callback's allow written (or at its timeout): if the allow were
// written first, the CLI would run the tool.
func TestPermissionDecisionsOfOneToolCallAgree(t *testing.T) {
	t.Parallel()
	allow := &shared.PermissionResult{Behavior: shared.PermissionAllow}
	deny := &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "callback says no"}
	guardDecision := func(d *shared.PermissionResult) shared.HookOutput {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: d}}
	}
	tests := []struct {
		name        string
		promptFirst bool
		guard       func(ctx context.Context, promptWritten <-chan struct{}) shared.HookOutput
		callback    *shared.PermissionResult
		want        []string // the answers: "<id> <verdict>"
	}{
		{"slow guard denies, callback allows", true, func(ctx context.Context, written <-chan struct{}) shared.HookOutput {
			select {
			case <-written:
			case <-ctx.Done():
			}
			return guardDecision(&shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "guard says no"})
		}, allow, []string{"g1 deny", "p1 deny"}},
		{"guard first, slow, denies", false, func(ctx context.Context, written <-chan struct{}) shared.HookOutput {
			select {
			case <-written:
			case <-ctx.Done():
			}
			return guardDecision(&shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "guard says no"})
		}, allow, []string{"g1 deny", "p1 deny"}},
		{"guard allows, callback denies", true, func(context.Context, <-chan struct{}) shared.HookOutput {
			return guardDecision(allow)
		}, deny, []string{"g1 deny", "p1 deny"}},
		{"both allow", true, func(context.Context, <-chan struct{}) shared.HookOutput { return guardDecision(allow) }, allow, []string{"g1 allow", "p1 allow"}},
		{"guard has no opinion", false, func(context.Context, <-chan struct{}) shared.HookOutput { return nil }, allow, []string{"g1 none", "p1 allow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			promptWritten := make(chan struct{})
			x := executor(t, shared.Hooks{shared.HookEventPermissionRequest: {{Matcher: "Bash", Timeout: 300 * time.Millisecond,
				Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
					return tt.guard(ctx, promptWritten), nil
				})}}})
			cb := func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) { return tt.callback, nil }
			onRT := func(rt shared.RoundTrip) {
				if rt.Subtype == "can_use_tool" {
					close(promptWritten)
				}
			}
			lines := []string{"out " + canUseToolLine("p1", "Bash", "rm"), "out " + permissionRequestLine("g1", "toolu_1")}
			if !tt.promptFirst {
				lines[0], lines[1] = lines[1], lines[0]
			}
			tr := startFake(t, Config{Hooks: x, CanUseTool: cb, OnRoundTrip: onRT}, script(append(lines, "read", "read")...))
			var got []string
			for range 2 {
				id, _, resp := answerOf(t, nextEcho(t, tr))
				v := "none"
				if b, ok := resp["behavior"].(string); ok {
					v = b
				} else if b, ok := deepGet(resp, "hookSpecificOutput", "decision", "behavior").(string); ok {
					v = b
				}
				got = append(got, id+" "+v)
			}
			if len(got) == 2 && got[0] > got[1] {
				got[0], got[1] = got[1], got[0]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTransportWhenIdle: WhenIdle's fn runs once every hook request in progress has its answer written (a
// new initialize sent earlier would make the CLI cancel it), right behind it; with none in
// progress, at once, on the caller's goroutine. A
// pending permission prompt does not hold it back.
func TestTransportWhenIdle(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		close(started)
		<-release
		return shared.Deny("slow"), nil
	})}}})
	prompt := func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
		<-ctx.Done() // a person who never answers
		return nil, ctx.Err()
	}
	tr := startFake(t, Config{Hooks: x, CanUseTool: prompt, PermissionTimeout: time.Hour}, script(
		"out "+canUseToolLine("p1", "Bash", "ls"),
		"out "+hookCallbackLine("h1", toolInput(shared.HookEventPreToolUse, "Bash", "ls")),
		"read", "read", "read"))
	<-started
	idle := make(chan error, 1)
	tr.WhenIdle(func() { idle <- tr.WriteMessage(map[string]string{"type": "idle"}) })
	close(release)
	if id, _, _ := answerOf(t, nextEcho(t, tr)); id != "h1" {
		t.Errorf("first line %q, want the hook's answer", id)
	}
	if got := nextEcho(t, tr); got["type"] != "idle" {
		t.Errorf("second line %v, want WhenIdle's", got)
	}
	if err := <-idle; err != nil {
		t.Fatal(err)
	}
	tr.WhenIdle(func() { idle <- tr.WriteMessage(map[string]string{"type": "idle again"}) })
	select {
	case err := <-idle: // written on WhenIdle's caller, before it returned
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Error("WhenIdle with no hook in progress returned before fn ran")
	}
	if got := nextEcho(t, tr); got["type"] != "idle again" {
		t.Errorf("third line %v, want WhenIdle's at once", got)
	}
}

// TestAnswerWithInvalidUTF8IsWritten: a handler's reason with bytes that are not UTF-8 (read from
// a file, say) is written with U+FFFD in their place: the answer is not lost, and the CLI does not
// wait for its own timeout. The same for a permission callback's message.
func TestAnswerWithInvalidUTF8IsWritten(t *testing.T) {
	t.Parallel()
	x := executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("bad \xff reason"), nil
	})}}})
	canUse := func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no \xfe"}, nil
	}
	line := jsonLine(map[string]any{"type": "control_request", "request_id": "h1", "request": map[string]any{
		"subtype": "hook_callback", "callback_id": "hook_PreToolUse", "input": toolInput(shared.HookEventPreToolUse, "Bash", "rm"), "tool_use_id": "toolu_1"}})
	tr := startFake(t, Config{Hooks: x, CanUseTool: canUse}, script("out "+line, "read",
		"out "+jsonLine(map[string]any{"type": "control_request", "request_id": "p1", "request": map[string]any{
			"subtype": "can_use_tool", "tool_name": "Bash", "input": map[string]any{"command": "rm"}}}), "read"))
	id, sub, resp := answerOf(t, nextEcho(t, tr))
	if id != "h1" || sub != "success" || deepGet(resp, "hookSpecificOutput", "permissionDecisionReason") != "bad \uFFFD reason" {
		t.Errorf("hook answer: %s %s %v, want a denial with the reason bad \\uFFFD reason", id, sub, resp)
	}
	id, sub, resp = answerOf(t, nextEcho(t, tr))
	if id != "p1" || sub != "success" || resp["behavior"] != "deny" || resp["message"] != "no \uFFFD" {
		t.Errorf("permission answer: %s %s %v, want a denial with the message no \\uFFFD", id, sub, resp)
	}
}
