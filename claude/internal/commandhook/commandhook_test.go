package commandhook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"
)

func preToolUse(cmd string) *shared.PreToolUseHookInput {
	in := &shared.PreToolUseHookInput{}
	in.HookEventName = shared.HookEventPreToolUse
	in.SessionID = "s1"
	in.ToolName = "Bash"
	in.ToolInput = shared.ToolInput{"command": cmd}
	in.Raw = []byte(`{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`)
	return in
}

// cmdWire is the answer the CLI gets for o, decoded (nil for an output that cannot be written).
func cmdWire(t *testing.T, e shared.HookEvent, o shared.HookOutput) any {
	t.Helper()
	b, err := hooks.Marshal(e, o)
	if err != nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCommandHookProtocol(t *testing.T) {
	stop := &shared.StopHookInput{}
	stop.HookEventName = shared.HookEventStop
	perm := &shared.PermissionRequestHookInput{}
	perm.HookEventName = shared.HookEventPermissionRequest
	perm.ToolName = "Bash"
	tests := []struct {
		name    string
		command string
		in      shared.HookInput
		want    shared.HookOutput // compared as the CLI gets it (wire.Output)
		wantErr string
	}{
		{"exit 0, no output: no opinion", "true", preToolUse("ls"), nil, ""},
		{"exit 0, JSON deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}'`, preToolUse("ls"),
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny", PermissionDecisionReason: "json says no"}}, ""},
		{"exit 0, JSON rewrite", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe"}}}'`, preToolUse("ls"),
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{UpdatedInput: shared.ToolInput{"command": "echo safe"}}}, ""},
		{"exit 0, JSON legacy approve", `echo '{"decision":"approve"}'`, preToolUse("ls"), shared.Allow(), ""},
		{"exit 0, plain text: system message", "echo hello there", preToolUse("ls"), &shared.SyncHookOutput{SystemMessage: "hello there"}, ""},
		{"exit 0, unknown top-level keys are ignored, as the CLI does", `echo '{"foo":"bar","PermissionDecision":"allow"}'`, preToolUse("ls"), &shared.SyncHookOutput{}, ""},
		{"exit 2 on PreToolUse: deny with stderr", "echo nope >&2; exit 2", preToolUse("ls"), shared.Deny("nope"), ""},
		{"exit 2 on PermissionRequest: its deny", "echo nope >&2; exit 2", perm,
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "nope"}}}, ""},
		{"exit 2 wins over JSON stdout", `echo '{"decision":"approve"}'; echo blocked >&2; exit 2`, preToolUse("ls"), shared.Deny("blocked"), ""},
		{"exit 2 on Stop: block", "echo keep going >&2; exit 2", stop, shared.Block("keep going"), ""},
		{"exit 1: error", "echo broken >&2; exit 1", preToolUse("ls"), nil, "exited with code 1: broken"},
		{"stdin carries the event", `grep -q '"command":"cat /etc/passwd"' && { echo secret >&2; exit 2; }; exit 0`, preToolUse("cat /etc/passwd"), shared.Deny("secret"), ""},
		{"environment", `echo "$HOOK_EVENT $HOOK_TOOL_NAME $HOOK_TOOL_INPUT $CLAUDE_SESSION_ID"`, preToolUse("ls"),
			&shared.SyncHookOutput{SystemMessage: `PreToolUse Bash {"command":"ls"} s1`}, ""},
		{"invalid JSON answer: error", `echo '{"decision":'`, preToolUse("ls"), nil, "refuses"},
		// Read exactly as the CLI reads it (issue 12 item 4): encoding/json's case-insensitive,
		// last-duplicate-wins decoding allowed this call, the CLI denies it.
		{"keys in another case are not the CLI's keys", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","PermissionDecision":"allow"}}'`, preToolUse("ls"),
			nil, "cannot read"},
		{"duplicate keys: error", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecision":"deny"}}'`, preToolUse("ls"),
			nil, "duplicate"},
		{"a decision word the CLI does not read: error", `echo '{"decision":"deny"}'`, preToolUse("ls"), nil, "not one the CLI reads"},
		{"hookEventName of another event: error", `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}'`, preToolUse("ls"), nil, "not PreToolUse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.in.Base().HookEventName
			got, err := New(tt.command, shared.CommandHookOptions{}).Handle(context.Background(), tt.in)
			if err == nil && tt.wantErr != "" {
				// An output the SDK refuses to write is an error too (the executor denies).
				err = hooks.Check(e, got)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v (output %#v), want one containing %q", err, got, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := hooks.Check(e, got); err != nil {
				t.Fatalf("output %#v cannot be written: %v", got, err)
			}
			if diff := cmp.Diff(cmdWire(t, e, tt.want), cmdWire(t, e, got)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// A tool input or output over 128 KiB cannot be one environment variable on Linux
// (MAX_ARG_STRLEN): the command used not to start at all, so a 200 KB Write was always denied and
// a PostToolUse hook never ran. HOOK_TOOL_INPUT / HOOK_TOOL_OUTPUT are left out above
// EnvLimit, with a marker variable; stdin still carries everything (issue 12 item 8).
func TestCommandHookLargeToolInputAndOutput(t *testing.T) {
	big := strings.Repeat("x", 200_000)
	in := preToolUse("ls")
	in.ToolName = "Write"
	in.ToolInput = shared.ToolInput{"file_path": "/tmp/f", "content": big}
	in.Raw = nil // stdin is the input, encoded
	script := `n=$(wc -c); printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"systemMessage":"%s %s %s"}' "$n" "${HOOK_TOOL_INPUT_OMITTED:-none}" "${#HOOK_TOOL_INPUT}"`
	got, err := New(script, shared.CommandHookOptions{}).Handle(context.Background(), in)
	if err != nil {
		t.Fatalf("a PreToolUse command hook for a 200 KB Write failed: %v", err)
	}
	s, _ := shared.AsSync(got)
	f := strings.Fields(s.SystemMessage)
	if len(f) != 3 {
		t.Fatalf("systemMessage %q", s.SystemMessage)
	}
	if n, _ := strconv.Atoi(f[0]); n < 200_000 {
		t.Errorf("stdin carried %s bytes, want the whole input", f[0])
	}
	if n, _ := strconv.Atoi(f[1]); n < 200_000 {
		t.Errorf("HOOK_TOOL_INPUT_OMITTED = %s, want the input's size", f[1])
	}
	if f[2] != "0" {
		t.Errorf("HOOK_TOOL_INPUT has %s bytes, want it left out", f[2])
	}
	if p, _ := s.HookSpecificOutput.(*shared.RawSpecificOutput); p == nil {
		t.Errorf("want the command's answer, got %#v", s.HookSpecificOutput)
	}

	post := &shared.PostToolUseHookInput{}
	post.HookEventName = shared.HookEventPostToolUse
	post.ToolName = "Bash"
	post.ToolInput = shared.ToolInput{"command": "cat big"}
	post.ToolResponse = []byte(`"` + big + `"`)
	script = `cat >/dev/null; echo "ran ${HOOK_TOOL_OUTPUT_OMITTED:-none} ${#HOOK_TOOL_OUTPUT} $HOOK_TOOL_INPUT"`
	got, err = New(script, shared.CommandHookOptions{}).Handle(context.Background(), post)
	if err != nil {
		t.Fatalf("a PostToolUse command hook with a 200 KB output failed: %v", err)
	}
	s, _ = shared.AsSync(got)
	if want := `ran 200002 0 {"command":"cat big"}`; s == nil || s.SystemMessage != want {
		t.Errorf("systemMessage = %+v, want %q", s, want)
	}
}

func TestCommandHookExitCodeFailsClosedInChain(t *testing.T) {
	x, err := hooks.New(shared.Hooks{shared.HookEventPreToolUse: {{Handler: New("exit 1", shared.CommandHookOptions{})}}}, hooks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := x.Run(context.Background(), preToolUse("ls"), "r1")
	var ce *shared.CommandExitError
	if !errors.As(res.Err, &ce) || ce.ExitCode != 1 {
		t.Fatalf("Err = %v, want a *shared.CommandExitError with code 1", res.Err)
	}
	s, _ := shared.AsSync(res.Output)
	if p, _ := s.HookSpecificOutput.(*shared.PreToolUseOutput); p == nil || p.PermissionDecision != shared.DecisionDeny {
		t.Fatalf("output = %+v, want a deny", res.Output)
	}
}

func TestCommandHookTimeoutKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// ctx ends once the hook has started its grandchild (its "started" line), not after a fixed
	// time that a loaded machine could spend before the shell wrote the pid.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := "sleep 60 & echo $! > " + pidFile + "; echo started; wait"
	_, err := New(cmd, shared.CommandHookOptions{Progress: func(_, line string) {
		if line == "started" {
			cancel()
		}
	}}).Handle(ctx, preToolUse("ls"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ctx's end", err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The grandchild was killed with its group; it may still be exiting, or linger as a zombie
	// until reaped by init: waitGone allows for both.
	if !proctest.WaitGone(pid, 60*time.Second) { // only catches a grandchild left running
		stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		t.Errorf("grandchild %d still running: %s", pid, stat)
	}
}

func TestCommandHookOutputIsCut(t *testing.T) {
	var lines int
	out, err := New("head -c 200000 /dev/zero | tr '\\0' 'x'; echo; echo last", shared.CommandHookOptions{
		OutputLimit: 1000,
		Progress:    func(stream, line string) { lines++ },
	}).Handle(context.Background(), preToolUse("ls"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := shared.AsSync(out)
	if len(s.SystemMessage) > 1100 || !strings.Contains(s.SystemMessage, "[output cut at 1000 bytes]") {
		t.Errorf("system message of %d bytes, want it cut at 1000: %.80q", len(s.SystemMessage), s.SystemMessage)
	}
	if lines != 1 {
		t.Errorf("progress saw %d lines, want 1 (the over-long first line is dropped, the last kept)", lines)
	}
}

// A command's stderr may hold any bytes: its exit-2 reason must still encode with JSON v2, which
// refuses invalid UTF-8, or the denial would never reach the CLI.
func TestCommandHookBinaryStderrStillDenies(t *testing.T) {
	got, err := New(`printf 'bad \377 bytes' >&2; exit 2`, shared.CommandHookOptions{}).Handle(context.Background(), preToolUse("ls"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := hooks.AnswerOf(shared.HookEventPreToolUse, got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(w) // JSON v2's defaults: invalid UTF-8 is an error
	if err != nil {
		t.Fatalf("the denial cannot be encoded: %v", err)
	}
	if !strings.Contains(string(b), `"permissionDecision":"deny"`) || !strings.Contains(string(b), "bad \uFFFD bytes") {
		t.Errorf("answer %s, want a deny with the reason", b)
	}
}

// A command hook does not inherit the variables of a Claude Code session the program runs in
// (its messaging token and socket, session id, PID, CLAUDECODE): the SDK's one environment
// policy (claude/internal/childenv) applies to it as to the CLI. Other variables, the hook's own and
// CommandHookOptions.Env are kept.
func TestCommandHookDropsParentSessionEnv(t *testing.T) {
	parent := map[string]string{
		"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "parent-session", "CLAUDE_CODE_MESSAGING_TOKEN": "parent-token",
		"CLAUDE_CODE_MESSAGING_SOCKET": "/tmp/parent.sock", "CLAUDE_PID": "4242", "CLAUDE_CODE_CHILD_SESSION": "1",
	}
	for k, v := range parent {
		t.Setenv(k, v) // not parallel: the process environment is the parent's
	}
	t.Setenv("COMMANDHOOK_KEEP", "inherited")
	dir := t.TempDir()
	names := []string{"COMMANDHOOK_KEEP", "FROM_OPTIONS", "HOOK_EVENT"}
	for k := range parent {
		names = append(names, k)
	}
	var script strings.Builder
	for _, n := range names {
		script.WriteString("echo " + n + "=${" + n + "-unset} >> " + filepath.Join(dir, "env.txt") + "\n")
	}
	h := New(script.String(), shared.CommandHookOptions{Env: []string{"FROM_OPTIONS=kept"}})
	if _, err := h.Handle(context.Background(), preToolUse("ls")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	want := map[string]string{"COMMANDHOOK_KEEP": "inherited", "FROM_OPTIONS": "kept", "HOOK_EVENT": "PreToolUse"}
	for k := range parent {
		want[k] = "unset"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the command hook's environment (-want +got):\n%s", diff)
	}
}
