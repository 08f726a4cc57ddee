package replay

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Handlers that misbehave or call back into their session. A panic, a hang past the timeout and a
// nonsense output are denied (testdata/script panic_denies, hang_times_out, nonsense_denies); the
// tests here call session methods from inside hooks and permission callbacks, and close the
// session under a callback that ignores its ctx.

// controlAnswer answers the SDK's control request captured as $name.
func controlAnswer(name string) string {
	return `send {"type":"control_response","response":{"subtype":"success","request_id":"$` + name + `","response":{}}}`
}

// TestReentrantSessionCalls: a PreToolUse hook and a can_use_tool callback call their own session
// (SetPermissionMode, Interrupt, SetModel, Receive) while the CLI waits for their answer. The
// calls are answered (the stdout reader is not blocked by the callback that waits), a second
// Receive is refused with ErrBusy, and both callbacks' answers reach the CLI.
func TestReentrantSessionCalls(t *testing.T) {
	t.Parallel()
	f := newFake(t,
		initExpect, initAnswer, userExpect,
		hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"}),
		`expect {"type":"control_request","request_id":"$capture:m1","request":{"subtype":"set_permission_mode","mode":"plan"}}`,
		controlAnswer("m1"),
		`expect {"type":"control_request","request_id":"$capture:m2","request":{"subtype":"interrupt"}}`,
		controlAnswer("m2"),
		`expect {"type":"control_response","response":{"request_id":"c1","response":{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"checked"}}}}`,
		canUseToolLine("p1", "Write", map[string]any{"file_path": "/proj/a", "content": "x"}),
		`expect {"type":"control_request","request_id":"$capture:m3","request":{"subtype":"set_model","model":"haiku"}}`,
		controlAnswer("m3"),
		`expect {"type":"control_response","response":{"request_id":"p1","response":{"behavior":"allow"}}}`,
		resultLine,
	)
	sess := make(chan *v2.Session, 1)
	var s *v2.Session
	get := func() *v2.Session {
		if s == nil {
			s = <-sess
		}
		return s
	}
	hookErrs := make(chan error, 3)
	hook := func(ctx context.Context, _ *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		s := get()
		hookErrs <- s.SetPermissionMode(ctx, "plan") // acceptEdits would switch the can_use_tool guard off: refused
		hookErrs <- s.Interrupt(ctx)
		for _, err := range s.Receive(ctx) {
			hookErrs <- err
			break
		}
		return shared.Deny("checked"), nil
	}
	permErr := make(chan error, 1)
	perm := func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
		permErr <- get().SetModel(ctx, "haiku")
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}
	s0 := f.start(t, v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.OnPreToolUse(hook)), v2.WithCanUseTool(perm))
	sess <- s0
	if err := s0.Send(testCtx(t), "go"); err != nil {
		t.Fatal(err)
	}
	msgs, _, err := receiveAll(t, s0)
	if err != nil {
		t.Fatalf("Receive: %v (the fake's expectations failed: a re-entrant call deadlocked or was lost)", err)
	}
	if _, ok := msgs[len(msgs)-1].(*shared.ResultMessage); !ok {
		t.Fatalf("no result")
	}
	for i, want := range []error{nil, nil, v2.ErrBusy} {
		if err := <-hookErrs; !errors.Is(err, want) && err != want {
			t.Errorf("re-entrant call %d from the hook = %v, want %v", i, err, want)
		}
	}
	if err := <-permErr; err != nil {
		t.Errorf("SetModel from can_use_tool = %v", err)
	}
	if err := s0.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}

// TestCloseFromInsideACallback: a hook, and a permission callback, close their own session. Close
// returns (it does not wait for the callback that called it), the session ends with ErrClosed, the
// callback's answer is not sent, and nothing is left.
func TestCloseFromInsideACallback(t *testing.T) {
	for _, kind := range []string{"hook", "can_use_tool"} {
		t.Run(kind, func(t *testing.T) {
			request := hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"})
			if kind == "can_use_tool" {
				request = canUseToolLine("c1", "Bash", map[string]any{"command": "ls"})
			}
			f := newFake(t, initExpect, initAnswer, userExpect, request, "eof")
			sess := make(chan *v2.Session, 1)
			closeErr := make(chan error, 1)
			closeFromInside := func() {
				s := <-sess
				done := make(chan error, 1)
				go func() { done <- s.Close() }()
				select {
				case err := <-done:
					closeErr <- err
				case <-time.After(10 * time.Second):
					closeErr <- errors.New("Close called from a callback did not return: deadlock")
				}
			}
			opts := []v2.Option{
				v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
					closeFromInside()
					return shared.Allow(), nil
				})),
				v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
					closeFromInside()
					return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
				}),
			}
			s := f.start(t, opts...)
			sess <- s
			pid := s.Info().PID
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			if err := <-closeErr; err != nil {
				t.Fatalf("Close from inside the %s: %v", kind, err)
			}
			if _, _, err := receiveAll(t, s); !errors.Is(err, shared.ErrClosed) {
				t.Errorf("Receive ended with %v, want ErrClosed", err)
			}
			if err := s.Close(); err != nil {
				t.Errorf("Close again = %v", err)
			}
			if !proctest.WaitGone(pid, 5*time.Second) {
				t.Errorf("the CLI %d still runs", pid)
			}
			if a, ok := f.answers(t)["c1"]; ok {
				t.Errorf("the callback that closed its session was answered: %v", a)
			}
			noLeaks(t)
		})
	}
}

// TestCloseUnderACallbackThatIgnoresCtx: a hook and a permission callback that ignore their ctx
// and never return (until the test ends) do not hold up Close.
func TestCloseUnderACallbackThatIgnoresCtx(t *testing.T) {
	for _, kind := range []string{"hook", "can_use_tool"} {
		t.Run(kind, func(t *testing.T) {
			request := hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"})
			if kind == "can_use_tool" {
				request = canUseToolLine("c1", "Bash", map[string]any{"command": "ls"})
			}
			f := newFake(t, initExpect, initAnswer, userExpect, request, "eof")
			started, release := make(chan struct{}), make(chan struct{})
			stuck := func() {
				close(started)
				<-release // ignores ctx
			}
			s := f.start(t,
				v2.WithHookTimeout(time.Minute),
				v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
					stuck()
					return shared.Allow(), nil
				})),
				v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
					stuck()
					return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
				}),
			)
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			<-started
			done := make(chan error, 1)
			go func() { done <- s.Close() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Close = %v", err)
				}
			case <-time.After(10 * time.Second):
				close(release)
				<-done
				t.Fatalf("Close waited for a %s that ignores its ctx", kind)
			}
			close(release)
			if a, ok := f.answers(t)["c1"]; ok {
				t.Errorf("the stuck callback was answered after Close: %v", a)
			}
			noLeaks(t)
		})
	}
}
