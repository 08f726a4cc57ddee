//go:build unix

package v2_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"
)

// TestRealCLI_StopTask: a background Bash command (a sleep that wrote its pid) is stopped by
// StopTask with the task id of its system task_started message; the sleep is gone after it, while
// the session goes on.
func TestRealCLI_StopTask(t *testing.T) {
	t.Parallel()
	var fifo string
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		fifo = p + "/sleep.pid"
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_bg1", "Bash", map[string]any{"command": "echo $$ > " + fifo + "; exec sleep 300", "description": "sleep", "run_in_background": true}),
			claudetest.TextReply("started"),
		}
	})
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The command writes its pid into the FIFO: reading it waits until the command runs.
	pidc := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		pidc <- b
	}()
	s := env.session(t, v2.WithAllowedTools("Bash"))
	msgs, _ := query(t, s, "sleep in the background")
	var taskID string
	for _, m := range msgs {
		if ts, ok := m.(*shared.TaskStartedMessage); ok {
			taskID = ts.TaskID
		}
	}
	if taskID == "" {
		t.Fatalf("no task_started message with a task_id among %d messages", len(msgs))
	}
	var b []byte
	select {
	case b = <-pidc:
	case <-time.After(60 * time.Second):
		t.Fatal("the background command did not run")
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid == 0 || proctest.Gone(pid) {
		t.Fatalf("the background sleep (pid %d) is not running", pid)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if err := s.StopTask(testCtx(t), taskID); err != nil {
		t.Fatalf("StopTask(%q): %v", taskID, err)
	}
	if !proctest.WaitGone(pid, 10*time.Second) {
		t.Errorf("the background sleep %d still runs after StopTask", pid)
	}
}
