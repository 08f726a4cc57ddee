package replay

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The CLI's pipes fail under the SDK: stdin closed (EPIPE), stdout closed while the CLI lives on, a
// flood of stderr. These tests count goroutines: they do not run in parallel.

// TestStdinClosedUnderTheSDK: the CLI closes its stdin and goes on talking. The SDK's answer to a
// hook request fails with EPIPE: it is logged (the CLI's own timeout then fails the hook closed),
// the session still gets its result, and a later Send fails with EPIPE instead of blocking.
func TestStdinClosedUnderTheSDK(t *testing.T) {
	f := newFake(t,
		initExpect, initAnswer, userExpect,
		"closestdin",
		hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"}),
		assistantLine,
		resultLine,
		"hang",
	)
	var ran atomic.Int32
	answered := make(chan struct{}) // the answer's write was tried (and failed)
	s := f.start(t, v2.WithHook(shared.HookEventPreToolUse, "", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		ran.Add(1)
		return shared.Allow(), nil
	})), v2.WithRoundTripTrace(func(shared.RoundTrip) { close(answered) }))
	if err := s.Send(testCtx(t), "go"); err != nil {
		t.Fatal(err)
	}
	msgs, _, err := receiveAll(t, s)
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	if r, ok := msgs[len(msgs)-1].(*shared.ResultMessage); !ok || r.Result != "done" {
		t.Errorf("last message %+v, want the result", msgs[len(msgs)-1])
	}
	select {
	case <-answered:
	case <-testCtx(t).Done():
		t.Fatal("the hook's answer was never written")
	}
	if ran.Load() != 1 {
		t.Errorf("the hook ran %d times, want 1", ran.Load())
	}
	if l := f.logs.String(); !strings.Contains(l, "answering a CLI request") || !strings.Contains(l, "broken pipe") {
		t.Errorf("the failed answer is not logged with its cause:\n%s", l)
	}
	if err := s.Send(testCtx(t), "again"); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("Send after the CLI closed stdin = %v, want EPIPE", err)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v, want nil (the SDK stopped the CLI)", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if s.Close() != nil {
		t.Error("a second Close returned another error")
	}
	noLeaks(t)
}

// TestStdoutClosedEarly: the CLI closes its stdout but does not exit. Nothing it says can reach
// the SDK any more: the session must end with an error, not wait forever, and the CLI must be
// stopped.
func TestStdoutClosedEarly(t *testing.T) {
	for _, tt := range []struct {
		name string
		tail []string
	}{
		{"exits at stdin EOF", []string{"eof"}},
		{"ignores stdin EOF", []string{"hang"}},
		{"ignores stdin EOF and SIGTERM", []string{"ignoreterm", "hang"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, append([]string{initExpect, initAnswer, userExpect, assistantLine, "closestdout"}, tt.tail...)...)
			s := f.start(t)
			pid := s.Info().PID
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var end error
			n := 0
			for m, err := range s.Receive(ctx) {
				if err != nil {
					end = err
					break
				}
				if _, ok := m.(*shared.AssistantMessage); ok {
					n++
				}
			}
			if errors.Is(end, context.DeadlineExceeded) {
				t.Fatal("Receive waited forever for a CLI whose stdout is closed")
			}
			var pe *shared.ProcessError
			if !errors.Is(end, v2.ErrUnexpectedExit) && !errors.As(end, &pe) {
				t.Errorf("Receive ended with %v, want ErrUnexpectedExit or a *ProcessError", end)
			}
			if n != 1 {
				t.Errorf("%d assistant messages, want 1", n)
			}
			if !proctest.WaitGone(pid, 5*time.Second) {
				t.Errorf("the CLI %d still runs", pid)
			}
			if err := s.Close(); err != s.Close() {
				t.Error("Close returned different errors")
			}
			noLeaks(t)
		})
	}
}

// TestStderrFlood: the CLI floods stderr (24 MiB in short lines, and a line far longer than the
// SDK keeps) while it works. The SDK drains it as fast as it comes (in time linear in its size: it
// takes about 2 s here with -race; a tail kept by copying it for every line took minutes), keeps
// only a bounded tail, and the turn completes; the crash after it carries the last lines.
func TestStderrFlood(t *testing.T) {
	f := newFake(t,
		initExpect, initAnswer, userExpect,
		"stderrflood 25165824 64",
		"stderrflood 8388608 8388608",
		assistantLine,
		resultLine,
		"stderr the last words",
		"exit 5",
	)
	var lines atomic.Int64
	s := f.start(t, v2.WithStderr(func(string) { lines.Add(1) }))
	start := time.Now()
	if err := s.Send(testCtx(t), "go"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatalf("Receive: %v (the stderr flood was not drained in time)", err)
		}
	}
	t.Logf("24 MiB of stderr drained in %v", time.Since(start))
	for range s.Receive(testCtx(t)) {
	}
	err := s.Close()
	pe := wantProcessError(t, err, 5, "", "the last words")
	if len(pe.Stderr) > subprocess.DefaultStderrTail {
		t.Errorf("the stderr tail holds %d bytes, more than the %d kept", len(pe.Stderr), subprocess.DefaultStderrTail)
	}
	if !strings.Contains(pe.Stderr, "[stderr line of 8388607 bytes skipped]") {
		t.Errorf("the over-long stderr line is not reported in the tail: %q", pe.Stderr[max(0, len(pe.Stderr)-200):])
	}
	if want := int64(25165824/64 + 2); lines.Load() < want-1 {
		t.Errorf("OnStderr saw %d lines, want about %d", lines.Load(), want)
	}
	noLeaks(t)
}
