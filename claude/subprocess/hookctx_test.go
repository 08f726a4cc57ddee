package subprocess

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The handler's ctx (hookCtx) behaves like a context.WithTimeout: a deadline, DeadlineExceeded
// and its Cause at the timeout, a parent's cancel (and cause) reaching it and contexts derived
// from it, and Done after the handler returned.
func TestHookCtxSemantics(t *testing.T) {
	if cancelCtxKey == nil {
		t.Fatal("the probe did not find context.Cause's key")
	}
	t.Run("timeout", func(t *testing.T) {
		got := make(chan [3]error, 1)
		var kept context.Context
		h := func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			kept = ctx
			if d, ok := ctx.Deadline(); !ok || time.Until(d) > time.Second {
				t.Errorf("Deadline = %v, %v", d, ok)
			}
			child, cancel := context.WithCancel(ctx)
			defer cancel()
			<-child.Done()
			got <- [3]error{ctx.Err(), context.Cause(ctx), child.Err()}
			return shared.Allow(), nil
		}
		x, err := NewHookExecutor(shared.Hooks{shared.HookEventPreToolUse: {{Handler: h, Timeout: 50 * time.Millisecond}}}, ExecutorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res := x.Run(context.Background(), benchInput(), "r")
		if !errors.Is(res.Err, ErrHookTimeout) {
			t.Fatalf("Run = %+v", res)
		}
		e := <-got
		if e[0] != context.DeadlineExceeded || e[1] != context.DeadlineExceeded || e[2] == nil {
			t.Fatalf("Err, Cause, child Err = %v", e)
		}
		if kept.Err() == nil {
			t.Fatal("ctx not done after the handler returned")
		}
	})
	t.Run("parent cancel", func(t *testing.T) {
		cause := errors.New("the CLI cancelled")
		parent, cancel := context.WithCancelCause(context.Background())
		got := make(chan [3]error, 1)
		h := func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			child, stop := context.WithCancel(ctx)
			defer stop()
			cancel(cause)
			<-ctx.Done()
			<-child.Done()
			got <- [3]error{ctx.Err(), context.Cause(ctx), context.Cause(child)}
			return shared.Allow(), nil
		}
		x, err := NewHookExecutor(shared.Hooks{shared.HookEventPreToolUse: {{Handler: h}}}, ExecutorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res := x.Run(parent, benchInput(), "r")
		if !res.Cancelled {
			t.Fatalf("Run = %+v", res)
		}
		e := <-got
		if e[0] != context.Canceled || e[1] != cause || e[2] != cause {
			t.Fatalf("Err, Cause, child Cause = %v", e)
		}
	})
	t.Run("returned", func(t *testing.T) {
		var kept context.Context
		h := func(ctx context.Context, _ shared.HookInput) (shared.HookOutput, error) {
			kept = ctx
			if ctx.Err() != nil || context.Cause(ctx) != nil || !x0InChain(ctx) {
				t.Errorf("ctx ended early: %v", ctx.Err())
			}
			return shared.Allow(), nil
		}
		x, err := NewHookExecutor(shared.Hooks{shared.HookEventPreToolUse: {{Handler: h}, {Handler: h}}}, ExecutorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		inChain = x
		res := x.Run(context.Background(), benchInput(), "r")
		if res.Err != nil || res.Ran != 2 {
			t.Fatalf("Run = %+v", res)
		}
		select {
		case <-kept.Done():
		default:
			t.Fatal("ctx not done after the handler returned")
		}
		if kept.Err() != context.Canceled {
			t.Fatalf("Err = %v", kept.Err())
		}
	})
}

var inChain *HookExecutor

func x0InChain(ctx context.Context) bool { return inChain != nil && inChain.InChain(ctx) }
