package subprocess

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/proctest"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
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

func TestCommandHookProtocol(t *testing.T) {
	stop := &shared.StopHookInput{}
	stop.HookEventName = shared.HookEventStop
	tests := []struct {
		name    string
		command string
		in      shared.HookInput
		want    shared.HookOutput
		wantErr string
	}{
		{"exit 0, no output: no opinion", "true", preToolUse("ls"), nil, ""},
		{"exit 0, JSON deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}'`, preToolUse("ls"),
			&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny", PermissionDecisionReason: "json says no"}}, ""},
		{"exit 0, plain text: system message", "echo hello there", preToolUse("ls"), &shared.SyncHookOutput{SystemMessage: "hello there"}, ""},
		{"exit 2 on PreToolUse: deny with stderr", "echo nope >&2; exit 2", preToolUse("ls"), shared.Deny("nope"), ""},
		{"exit 2 wins over JSON stdout", `echo '{"decision":"approve"}'; echo blocked >&2; exit 2`, preToolUse("ls"), shared.Deny("blocked"), ""},
		{"exit 2 on Stop: block", "echo keep going >&2; exit 2", stop, shared.Block("keep going"), ""},
		{"exit 1: error", "echo broken >&2; exit 1", preToolUse("ls"), nil, "exited with code 1: broken"},
		{"stdin carries the event", `grep -q '"command":"cat /etc/passwd"' && { echo secret >&2; exit 2; }; exit 0`, preToolUse("cat /etc/passwd"), shared.Deny("secret"), ""},
		{"environment", `echo "$HOOK_EVENT $HOOK_TOOL_NAME $HOOK_TOOL_INPUT $CLAUDE_SESSION_ID"`, preToolUse("ls"),
			&shared.SyncHookOutput{SystemMessage: `PreToolUse Bash {"command":"ls"} s1`}, ""},
		{"invalid JSON answer: error", `echo '{"decision":'`, preToolUse("ls"), nil, "invalid answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CommandHook(tt.command, CommandHookOptions{})(context.Background(), tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCommandHookExitCodeFailsClosedInChain(t *testing.T) {
	x, err := NewHookExecutor(shared.Hooks{shared.HookEventPreToolUse: {{Handler: CommandHook("exit 1", CommandHookOptions{})}}}, ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := x.Run(context.Background(), preToolUse("ls"), "r1")
	var ce *CommandExitError
	if !errors.As(res.Err, &ce) || ce.ExitCode != 1 {
		t.Fatalf("Err = %v, want a *CommandExitError with code 1", res.Err)
	}
	s, _ := shared.AsSync(res.Output)
	if p, _ := s.HookSpecificOutput.(*shared.PreToolUseOutput); p == nil || p.PermissionDecision != shared.DecisionDeny {
		t.Fatalf("output = %+v, want a deny", res.Output)
	}
}

func TestCommandHookTimeoutKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	cmd := "sleep 60 & echo $! > " + pidFile + "; wait"
	_, err := CommandHook(cmd, CommandHookOptions{})(ctx, preToolUse("ls"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The grandchild was killed with its group; it may still be exiting, or linger as a zombie
	// until reaped by init: waitGone allows for both.
	if !proctest.WaitGone(pid, 5*time.Second) {
		stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		t.Errorf("grandchild %d still running: %s", pid, stat)
	}
}

func TestCommandHookOutputIsCut(t *testing.T) {
	var lines int
	out, err := CommandHook("head -c 200000 /dev/zero | tr '\\0' 'x'; echo; echo last", CommandHookOptions{
		OutputLimit: 1000,
		Progress:    func(stream, line string) { lines++ },
	})(context.Background(), preToolUse("ls"))
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
