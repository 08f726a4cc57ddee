package sessions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// realEnv is a real CLI run offline (a claudetest.Env): a fake API, a scratch HOME (so the config
// directory is HOME/.claude) and a project directory.
type realEnv struct {
	api     *claudetest.Model
	home    string
	project string
	opts    []v2.Option
}

func newRealEnv(t *testing.T, h func(project string, r claudetest.Request) claudetest.Reply) *realEnv {
	t.Helper()
	return newRealEnvAt(t, "my.project", h)
}

// newRealEnvAt is newRealEnv with the project directory at name (a relative path) inside the
// env's scratch directory.
func newRealEnvAt(t *testing.T, name string, h func(project string, r claudetest.Request) claudetest.Reply) *realEnv {
	t.Helper()
	env := claudetest.NewEnv(t, func(dir string) *claudetest.Model {
		project := filepath.Join(dir, name)
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply { return h(project, r) })
	})
	project := env.Path(name)
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	return &realEnv{api: env.Model, home: env.Home, project: project, opts: env.Options(v2.WithCwd(project))}
}

// scripted answers the model requests in order with replies; past them, with "end".
func scripted(replies ...func(project string) claudetest.Reply) func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		if r.Index < len(replies) {
			return replies[r.Index](p)
		}
		return claudetest.TextReply("end")
	}
}

func text(s string) func(string) claudetest.Reply {
	return func(string) claudetest.Reply { return claudetest.TextReply(s) }
}

func (e *realEnv) dir() sessions.Dir { return sessions.Dir(filepath.Join(e.home, ".claude")) }

func (e *realEnv) session(t *testing.T, opts ...v2.Option) *v2.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel) // the session's ctx bounds the whole session
	opts = append([]v2.Option{v2.WithStderr(func(l string) { t.Log("stderr:", l) })}, opts...)
	s, err := v2.CreateSession(ctx, append(append([]v2.Option{}, e.opts...), opts...)...)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// query runs one prompt and returns the turn's messages.
