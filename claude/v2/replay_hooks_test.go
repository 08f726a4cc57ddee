package v2_test

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Tests over the scripted fake CLI of internal/replay (this test binary, see main_test.go): they
// pin what the SDK writes and in which order, where the real CLI cannot be made to.

// replayRun is one fake-CLI session: its transcript, and the files the fake writes.
type replayRun struct {
	dir  string
	opts []v2.Option
}

// newReplay writes transcript for the fake CLI and returns options that run it.
func newReplay(t *testing.T, transcript string) *replayRun {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "transcript.txt"), []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}
	return &replayRun{dir: dir, opts: []v2.Option{v2.WithDefaults(
		v2.WithCLIPath(os.Args[0]),
		v2.WithCwd(dir),
		v2.WithLogger(testLogger(t)),
		v2.WithStderr(func(line string) { t.Log("fake CLI: " + line) }),
		v2.WithEnv(replayEnv+"=1",
			"CLAUDE_REPLAY="+filepath.Join(dir, "transcript.txt"),
			"CLAUDE_REPLAY_LOG="+filepath.Join(dir, "stdin.jsonl"),
			"CLAUDE_REPLAY_ARGS="+filepath.Join(dir, "args.txt"),
			"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")),
	)}}
}

func (r *replayRun) session(t *testing.T, opts ...v2.Option) *v2.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s, err := v2.CreateSession(ctx, append(append([]v2.Option{}, r.opts...), opts...)...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stdin returns the lines the SDK wrote, decoded.
func (r *replayRun) stdin(t *testing.T) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "stdin.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdin line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// answers returns the SDK's answers to CLI requests by request id, and the hooks of every
// initialize it sent, in order.
func (r *replayRun) answers(t *testing.T) (byID map[string]any, inits []map[string]any) {
	t.Helper()
	byID = map[string]any{}
	for _, m := range r.stdin(t) {
		switch m["type"] {
		case "control_response":
			resp := m["response"].(map[string]any)
			byID[resp["request_id"].(string)] = resp["response"]
		case "control_request":
			req := m["request"].(map[string]any)
			if req["subtype"] == "initialize" {
				h, _ := req["hooks"].(map[string]any)
				inits = append(inits, h)
			}
		}
	}
	return byID, inits
}

func (r *replayRun) args(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// Transcript pieces.
const (
	replayInit = `expect {"type":"control_request","request_id":"$capture:first","request":{"subtype":"initialize"}}
send {"type":"control_response","response":{"subtype":"success","request_id":"$first","response":{"claude_code_version":"2.1.330","hooks_applied":true,"hook_on_failure_supported":true}}}
`
	// replayListing answers get_hooks_listing with the settings hooks of
	// TestReplay_SettingsHooksMergedIntoATempFile, all in force.
	replayListing = `expect {"type":"control_request","request_id":"$capture:listing","request":{"subtype":"get_hooks_listing"}}
send {"type":"control_response","response":{"subtype":"success","request_id":"$listing","response":{"hooks":[{"event":"PreToolUse","source":"flagSettings"},{"event":"PreToolUse","source":"flagSettings"},{"event":"PreToolUse","source":"flagSettings"},{"event":"Stop","source":"flagSettings"}],"policy":{}}}}
`
	replayReinit = `expect {"type":"control_request","request_id":"$capture:again","request":{"subtype":"initialize"}}
send {"type":"control_response","response":{"subtype":"success","request_id":"$again","response":{"claude_code_version":"2.1.330","hooks_applied":true,"hook_on_failure_supported":true}}}
`
)

// hookCallback returns a send directive for a hook_callback request.
func hookCallback(id string, e shared.HookEvent, fields map[string]any) string {
	in := map[string]any{"session_id": "s1", "transcript_path": "/t", "cwd": "/proj", "hook_event_name": string(e)}
	for k, v := range fields {
		in[k] = v
	}
	b, _ := json.Marshal(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "hook_callback", "callback_id": "hook_" + string(e), "tool_use_id": "t-" + id, "input": in}})
	return "send " + string(b) + "\n"
}

func bashCall(cmd, agent string) map[string]any {
	f := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "toolu_" + cmd}
	if agent != "" {
		f["agent_id"], f["agent_type"] = agent, "general-purpose"
	}
	return f
}

