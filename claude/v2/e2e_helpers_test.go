package v2_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// realEnv is one real-CLI run: a fake API, a scratch HOME and project dir. It is a claudetest.Env
// under the names the tests of this package use.
type realEnv struct {
	api     *claudetest.Model
	home    string
	project string
	opts    []v2.Option
	env     *claudetest.Env
}

// newRealEnv makes a project dir, starts a fake API scripted by script(project), and returns
// options that point the real CLI at it. It skips (or fails with CI=true) when the pinned CLI is
// missing.
func newRealEnv(t *testing.T, script func(project string) []claudetest.Reply) *realEnv {
	t.Helper()
	return newRealEnvWith(t, func(project string) *claudetest.Model { return claudetest.NewModel(script(project)...) })
}

// newRealEnvHandler is newRealEnv with a fake API that computes each reply with h(project, req),
// for conversations whose next answer depends on what the model was sent.
func newRealEnvHandler(t *testing.T, h func(project string, r claudetest.Request) claudetest.Reply) *realEnv {
	t.Helper()
	return newRealEnvWith(t, func(project string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply { return h(project, r) })
	})
}

func newRealEnvWith(t *testing.T, start func(project string) *claudetest.Model) *realEnv {
	t.Helper()
	env := claudetest.NewEnv(t, start)
	return &realEnv{api: env.Model, home: env.Home, project: env.Project, opts: env.Options(), env: env}
}

// session starts a session with the env's options plus opts, closed at cleanup.
// requestsContaining returns the indexes of the recorded model requests that contain s.
func (e *realEnv) requestsContaining(s string) []int {
	var out []int
	for _, r := range e.api.Requests() {
		if r.Contains(s) {
			out = append(out, r.Index)
		}
	}
	return out
}

func (e *realEnv) session(t *testing.T, opts ...v2.Option) *v2.Session {
	t.Helper()
	s, err := e.create(t, opts...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return s
}

// create is session without the fatal error.
func (e *realEnv) create(t *testing.T, opts ...v2.Option) (*v2.Session, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	s, err := v2.CreateSession(ctx, append(append([]v2.Option{}, e.opts...), opts...)...)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { s.Close() })
	return s, nil
}

// path returns name inside the project.
func (e *realEnv) path(name string) string { return filepath.Join(e.project, name) }

// exists reports whether name exists inside the project.
func (e *realEnv) exists(name string) bool {
	_, err := os.Stat(e.path(name))
	return err == nil
}

// testLogger logs through t, so that the SDK's logs show with a failing test only. Every goroutine
// that logs is waited for by Session.Close, which runs before the test ends.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func bash(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "test"} }

// run is s.Run that fails the test on an error other than a *v2.ResultError.
func run(t *testing.T, s *v2.Session, prompt string) *shared.ResultMessage {
	t.Helper()
	res, err := s.Run(testCtx(t), prompt)
	var re *v2.ResultError
	if err != nil && !errors.As(err, &re) {
		t.Fatalf("Run(%q): %v", prompt, err)
	}
	return res
}

// query sends prompt and collects the turn's messages up to and including its result.
func query(t *testing.T, s *v2.Session, prompt string) ([]shared.Message, *shared.ResultMessage) {
	t.Helper()
	var msgs []shared.Message
	for m, err := range s.Query(testCtx(t), prompt) {
		if err != nil {
			t.Fatalf("Query(%q): %v", prompt, err)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		t.Fatalf("Query(%q): no messages", prompt)
	}
	r, ok := msgs[len(msgs)-1].(*shared.ResultMessage)
	if !ok {
		t.Fatalf("Query(%q): last message is %T, not a result", prompt, msgs[len(msgs)-1])
	}
	return msgs, r
}

// denials decodes a result's permission_denials.
func denials(t *testing.T, r *shared.ResultMessage) []permissionDenial {
	t.Helper()
	var d []permissionDenial
	if len(r.PermissionDenials) > 0 {
		if err := json.Unmarshal(r.PermissionDenials, &d); err != nil {
			t.Fatalf("permission_denials %s: %v", r.PermissionDenials, err)
		}
	}
	return d
}

type permissionDenial struct {
	ToolName  string         `json:"tool_name"`
	ToolUseID string         `json:"tool_use_id"`
	ToolInput map[string]any `json:"tool_input"`
}

// records keeps values in arrival order; the callbacks that add them run on other goroutines.
type records[T any] struct {
	mu    sync.Mutex
	items []T
}

func (r *records[T]) add(v T) {
	r.mu.Lock()
	r.items = append(r.items, v)
	r.mu.Unlock()
}

func (r *records[T]) all() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]T(nil), r.items...)
}

func (r *records[T]) len() int { return len(r.all()) }

// recorder keeps hook inputs in arrival order.
type recorder[T shared.HookInput] struct{ records[T] }

// handler returns a HookHandler that records its input and answers with answer (nil: no opinion).
func (r *recorder[T]) handler(answer func(T) shared.HookOutput) shared.HookHandler {
	return shared.HandlerFor(func(_ context.Context, in T) (shared.HookOutput, error) {
		r.add(in)
		if answer == nil {
			return nil, nil
		}
		return answer(in), nil
	})
}

// toolResults returns the tool_result blocks of the stream's user messages, by tool_use id.
func toolResults(msgs []shared.Message) map[string]shared.ContentBlock {
	out := map[string]shared.ContentBlock{}
	for _, m := range msgs {
		if u, ok := m.(*shared.UserMessage); ok {
			for _, b := range u.Blocks {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = b
				}
			}
		}
	}
	return out
}

// systemInit returns the session ids of the turn's system/init messages.
func systemInits(msgs []shared.Message) []string {
	var ids []string
	for _, m := range msgs {
		if s, ok := m.(*shared.SystemMessage); ok && s.Subtype == "init" {
			ids = append(ids, s.SessionID)
		}
	}
	return ids
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
