package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/cli"
	"github.com/hookwire/agent-sdk-go/internal/fakeapi"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// realEnv is one real-CLI run: a fake API, a scratch HOME and project dir.
type realEnv struct {
	api     *fakeapi.Server
	project string
	opts    []v2.Option
}

// newRealEnv makes a project dir, starts a fake API scripted by script(project), and returns
// options that point the real CLI at it. It skips (or fails with CI=true) when the pinned CLI is
// missing.
func newRealEnv(t *testing.T, script func(project string) []fakeapi.Reply) *realEnv {
	t.Helper()
	bin := cli.Require(t)
	home := t.TempDir()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := filepath.EvalSymlinks(project); err == nil {
		project = p
	}
	api := fakeapi.New(script(project)...)
	t.Cleanup(api.Close)
	return &realEnv{
		api:     api,
		project: project,
		opts: []v2.Option{
			v2.WithCLIPath(bin),
			v2.WithCwd(project),
			v2.WithBaseEnv(cli.Env(home, api.URL())),
		},
	}
}

// session starts a session with the env's options plus opts, closed at cleanup.
func (e *realEnv) session(t *testing.T, opts ...v2.Option) *v2.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	s, err := v2.CreateSession(ctx, append(append([]v2.Option{}, e.opts...), opts...)...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}