func expectAnswer(id string) string {
	return `expect {"type":"control_response","response":{"subtype":"success","request_id":"` + id + `"}}` + "\n"
}

func expectUser(text string) string {
	return `expect {"type":"user","message":{"role":"user","content":"` + text + `"}}` + "\n"
}

func sendResult(text string) string {
	return `send {"type":"result","subtype":"success","is_error":false,"result":"` + text + `","session_id":"s1","num_turns":1}` + "\n"
}

// permissionDecision returns an answer's PreToolUse decision and reason.
func permissionDecision(a any) (string, string) {
	m, _ := a.(map[string]any)
	h, _ := m["hookSpecificOutput"].(map[string]any)
	d, _ := h["permissionDecision"].(string)
	r, _ := h["permissionDecisionReason"].(string)
	return d, r
}

// The settings hooks are merged into the user's settings, written to a 0600 temporary file passed
// with --settings, and the file is removed by Close.
func TestReplay_SettingsHooksMergedIntoATempFile(t *testing.T) {
	t.Parallel()
	user := `{"env":{"FROM_USER":"1"},"permissions":{"allow":["Bash(ls)"]},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./user-hook.sh"}]}]}}`
	userFile := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(userFile, []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, settings string }{{"inline JSON", user}, {"file", userFile}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+replayListing+"eof\n")
			s := r.session(t, v2.WithSettings(tc.settings),
				v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{
					shared.HookEventPreToolUse: {{Matcher: "Bash", Command: "./ours.sh deny", Timeout: 1500 * time.Millisecond}},
					shared.HookEventStop:       {{Command: "echo stop"}},
				}),
				v2.WithPromptHooks(map[shared.HookEvent][]v2.SettingsPromptHook{
					shared.HookEventPreToolUse: {{Matcher: "Write", Prompt: "Is $ARGUMENTS safe?"}},
				}))
			args := r.args(t)
			i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--settings=") })
			if i < 0 {
				t.Fatalf("no --settings in %q", args)
			}
			path := strings.TrimPrefix(args[i], "--settings=")
			if path == userFile || strings.HasPrefix(path, "{") {
				t.Fatalf("--settings %q, want a file of the SDK's own", path)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("settings file mode %v, want 0600", st.Mode().Perm())
			}
			b, _ := os.ReadFile(path)
			var got any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{
				"disableAllHooks": false,
				"env":             map[string]any{"FROM_USER": "1"},
				"permissions":     map[string]any{"allow": []any{"Bash(ls)"}},
				"hooks": map[string]any{
					"PreToolUse": []any{
						map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "./user-hook.sh"}}},
						map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "./ours.sh deny", "timeout": 2.0}}},
						map[string]any{"matcher": "Write", "hooks": []any{map[string]any{"type": "prompt", "prompt": "Is $ARGUMENTS safe?"}}},
					},
					"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "echo stop"}}}},
				},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("merged settings (-want +got):\n%s", diff)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("settings file after Close: %v", err)
			}
			if b, _ := os.ReadFile(userFile); string(b) != user {
				t.Errorf("the user's settings file changed: %s", b)
			}
		})
	}
}

func TestSettingsHooksValidation(t *testing.T) {
	t.Parallel()
	bad := []struct {
		name string
		opts []v2.Option
	}{
		{"unknown event", []v2.Option{v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{"Nope": {{Command: "x"}}})}},
		{"empty command", []v2.Option{v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventStop: {{}}})}},
		{"empty prompt", []v2.Option{v2.WithPromptHooks(map[shared.HookEvent][]v2.SettingsPromptHook{shared.HookEventStop: {{Prompt: " "}}})}},
		{"settings not an object", []v2.Option{v2.WithSettings(`{"hooks":`), v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventStop: {{Command: "x"}}})}},
		{"settings hooks not a map of lists", []v2.Option{v2.WithSettings(`{"hooks":{"Stop":{}}}`), v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventStop: {{Command: "x"}}})}},
		{"settings file missing", []v2.Option{v2.WithSettings(filepath.Join(t.TempDir(), "nope.json")), v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventStop: {{Command: "x"}}})}},
	}
	for _, tc := range bad {
		r := newReplay(t, "exit 3\n") // never reached
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := v2.CreateSession(ctx, append(r.opts, tc.opts...)...)
		cancel()
		if err == nil {
			s.Close()
			t.Errorf("%s: CreateSession succeeded", tc.name)
		}
	}
}

