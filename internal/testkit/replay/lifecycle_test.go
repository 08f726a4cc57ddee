package replay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The session's ctx is cancelled, and Close is called, at every stage of a session, concurrently
// and repeatedly. Each time the CLI is stopped (stdin closed, then SIGTERM, then SIGKILL), Close
// returns promptly and the same error to every caller, what was pending ends with ErrClosed, and
// nothing is left. These tests count goroutines: they do not run in parallel.

// The ways a session is ended.
const (
	byClose  = "Close"
	byCancel = "cancel"
	byBoth   = "Close and cancel at once"
)

// end ends s (created with cancel's ctx) by how, and checks that Close returns promptly and the
// same nil to every caller, also when called again.
func end(t *testing.T, s *v2.Session, cancel context.CancelFunc, how string) {
	t.Helper()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	if how == byCancel || how == byBoth {
		wg.Go(cancel)
	}
	if how == byClose || how == byBoth {
		for range 4 {
			wg.Go(func() { errs <- s.Close() })
		}
	}
	wg.Wait()
	if how == byCancel {
		select {
		case <-s.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("cancelling the session's ctx did not stop the CLI")
		}
	}
	for range 3 {
		errs <- s.Close()
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Close = %v, want nil", err)
		}
	}
	// The close grace is 200 ms: stdin EOF, SIGTERM and SIGKILL fit in well under 5 s.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("ending the session took %v", d)
	}
	cancel()
}

// TestEndBeforeAndDuringStart: a ctx cancelled before CreateSession, or while the SDK runs its own
// SessionStart hook, starts no CLI; one cancelled while the CLI has not answered initialize makes
// CreateSession fail at once and stops the CLI.
func TestEndBeforeAndDuringStart(t *testing.T) {
	t.Run("before", func(t *testing.T) {
		f := newFake(t, initExpect, initAnswer, "eof")
		args := filepath.Join(f.dir, "args.txt")
		t.Setenv("CLAUDE_REPLAY_ARGS", args)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if s, err := v2.CreateSession(ctx, f.options(t)...); !errors.Is(err, context.Canceled) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("CreateSession = %v, want context.Canceled", err)
		}
		if _, err := os.Stat(args); err == nil {
			t.Error("the CLI was started with a cancelled ctx")
		}
		noLeaks(t)
	})
	t.Run("during the SDK's SessionStart hook", func(t *testing.T) {
		// SessionStart(startup) runs before the CLI starts; a cancel there starts no CLI.
		f := newFake(t, initExpect, initAnswer, "eof")
		args := filepath.Join(f.dir, "args.txt")
		t.Setenv("CLAUDE_REPLAY_ARGS", args)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		hookErr := make(chan error, 1)
		s, err := v2.CreateSession(ctx, append(f.options(t), v2.WithHookTimeout(time.Minute),
			v2.WithHook(shared.HookEventSessionStart, "", shared.HookHandlerFunc(func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
				cancel()
				<-ctx.Done()
				hookErr <- ctx.Err()
				return nil, ctx.Err()
			})))...)
		if !errors.Is(err, context.Canceled) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("CreateSession = %v, want context.Canceled", err)
		}
		if err := <-hookErr; !errors.Is(err, context.Canceled) {
			t.Errorf("the SessionStart hook's ctx ended with %v", err)
		}
		if _, err := os.Stat(args); err == nil {
			t.Error("the CLI was started with a cancelled ctx")
		}
		noLeaks(t)
	})
	t.Run("during initialize", func(t *testing.T) {
		// The fake says on stderr when it has read initialize, and then ignores everything.
		f := newFake(t, "stderr pid $pid", "ignoreterm", initExpect, "stderr got initialize", "hang")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var pidLine string
		var mu sync.Mutex
		onStderr := func(l string) {
			mu.Lock()
			defer mu.Unlock()
			if strings.HasPrefix(l, "pid ") {
				pidLine = l
			}
			if l == "got initialize" {
				cancel()
			}
		}
		start := time.Now()
		s, err := v2.CreateSession(ctx, append(f.options(t), v2.WithStderr(onStderr))...)
		if err == nil {
			s.Close()
			t.Fatal("CreateSession succeeded")
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("CreateSession = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("CreateSession took %v", d)
		}
		mu.Lock()
		m := regexp.MustCompile(`^pid (\d+)$`).FindStringSubmatch(pidLine)
		mu.Unlock()
		if m == nil {
			t.Fatal("the fake's pid line is missing")
		}
		pid, _ := strconv.Atoi(m[1])
		if !proctest.WaitGone(pid, 5*time.Second) {
			t.Errorf("the CLI %d still runs after CreateSession failed", pid)
		}
		noLeaks(t)
	})
}

