package v2_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_PermissionTimeoutDenies: a permission callback that never answers is denied at
// WithPermissionTimeout (issue 12 item 12): the command does not run, the model hears a denial, the
// turn goes on, and the callback's ctx ends with shared.ErrPermissionTimeout.
func TestRealCLI_PermissionTimeoutDenies(t *testing.T) {
	t.Parallel()
	env := touchEnv(t)
	cause := make(chan error, 1)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s := env.session(t, v2.WithPermissionTimeout(200*time.Millisecond),
		v2.WithCanUseTool(func(ctx context.Context, _ *shared.CanUseTool) (*shared.PermissionResult, error) {
			<-ctx.Done()
			cause <- context.Cause(ctx)
			<-release // ignores its ctx past the deadline: the SDK must answer anyway
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		}))
	res := run(t, s, "touch a")
	if err := <-cause; !errors.Is(err, shared.ErrPermissionTimeout) {
		t.Errorf("the callback's ctx ended with %v, want shared.ErrPermissionTimeout", err)
	}
	if env.exists("a.txt") {
		t.Error("the command ran although its permission prompt timed out")
	}
	reqs := env.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if tr, ok := reqs[1].LastToolResult(); !ok || !tr.IsError || !strings.Contains(tr.ContentText(), "did not answer within 200ms") {
		t.Errorf("the model got %+v, want a denial that says the callback timed out", tr)
	}
	if res.IsError {
		t.Errorf("the turn did not go on: %+v", res)
	}
}

// TestPermissionTimeoutValidated: a negative WithPermissionTimeout is refused by CreateSession.
func TestPermissionTimeoutValidated(t *testing.T) {
	_, err := v2.CreateSession(context.Background(), v2.WithCLIPath("/nonexistent"), v2.WithPermissionTimeout(-time.Second))
	if err == nil || !strings.Contains(err.Error(), "WithPermissionTimeout") {
		t.Errorf("CreateSession = %v, want the negative permission timeout refused", err)
	}
}