// The Go-side command hook: exit 0 with JSON or plain text, exit 2, exit 1 (denied for
// PreToolUse, fail closed; no opinion for PostToolUse), no output.
func TestReplay_CommandHandlerProtocol(t *testing.T) {
	t.Parallel()
	script := `case "$HOOK_TOOL_INPUT" in
*json-deny*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}';;
*exit2*) echo "exit 2 says no" >&2; exit 2;;
*exit1*) echo "broken hook" >&2; exit 1;;
*plain*) echo "plain words";;
esac`
	transcript := replayInit + expectUser("go")
	cmds := []string{"json-deny", "exit2", "exit1", "plain", "silent"}
	for i, c := range cmds {
		id := "pre" + string(rune('1'+i))
		transcript += hookCallback(id, shared.HookEventPreToolUse, bashCall(c, "")) + expectAnswer(id)
	}
	transcript += hookCallback("post1", shared.HookEventPostToolUse, bashCall("exit1", "")) + expectAnswer("post1")
	transcript += sendResult("done") + "eof\n"
	r := newReplay(t, transcript)
	s := r.session(t, v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse:  {{Matcher: "Bash", Handler: v2.CommandHandler(script, shared.CommandHookOptions{})}},
		shared.HookEventPostToolUse: {{Handler: v2.CommandHandler(script, shared.CommandHookOptions{})}},
	}))
	if res := run(t, s, "go"); res.Result != "done" {
		t.Fatalf("result %+v", res)
	}
	s.Close()
	got, _ := r.answers(t)
	for _, tc := range []struct {
		id, decision, reason string
	}{
		{"pre1", "deny", "json says no"},
		{"pre2", "deny", "exit 2 says no"},
		{"pre3", "deny", "hook failed, denied by the SDK (fail-closed): PreToolUse hook #0: command hook"},
	} {
		if d, reason := permissionDecision(got[tc.id]); d != tc.decision || !strings.HasPrefix(reason, tc.reason) {
			t.Errorf("%s: %q %q, want %q %q...", tc.id, d, reason, tc.decision, tc.reason)
		}
	}
	if !strings.Contains(mustJSON(got["pre3"]), "exited with code 1: broken hook") {
		t.Errorf("exit 1 answer does not say why: %s", mustJSON(got["pre3"]))
	}
	for id, want := range map[string]any{"pre4": map[string]any{"systemMessage": "plain words"}, "pre5": map[string]any{}, "post1": map[string]any{}} {
		if diff := cmp.Diff(want, got[id]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", id, diff)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A scoped hook fires only between RegisterScoped and UnregisterScoped. Registering it needs an
// event the CLI was not told about: the SDK sends a second initialize with the union.
func TestReplay_ScopedHookBetweenRegisterAndUnregister(t *testing.T) {
	t.Parallel()
	transcript := replayInit + expectUser("zero") + hookCallback("before", shared.HookEventPostToolUse, bashCall("ls", "")) + expectAnswer("before") + sendResult("zero") +
		replayReinit +
		expectUser("one") + hookCallback("during", shared.HookEventPreToolUse, bashCall("rm", "")) + expectAnswer("during") + sendResult("one") +
		expectUser("two") + hookCallback("after", shared.HookEventPreToolUse, bashCall("rm", "")) + expectAnswer("after") + sendResult("two") +
		"eof\n"
	r := newReplay(t, transcript)
	var post recorder[*shared.PostToolUseHookInput]
	s := r.session(t, v2.WithHooks(shared.Hooks{shared.HookEventPostToolUse: {{Handler: post.handler(nil)}}}))
	run(t, s, "zero")
	guard := shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		return shared.Deny("scoped guard: " + in.ToolInput.String("command")), nil
	})}}}
	if err := s.RegisterScoped(testCtx(t), "guard", guard); err != nil {
		t.Fatalf("RegisterScoped: %v", err)
	}
	if err := s.RegisterScoped(testCtx(t), "guard", guard); !errors.Is(err, shared.ErrScopeExists) {
		t.Errorf("second RegisterScoped(guard) = %v, want ErrScopeExists", err)
	}
	run(t, s, "one")
	if !s.UnregisterScoped("guard") || len(s.Scopes()) != 0 {
		t.Fatalf("UnregisterScoped: scopes left %q", s.Scopes())
	}
	run(t, s, "two")
	s.Close()
	got, inits := r.answers(t)
	if d, reason := permissionDecision(got["during"]); d != "deny" || reason != "scoped guard: rm" {
		t.Errorf("while registered: %q %q", d, reason)
	}
	if diff := cmp.Diff(map[string]any{}, got["after"]); diff != "" {
		t.Errorf("after UnregisterScoped (-want +got):\n%s", diff)
	}
	if len(inits) != 2 {
		t.Fatalf("%d initialize requests, want 2: %v", len(inits), inits)
	}
	if _, ok := inits[0]["PreToolUse"]; ok {
		t.Errorf("first initialize already had PreToolUse: %v", inits[0])
	}
	want := map[string]any{
		"PostToolUse": []any{map[string]any{"hookCallbackIds": []any{"hook_PostToolUse"}, "timeout": 10.0}},
		"PreToolUse":  []any{map[string]any{"matcher": "Bash", "hookCallbackIds": []any{"hook_PreToolUse"}, "timeout": 10.0, "onFailure": "block"}},
	}
	if diff := cmp.Diff(want, inits[1]); diff != "" {
		t.Errorf("second initialize: the union (-want +got):\n%s", diff)
	}
	if post.len() != 1 {
		t.Errorf("base PostToolUse ran %d times", post.len())
	}
}