// TestEndAtEveryStage: Close, ctx cancel, or both at once, at each stage of a running session.
func TestEndAtEveryStage(t *testing.T) {
	hookLine := hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"})
	stages := []struct {
		name       string
		transcript []string
		// run drives the session to the stage; it returns what must end with ErrClosed.
		run func(t *testing.T, s *v2.Session, hookStarted <-chan struct{}) []<-chan error
	}{
		{"idle", []string{initExpect, initAnswer, "eof"}, nil},
		{"waiting for the result", []string{initExpect, initAnswer, userExpect, assistantLine, "eof"},
			func(t *testing.T, s *v2.Session, _ <-chan struct{}) []<-chan error {
				return []<-chan error{receiveInBackground(t, s)}
			}},
		{"hook in flight and an Interrupt waiting", []string{initExpect, initAnswer, userExpect, hookLine,
			`expect {"type":"control_request","request":{"subtype":"interrupt"}}`, "eof"},
			func(t *testing.T, s *v2.Session, hookStarted <-chan struct{}) []<-chan error {
				recv := receiveInBackground(t, s)
				<-hookStarted
				interrupt := make(chan error, 1)
				go func() { interrupt <- s.Interrupt(context.Background()) }()
				return []<-chan error{recv, interrupt}
			}},
		{"CLI ignores stdin EOF and SIGTERM", []string{"ignoreterm", initExpect, initAnswer, userExpect, hookLine, "hang"},
			func(t *testing.T, s *v2.Session, hookStarted <-chan struct{}) []<-chan error {
				recv := receiveInBackground(t, s)
				<-hookStarted
				return []<-chan error{recv}
			}},
		{"after the CLI exited", []string{initExpect, initAnswer, userExpect, resultLine, "exit 0"},
			func(t *testing.T, s *v2.Session, _ <-chan struct{}) []<-chan error {
				if _, _, err := receiveAll(t, s); err != nil {
					t.Fatalf("Receive: %v", err)
				}
				<-s.Done()
				return nil
			}},
	}
	for _, st := range stages {
		for _, how := range []string{byClose, byCancel, byBoth} {
			t.Run(st.name+"/"+how, func(t *testing.T) {
				f := newFake(t, st.transcript...)
				hookStarted, hookEnded := make(chan struct{}), make(chan error, 1)
				hook := func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
					close(hookStarted)
					<-ctx.Done()
					hookEnded <- ctx.Err()
					return shared.Allow(), nil
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				s, err := v2.CreateSession(ctx, append(f.options(t), v2.WithHookTimeout(time.Minute),
					v2.WithHook(shared.HookEventPreToolUse, "", shared.HookHandlerFunc(hook)))...)
				if err != nil {
					t.Fatal(err)
				}
				pid := s.Info().PID
				var pending []<-chan error
				if st.run != nil {
					if err := s.Send(ctx, "go"); err != nil {
						t.Fatal(err)
					}
					pending = st.run(t, s, hookStarted)
				}
				end(t, s, cancel, how)
				for i, ch := range pending {
					select {
					case err := <-ch:
						if !errors.Is(err, shared.ErrClosed) {
							t.Errorf("pending call %d ended with %v, want ErrClosed", i, err)
						}
					case <-time.After(10 * time.Second):
						t.Errorf("pending call %d did not end", i)
					}
				}
				select {
				case <-hookStarted:
					if err := <-hookEnded; !errors.Is(err, context.Canceled) {
						t.Errorf("the hook's ctx ended with %v, want context.Canceled", err)
					}
				default:
				}
				if a, ok := f.answers(t)["c1"]; ok {
					t.Errorf("the hook cancelled by the end was answered: %v", a)
				}
				if err := s.Send(context.Background(), "late"); !errors.Is(err, shared.ErrClosed) {
					t.Errorf("Send after the end = %v, want ErrClosed", err)
				}
				if !proctest.WaitGone(pid, 5*time.Second) {
					t.Errorf("the CLI %d still runs", pid)
				}
				noLeaks(t)
			})
		}
	}
}

// receiveInBackground iterates Receive on another goroutine and sends its fatal error.
func receiveInBackground(t *testing.T, s *v2.Session) <-chan error {
	ch := make(chan error, 1)
	go func() {
		for _, err := range s.Receive(context.Background()) {
			if err != nil && !isProtocolError(err) {
				ch <- err
				return
			}
		}
		ch <- errors.New("Receive ended without an error")
	}()
	return ch
}