func query(t *testing.T, s *v2.Session, prompt string) []shared.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var msgs []shared.Message
	for m, err := range s.Query(ctx, prompt) {
		if err != nil {
			t.Fatalf("Query(%q): %v", prompt, err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// readAll collects a transcript's messages, failing on any error.
func readAll(t *testing.T, seq func(func(shared.Message, error) bool)) []shared.Message {
	t.Helper()
	var out []shared.Message
	for m, err := range seq {
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		out = append(out, m)
	}
	return out
}

// conversation keeps the user and assistant messages that belong to the main conversation
// (parentToolUseID nil) or, with sub, to subagents.
func conversation(msgs []shared.Message, sub bool) []shared.Message {
	var out []shared.Message
	for _, m := range msgs {
		switch m := m.(type) {
		case *shared.AssistantMessage:
			if (m.ParentToolUseID != nil) == sub {
				out = append(out, m)
			}
		case *shared.UserMessage:
			if (m.ParentToolUseID != nil) == sub {
				out = append(out, m)
			}
		}
	}
	return out
}

// transcriptOpts compares a message read back with the live one: Raw is the line of each, and
// the live stream carries the assistant's stop_reason and usage before they are final.
var transcriptOpts = cmp.Options{
	cmpopts.IgnoreFields(shared.AssistantMessage{}, "Raw", "Message.StopReason", "Message.Usage", "ParentToolUseID"),
	cmpopts.IgnoreFields(shared.UserMessage{}, "Raw", "ParentToolUseID"),
	cmpopts.EquateEmpty(),
}

// A session made by the SDK is listed with its metadata, and its messages (a subagent's too) read
// back as the live stream yielded them.
func TestRealCLI_ListAndRead(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, scripted(
		func(p string) claudetest.Reply {
			return claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hi > " + p + "/a.txt", "description": "write"})
		},
		func(string) claudetest.Reply {
			return claudetest.ToolReply("toolu_02", "Task", map[string]any{"description": "sub", "prompt": "SUBAGENT-PROMPT", "subagent_type": "general-purpose", "run_in_background": false})
		},
		text("SUBAGENT-ANSWER"),
		text("first done"),
		text("second done"),
	))
	s := env.session(t, v2.WithAllowedTools("Bash", "Task"), v2.WithModel("claude-sonnet-4-5"))
	id := s.SessionID()
	live := query(t, s, "FIRST-PROMPT")
	live = append(live, query(t, s, "SECOND-PROMPT")...)
	s.Close()

	// A second, newer session in the same project, listed first.
	s2 := env.session(t)
	query(t, s2, "OTHER-PROMPT")
	s2.Close()

	list, err := env.dir().List(context.Background(), env.project)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != s2.SessionID() || list[0].Title != "OTHER-PROMPT" {
		t.Fatalf("List = %+v, want the sessions %s then %s", list, s2.SessionID(), id)
	}
	got := list[1]
	fi, err := os.Stat(got.Path)
	if err != nil {
		t.Fatal(err)
	}
	want := sessions.Info{
		ID: id, Path: filepath.Join(env.dir().ProjectDir(env.project), id+".jsonl"),
		Title: "SECOND-PROMPT", FirstPrompt: "FIRST-PROMPT", LastPrompt: "SECOND-PROMPT",
		Model: "claude-sonnet-4-5", Cwd: env.project, Size: fi.Size(), LastActivity: fi.ModTime(),
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(sessions.Info{}, "Started", "GitBranch")); diff != "" {
		t.Errorf("List()[0] (-want +got):\n%s", diff)
	}
	if got.Started.IsZero() || got.Started.After(got.LastActivity) {
		t.Errorf("Started %v, LastActivity %v", got.Started, got.LastActivity)
	}
	if st, err := env.dir().Stat(env.project, id); err != nil || !cmp.Equal(st, got) {
		t.Errorf("Stat = %+v, %v; want %+v", st, err, got)
	}

	read := readAll(t, env.dir().Messages(env.project, id))
	// The transcript also has the prompts, which the live stream does not echo.
	var prompts []string
	var readConv []shared.Message
	for _, m := range read {
		if u, ok := m.(*shared.UserMessage); ok && len(u.Blocks) == 0 {
			var p string
			if err := jsonUnmarshal(u.Message.Content, &p); err == nil {
				prompts = append(prompts, p)
				continue
			}
		}
		readConv = append(readConv, m)
	}
	if diff := cmp.Diff([]string{"FIRST-PROMPT", "SECOND-PROMPT"}, prompts); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(conversation(live, false), conversation(readConv, false), transcriptOpts); diff != "" {
		t.Errorf("Messages vs the live stream (-live +read):\n%s", diff)
	}

	agents, err := env.dir().Subagents(env.project, id)
	if err != nil || len(agents) != 1 {
		t.Fatalf("Subagents = %q, %v; want one", agents, err)
	}
	// The live stream shows a subagent's prompt, not its answer; its transcript has both, and
	// both carry the Task's tool_use id as on the live stream.
	sub := readAll(t, env.dir().SubagentMessages(env.project, id, agents[0]))
	var subGot []string
	parent := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	for _, m := range sub {
		switch m := m.(type) {
		case *shared.UserMessage:
			subGot = append(subGot, "user: "+userText(m)+" parent "+parent(m.ParentToolUseID))
		case *shared.AssistantMessage:
			subGot = append(subGot, "assistant: "+m.Text()+" parent "+parent(m.ParentToolUseID))
		}
	}
	if diff := cmp.Diff([]string{"user: SUBAGENT-PROMPT parent toolu_02", "assistant: SUBAGENT-ANSWER parent toolu_02"}, subGot); diff != "" {
		t.Errorf("SubagentMessages (-want +got):\n%s", diff)
	}
	for _, m := range conversation(live, true) {
		if u, ok := m.(*shared.UserMessage); !ok || userText(u) != "SUBAGENT-PROMPT" || parent(u.ParentToolUseID) != "toolu_02" {
			t.Errorf("live subagent message %+v", m)
		}
	}

	if _, err := env.dir().Stat(env.project, "00000000-0000-4000-8000-000000000000"); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("Stat of a missing session: %v, want ErrNotFound", err)
	}
}

// userText returns a user message's string content or its text blocks, joined.
func userText(m *shared.UserMessage) string {
	var s string
	if jsonUnmarshal(m.Message.Content, &s) == nil {
		return s
	}
	for _, b := range m.Blocks {
		s += b.Text
	}
	return s
}

// The CLI stores a session where ProjectDir says, for long and non-ASCII working directories too.
func TestRealCLI_ProjectKey(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ünï.çødé 🙂", strings.Repeat("abcdefghij", 12) + "/" + strings.Repeat("klmnopqrst", 12)} {
		env := newRealEnvAt(t, name, scripted(text("ok")))
		s := env.session(t)
		query(t, s, "HELLO")
		s.Close()
		entries, err := os.ReadDir(filepath.Join(env.home, ".claude", "projects"))
		if err != nil || len(entries) != 1 {
			t.Fatalf("projects: %v, %v", entries, err)
		}
		if got, want := entries[0].Name(), sessions.ProjectKey(env.project); got != want {
			t.Errorf("the CLI stored %q in %q, ProjectKey gives %q", env.project, got, want)
		}
		if l, err := env.dir().List(context.Background(), env.project); err != nil || len(l) != 1 || l[0].ID != s.SessionID() {
			t.Errorf("List(%q) = %+v, %v", env.project, l, err)
		}
	}
}