// Hooks registered for a subagent from its SubagentStart (WithSubagentHooks): the SubagentStart
// request is answered before the new initialize (which would cancel it); the hooks fire only for
// that agent's calls and end at its SubagentStop.
func TestReplay_SubagentHooks(t *testing.T) {
	t.Parallel()
	start := map[string]any{"agent_id": "a1", "agent_type": "general-purpose"}
	transcript := replayInit + expectUser("go") +
		hookCallback("start", shared.HookEventSubagentStart, start) + expectAnswer("start") + replayReinit +
		hookCallback("sub", shared.HookEventPreToolUse, bashCall("rm", "a1")) + expectAnswer("sub") +
		hookCallback("other", shared.HookEventPreToolUse, bashCall("rm", "a2")) + expectAnswer("other") +
		hookCallback("main", shared.HookEventPreToolUse, bashCall("rm", "")) + expectAnswer("main") +
		hookCallback("stop", shared.HookEventSubagentStop, start) + expectAnswer("stop") +
		hookCallback("late", shared.HookEventPreToolUse, bashCall("rm", "a1")) + expectAnswer("late") +
		sendResult("done") + "eof\n"
	r := newReplay(t, transcript)
	var starts []string
	var mu sync.Mutex
	s := r.session(t, v2.WithSubagentHooks(func(in *shared.SubagentStartHookInput) shared.Hooks {
		mu.Lock()
		starts = append(starts, in.AgentID)
		mu.Unlock()
		return shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Deny("not in the subagent"), nil
		})}}}
	}))
	run(t, s, "go")
	if ids := s.Scopes(); len(ids) != 0 {
		t.Errorf("scopes after the agent stopped: %q", ids)
	}
	s.Close()
	got, inits := r.answers(t)
	if d, _ := permissionDecision(got["sub"]); d != "deny" {
		t.Errorf("the subagent's call: %v", got["sub"])
	}
	for _, id := range []string{"other", "main", "late", "start", "stop"} {
		if diff := cmp.Diff(map[string]any{}, got[id]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", id, diff)
		}
	}
	if len(inits) != 2 || inits[0]["SubagentStop"] == nil || inits[1]["PreToolUse"] == nil {
		t.Errorf("initialize hooks %v: want SubagentStart/SubagentStop first, PreToolUse added by the second", inits)
	}
	if diff := cmp.Diff([]string{"a1"}, starts); diff != "" {
		t.Errorf("WithSubagentHooks called for (-want +got):\n%s", diff)
	}
}

