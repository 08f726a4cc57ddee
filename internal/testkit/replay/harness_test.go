package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"
)

// The Go tests of this package drive v2 sessions against the fake CLI ("claude" on PATH, put there
// by testscript.Main in TestMain), each with its own transcript in a temp dir named in the
// environment, so that tests never share state with their fakes and may run in parallel.

// fakeRun is one fake CLI's files: its transcript, and the log of every line the SDK wrote.
type fakeRun struct {
	dir  string
	logs *logBuffer
}

// newFake writes transcript for a fake CLI. Lines are joined with newlines.
func newFake(t testing.TB, transcript ...string) *fakeRun {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "transcript.txt"), []byte(strings.Join(transcript, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fakeRun{dir: dir, logs: &logBuffer{}}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("SDK log:\n%s", f.logs.String())
			if b, err := os.ReadFile(f.stdinPath()); err == nil {
				t.Logf("the SDK wrote:\n%s", b)
			}
		}
	})
	return f
}

func (f *fakeRun) stdinPath() string { return filepath.Join(f.dir, "stdin.jsonl") }

// options points a session at the fake: its CLI path, transcript and log, a logger that captures
// everything at debug level, and a short close grace.
func (f *fakeRun) options(t testing.TB) []v2.Option {
	t.Helper()
	cli, err := exec.LookPath("claude")
	if err != nil {
		t.Fatalf("the fake CLI is not on PATH: %v", err)
	}
	return []v2.Option{
		v2.WithCLIPath(cli),
		v2.WithCwd(f.dir),
		v2.WithEnv(TranscriptEnv+"="+filepath.Join(f.dir, "transcript.txt"), LogEnv+"="+f.stdinPath(),
			// A race-enabled fake would otherwise sleep 1 s at exit.
			"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")),
		v2.WithLogger(slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		v2.WithCloseGrace(200 * time.Millisecond),
		v2.WithSessionID("11111111-2222-4333-8444-555555555555"),
	}
}

// start creates a session on the fake, closed when the test ends.
func (f *fakeRun) start(t testing.TB, opts ...v2.Option) *v2.Session {
	t.Helper()
	s, err := v2.CreateSession(testCtx(t), append(f.options(t), opts...)...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// written returns the lines the SDK wrote to the fake's stdin, decoded. Read it once the fake is
// gone (after Close) to see them all.
func (f *fakeRun) written(t testing.TB) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(f.stdinPath())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("the SDK wrote a line that is not a JSON object: %q", l)
		}
		out = append(out, v)
	}
	return out
}

// answers returns the control_response answers the SDK wrote, by request id (the response object,
// or for an error answer {"error": ...}); an id answered twice fails the test.
func (f *fakeRun) answers(t testing.TB) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, l := range f.written(t) {
		if l["type"] != "control_response" {
			continue
		}
		r, _ := l["response"].(map[string]any)
		id, _ := r["request_id"].(string)
		if _, dup := out[id]; dup {
			t.Errorf("request %s answered twice", id)
		}
		if r["subtype"] == "error" {
			out[id] = map[string]any{"error": r["error"]}
			continue
		}
		a, _ := r["response"].(map[string]any)
		if a == nil {
			a = map[string]any{}
		}
		out[id] = a
	}
	return out
}

// logBuffer is a slog destination safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Transcript lines shared by the tests.
const (
	initExpect = `expect {"type":"control_request","request_id":"$capture:init","request":{"subtype":"initialize"}}`
	initAnswer = `send {"type":"control_response","response":{"subtype":"success","request_id":"$init","response":{"pid":$pid,"hooks_applied":true,"hook_on_failure_supported":true}}}`
	userExpect = `expect {"type":"user"}`
	resultLine = `send {"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s1"}`
)

// hookCallback is a hook_callback line for a PreToolUse of tool with input.
func hookCallback(id, event, tool string, input map[string]any) string {
	in := map[string]any{"session_id": "s1", "cwd": "/proj", "hook_event_name": event, "tool_name": tool, "tool_input": input, "tool_use_id": "tu_" + id}
	return "send " + mustJSON(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "hook_callback", "callback_id": "hook_" + event, "tool_use_id": "tu_" + id, "input": in}})
}

func canUseToolLine(id, tool string, input map[string]any) string {
	return "send " + mustJSON(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{
		"subtype": "can_use_tool", "tool_name": tool, "input": input, "tool_use_id": "tu_" + id}})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// receiveAll reads the session's messages up to its result or a fatal error.
func receiveAll(t testing.TB, s *v2.Session) ([]shared.Message, []error, error) {
	t.Helper()
	var msgs []shared.Message
	var nonFatal []error
	for m, err := range s.Receive(testCtx(t)) {
		if err != nil {
			if isProtocolError(err) {
				nonFatal = append(nonFatal, err)
				continue
			}
			return msgs, nonFatal, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nonFatal, nil
}

func isProtocolError(err error) bool {
	var pe *shared.ProtocolError
	return errors.As(err, &pe)
}

// noLeaks fails t if any SDK goroutine is left. Only tests that do not run in parallel may use it.
func noLeaks(t testing.TB) {
	t.Helper()
	if left := waitNoSDKGoroutines(5 * time.Second); left != "" {
		t.Errorf("SDK goroutines left after Close:\n%s", left)
	}
}

// childPID returns the pid of a replay_child message (the fake's spawn), or 0.
func childPID(m shared.Message) int {
	r, ok := m.(*shared.RawMessage)
	if !ok || r.MessageType != "replay_child" {
		return 0
	}
	var c struct{ PID int }
	_ = json.Unmarshal(r.Raw, &c)
	return c.PID
}

// waitNoSDKGoroutines waits, boundedly, until no goroutine runs the SDK's code; it returns the
// stacks of those left, or "".
func waitNoSDKGoroutines(limit time.Duration) string {
	return proctest.WaitNoGoroutines(limit, "agent-sdk-go/claude/")
}
