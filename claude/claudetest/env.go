package claudetest

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// apiKey is the dummy API key the CLI is given: the Model accepts any.
const apiKey = "sk-ant-test"

// CLIEnv returns the environment for a CLI that talks to the Messages API at baseURL (a Model's
// URL) with home as HOME: the current environment minus what could leak from the host or a
// parent agent (HOME, CLAUDECODE, CLAUDE_CONFIG_DIR, ANTHROPIC_*, CLAUDE_CODE_*), plus HOME=home,
// ANTHROPIC_BASE_URL=baseURL, a dummy ANTHROPIC_API_KEY and
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1. Pass it to v2.WithBaseEnv. The CLI keeps its
// settings, sessions and credentials under home/.claude, so a scratch home keeps the user's own
// settings and hooks out of a test.
func CLIEnv(home, baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !leaks(kv) {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOME="+home,
		"ANTHROPIC_BASE_URL="+baseURL,
		"ANTHROPIC_API_KEY="+apiKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// leaks reports whether a KEY=VALUE entry must not reach the CLI.
func leaks(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	switch {
	case k == "CLAUDECODE", k == "CLAUDE_CONFIG_DIR", k == "HOME":
		return true
	case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE_CODE_"):
		return true
	}
	return false
}

// Env is one test's offline Claude Code: a scripted Model, the real CLI, a scratch HOME and a
// project directory. Sessions started from it run the real CLI, which runs real tools in Project
// and fires the session's real hooks, with the Model as the model. Make one with NewEnv (or with
// NewEnvWithCLI, e.g. on the simulator); it is torn down when the test ends. Its methods are safe for concurrent use.
type Env struct {
	// Model is the fake Messages API the CLI talks to: its Requests are what the model was sent.
	Model *Model
	// Home is the CLI's scratch HOME: its settings and session files go to Home/.claude.
	Home string
	// Project is the project directory, the sessions' working directory: created empty,
	// absolute, with symlinks resolved (as the CLI reports its working directory).
	Project string

	t     testing.TB
	opts  []v2.Option
	trace trace
}

// NewEnv makes an Env for t: it finds the CLI with RequireCLI (so a missing CLI skips t, or fails
// it when CI=true), makes a scratch HOME and an empty project directory under t.TempDir, and calls
// model with the project directory to get the Model, which is closed when t ends. A script that
// needs no paths ignores the argument:
//
//	env := claudetest.NewEnv(t, func(string) *claudetest.Model {
//		return claudetest.NewModel(claudetest.ToolReply("t1", "Bash", map[string]any{"command": "ls"}))
//	})
func NewEnv(t testing.TB, model func(project string) *Model) *Env {
	t.Helper()
	return NewEnvWithCLI(t, RequireCLI(t), model)
}

// NewEnvWithCLI is NewEnv with the CLI at cliPath instead of RequireCLI's: it never skips. Its use
// is the simulator, for tests that must run without Node:
//
//	env := claudetest.NewEnvWithCLI(t, claudesim.Path(t), model)
//
// The env's trace, helpers and options are the same; what the simulator does not do (see package
// claudesim) is missing from it.
func NewEnvWithCLI(t testing.TB, cliPath string, model func(project string) *Model) *Env {
	t.Helper()
	bin := cliPath
	home := t.TempDir()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	if p, err := filepath.EvalSymlinks(project); err == nil {
		project = p
	}
	m := model(project)
	if m == nil {
		t.Fatal("claudetest: NewEnv: the model function returned nil")
	}
	t.Cleanup(m.Close)
	e := &Env{Model: m, Home: home, Project: project, t: t}
	e.opts = []v2.Option{
		v2.WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		v2.WithCLIPath(bin),
		v2.WithCwd(project),
		v2.WithBaseEnv(CLIEnv(home, m.URL())...),
		v2.WithObserver(&e.trace),
	}
	return e
}

// Options returns the options that point a session at the env, as v2.WithDefaults, followed by
// more (which may replace them): the CLI (v2.WithCLIPath), the project directory (v2.WithCwd),
// CLIEnv for Home and the Model (v2.WithBaseEnv), a logger that writes the SDK's logs with t.Log (shown for a failing
// test or with -v), and the observer that records ToolCalls and Hooks.
func (e *Env) Options(more ...v2.Option) []v2.Option {
	return append([]v2.Option{v2.WithDefaults(e.opts...)}, more...)
}

// Session starts a session with e.Options(opts...), failing the test if it cannot start, and
// closes it when the test ends. Closing it earlier is fine (Close is idempotent).
func (e *Env) Session(opts ...v2.Option) *v2.Session {
	e.t.Helper()
	s, err := e.start(opts)
	if err != nil {
		e.t.Fatalf("claudetest: CreateSession: %v", err)
	}
	return s
}

// start creates a session bounded by a 5-minute context, closed at cleanup.
func (e *Env) start(opts []v2.Option) (*v2.Session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	e.t.Cleanup(cancel)
	s, err := v2.CreateSession(ctx, e.Options(opts...)...)
	if err != nil {
		return nil, err
	}
	e.t.Cleanup(func() { s.Close() })
	return s, nil
}

// Run is the one-prompt test: it starts a session with e.Options(opts...), runs prompt to its
// result (v2.Session.Run) and closes the session, so that ToolCalls and Hooks are complete when it
// returns. A turn that ended in error comes as a *v2.ResultError with the result; the test fails
// on any other error (the session did not start, the CLI died, the 5-minute bound passed).
func (e *Env) Run(prompt string, opts ...v2.Option) (*shared.ResultMessage, error) {
	e.t.Helper()
	s := e.Session(opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := s.Run(ctx, prompt)
	if cerr := s.Close(); cerr != nil && err == nil {
		err = cerr
	}
	var re *v2.ResultError
	if err != nil && !errors.As(err, &re) {
		e.t.Fatalf("claudetest: Run(%q): %v", prompt, err)
	}
	return res, err
}

// Path returns name (slash-separated) inside the project directory.
func (e *Env) Path(name string) string { return filepath.Join(e.Project, filepath.FromSlash(name)) }

// testWriter writes each log record with t.Log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}