// An async hook answers the CLI at once and finishes in the background; its end is a HookResponse
// (Async) on the stream. For PreToolUse an async answer is refused: denied, fail closed.
func TestReplay_AsyncHook(t *testing.T) {
	t.Parallel()
	transcript := replayInit + expectUser("one") +
		hookCallback("pre", shared.HookEventPreToolUse, bashCall("ls", "")) + expectAnswer("pre") +
		hookCallback("post", shared.HookEventPostToolUse, bashCall("ls", "")) + expectAnswer("post") + sendResult("one") + "eof\n"
	r := newReplay(t, transcript)
	release := make(chan struct{})
	finished := make(chan struct{})
	s := r.session(t, v2.WithHookEvents(), v2.WithHooks(shared.Hooks{
		shared.HookEventPreToolUse: {{Name: "pre-async", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Async(time.Second, func(context.Context) (shared.HookOutput, error) { return nil, nil }), nil
		})}},
		shared.HookEventPostToolUse: {{Name: "audit", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Async(10*time.Second, func(context.Context) (shared.HookOutput, error) {
				defer close(finished)
				<-release
				return nil, errors.New("audit backend down")
			}), nil
		})}},
	}))
	query(t, s, "one") // the turn ends while the audit work is still blocked
	close(release)
	<-finished
	var asyncEnd *shared.HookResponse
	for m, err := range s.Receive(testCtx(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if hr, ok := m.(*shared.HookResponse); ok && hr.Async {
			asyncEnd = hr
			break
		}
	}
	s.Close()
	got, _ := r.answers(t)
	if d, reason := permissionDecision(got["pre"]); d != "deny" || !strings.Contains(reason, "async answer refused") {
		t.Errorf("PreToolUse async: %q %q, want a deny that says why", d, reason)
	}
	if diff := cmp.Diff(map[string]any{}, got["post"]); diff != "" {
		t.Errorf("PostToolUse async answered (-want +got):\n%s", diff)
	}
	if asyncEnd == nil || asyncEnd.HookName != "audit" || asyncEnd.Outcome != shared.HookOutcomeError ||
		!strings.Contains(asyncEnd.Error, "audit backend down") || asyncEnd.Duration <= 0 {
		t.Errorf("async end event %+v", asyncEnd)
	}
}

// Hook events in order: the CLI's command hooks (Source cli) and the Go hooks (Source sdk), each
// run as started, its output lines, and its end with a duration.
func TestReplay_HookEventsInOrder(t *testing.T) {
	t.Parallel()
	transcript := replayInit + expectUser("go") +
		`send {"type":"system","subtype":"hook_started","hook_id":"c1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","uuid":"u1","session_id":"s1"}` + "\n" +
		hookCallback("pre", shared.HookEventPreToolUse, bashCall("ls", "")) + expectAnswer("pre") +
		`send {"type":"system","subtype":"hook_response","hook_id":"c1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"x\n","stdout":"x\n","stderr":"","exit_code":0,"outcome":"success","uuid":"u2","session_id":"s1"}` + "\n" +
		sendResult("done") + "eof\n"
	r := newReplay(t, transcript)
	s := r.session(t, v2.WithHookEvents(), v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {
		{Handler: v2.CommandHandler("echo checking; echo 'still checking'", shared.CommandHookOptions{})},
		{Name: "go-note", Handler: shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			shared.ReportHookProgress(ctx, "note", "looked")
			return shared.Allow(), nil
		})},
	}}))
	msgs, _ := query(t, s, "go")
	var got []string
	for _, m := range msgs {
		switch v := m.(type) {
		case *shared.HookStarted:
			got = append(got, "started "+string(v.Source)+" "+v.HookName)
		case *shared.HookProgress:
			got = append(got, "progress "+v.HookName+" "+v.Stream+": "+v.Line)
		case *shared.HookResponse:
			if v.Duration <= 0 && v.Source == shared.HookSourceSDK {
				t.Errorf("%s: duration %v", v.HookName, v.Duration)
			}
			got = append(got, "response "+string(v.Source)+" "+v.HookName+" "+string(v.Outcome))
		case *shared.ResultMessage:
			got = append(got, "result")
		}
	}
	want := []string{
		"started cli PreToolUse:Bash",
		"started sdk PreToolUse:Bash",
		"progress PreToolUse:Bash stdout: checking",
		"progress PreToolUse:Bash stdout: still checking",
		"response sdk PreToolUse:Bash success",
		"started sdk go-note",
		"progress go-note note: looked",
		"response sdk go-note success",
		"response cli PreToolUse:Bash success",
		"result",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !slices.Contains(r.args(t), "--include-hook-events") {
		t.Errorf("WithHookEvents did not pass --include-hook-events: %q", r.args(t))
	}
}

func TestCoversRegistration(t *testing.T) {
	m := func(matcher string, timeout int, onFailure string) []hooks.CallbackMatcher {
		return []hooks.CallbackMatcher{{Matcher: matcher, HookCallbackIDs: []string{"h"}, Timeout: timeout, OnFailure: onFailure}}
	}
	type reg = map[string][]hooks.CallbackMatcher
	tests := []struct {
		name     string
		old, new reg
		want     bool
	}{
		{"same", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("Bash", 10, "block")}, true},
		{"new event", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("Bash", 10, "block"), "Stop": m("", 10, "")}, false},
		{"fewer events", reg{"PreToolUse": m("Bash", 10, "block"), "Stop": m("", 10, "")}, reg{"Stop": m("", 10, "")}, true},
		{"broader list", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("Bash|Write", 10, "block")}, false},
		{"narrower list", reg{"PreToolUse": m("Bash|Write", 10, "block")}, reg{"PreToolUse": m("Write", 10, "block")}, true},
		{"everything covers a list", reg{"PreToolUse": m("", 10, "block")}, reg{"PreToolUse": m("Bash", 10, "block")}, true},
		{"a list does not cover everything", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("", 10, "block")}, false},
		{"the empty list", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("|", 10, "block")}, true},
		{"longer timeout", reg{"PreToolUse": m("Bash", 10, "block")}, reg{"PreToolUse": m("Bash", 15, "block")}, false},
		{"shorter timeout", reg{"PreToolUse": m("Bash", 15, "block")}, reg{"PreToolUse": m("Bash", 10, "block")}, true},
		{"onFailure differs", reg{"Stop": m("", 10, "")}, reg{"Stop": m("", 10, "block")}, false},
		{"nothing sent yet", nil, reg{"Stop": m("", 10, "")}, false},
	}
	for _, tt := range tests {
		if got := v2.CoversRegistration(tt.old, tt.new); got != tt.want {
			t.Errorf("%s: covers = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A RegisterScoped whose initialize the CLI never answers gives up with its ctx and takes the scope
// away again.
func TestReplay_RegisterScopedGivesUpWithItsContext(t *testing.T) {
	t.Parallel()
	r := newReplay(t, replayInit+`expect {"type":"control_request","request":{"subtype":"initialize"}}`+"\nhang\n")
	s := r.session(t, v2.WithCloseGrace(100*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := s.RegisterScoped(ctx, "guard", shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("x"), nil
	})}}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("RegisterScoped = %v, want the ctx's deadline", err)
	}
	if ids := s.Scopes(); len(ids) != 0 {
		t.Errorf("scopes after the failed registration: %q", ids)
	}
}

// The SDK's SessionStart (run before the CLI starts) reports its events first on the stream.
func TestReplay_HookEventsOfTheSynthesizedSessionStart(t *testing.T) {
	t.Parallel()
	r := newReplay(t, replayInit+expectUser("go")+sendResult("done")+"eof\n")
	s := r.session(t, v2.WithHookEvents(), v2.WithHooks(shared.Hooks{shared.HookEventSessionStart: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return nil, nil
	})}}}))
	msgs, _ := query(t, s, "go")
	if len(msgs) < 3 {
		t.Fatalf("%d messages", len(msgs))
	}
	st, ok1 := msgs[0].(*shared.HookStarted)
	end, ok2 := msgs[1].(*shared.HookResponse)
	if !ok1 || !ok2 || st.Event != shared.HookEventSessionStart || end.HookID != st.HookID || end.Outcome != shared.HookOutcomeSuccess {
		t.Errorf("first messages %T %+v, %T %+v; want SessionStart's started and response", msgs[0], msgs[0], msgs[1], msgs[1])
	}
}

// When CreateSession fails after writing the settings file, the file is removed.
func TestReplay_SettingsFileRemovedWhenCreateSessionFails(t *testing.T) {
	t.Parallel()
	r := newReplay(t, "exit 3\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := v2.CreateSession(ctx, append(r.opts, v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventStop: {{Command: "true"}}}))...)
	if err == nil {
		s.Close()
		t.Fatal("CreateSession succeeded with a CLI that exits at once")
	}
	args := r.args(t)
	i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--settings=") })
	if i < 0 {
		t.Fatalf("no --settings in %q", args)
	}
	if _, err := os.Stat(strings.TrimPrefix(args[i], "--settings=")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("settings file after the failed CreateSession: %v", err)
	}
}

// CreateSession refuses a session whose settings hooks the CLI does not list as in force, or
// lists next to a hook of another source that may rewrite the input they approved: each is
// ErrHooksNotEnforced (the real CLI's cases: TestRealCLI_UntrustedSettingsCannotSwitchOffGuards).
func TestReplay_SettingsHooksNotInForceRefused(t *testing.T) {
	t.Parallel()
	const ask = `expect {"type":"control_request","request_id":"$capture:listing","request":{"subtype":"get_hooks_listing"}}
`
	answer := func(response string) string {
		return `send {"type":"control_response","response":{"subtype":"success","request_id":"$listing","response":` + response + "}}\n"
	}
	ours := `{"event":"PreToolUse","source":"flagSettings"}`
	for _, tc := range []struct{ name, reply string }{
		{"listing refused", `send {"type":"control_response","response":{"subtype":"error","request_id":"$listing","error":"Unsupported control request subtype: get_hooks_listing"}}` + "\n"},
		{"listing unreadable", answer(`{"hooks":{}}`)},
		{"hook missing", answer(`{"hooks":[],"policy":{}}`)},
		{"hook disabled", answer(`{"hooks":[{"event":"PreToolUse","source":"flagSettings","disabled":true}],"policy":{}}`)},
		{"policy managed only", answer(`{"hooks":[` + ours + `],"policy":{"managedOnly":true}}`)},
		{"safe mode", answer(`{"hooks":[` + ours + `],"policy":{},"safeMode":{}}`)},
		{"project hook next to ours", answer(`{"hooks":[{"event":"PreToolUse","source":"projectSettings","commandText":"./rewrite.sh"},` + ours + `],"policy":{}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+ask+tc.reply+"eof\n")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := v2.CreateSession(ctx, append(r.opts, v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{shared.HookEventPreToolUse: {{Matcher: "Bash", Command: "./guard.sh"}}}))...)
			if err == nil {
				s.Close()
				t.Fatal("CreateSession started a session whose settings hooks are not in force")
			}
			if !errors.Is(err, v2.ErrHooksNotEnforced) {
				t.Errorf("CreateSession = %v, want ErrHooksNotEnforced", err)
			}
		})
	}
}

// WithSettings never puts its JSON on the command line (/proc/PID/cmdline is readable by every
// user): inline JSON, a file and a file relative to WithCwd's directory all reach the CLI as the
// path of the SDK's 0600 temporary file, which holds the settings.
func TestReplay_SettingsNeverOnTheCommandLine(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-token-value"
	user := `{"env":{"API_TOKEN":"` + secret + `"}}`
	for _, tc := range []struct {
		name     string
		settings func(cwd string) string
	}{
		{"inline JSON", func(string) string { return user }},
		{"inline JSON with blanks", func(string) string { return "\n  " + user + " " }},
		{"absolute file", func(cwd string) string { return filepath.Join(cwd, "user-settings.json") }},
		{"file relative to the working directory", func(string) string { return "user-settings.json" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+"eof\n")
			if err := os.WriteFile(filepath.Join(r.dir, "user-settings.json"), []byte(user), 0o600); err != nil {
				t.Fatal(err)
			}
			r.session(t, v2.WithSettings(tc.settings(r.dir)))
			args := r.args(t)
			for _, a := range args {
				if strings.Contains(a, secret) || strings.Contains(a, "{") {
					t.Errorf("argument %q carries the settings' JSON", a)
				}
			}
			i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--settings=") })
			if i < 0 {
				t.Fatalf("no --settings in %q", args)
			}
			path := strings.TrimPrefix(args[i], "--settings=")
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 || strings.HasPrefix(path, r.dir) {
				t.Errorf("--settings %s (mode %v), want the SDK's own 0600 file", path, st.Mode().Perm())
			}
			if b, _ := os.ReadFile(path); !strings.Contains(string(b), secret) {
				t.Errorf("the settings file does not hold the settings: %s", b)
			}
		})
	}
}
