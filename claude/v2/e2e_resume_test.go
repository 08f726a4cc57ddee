package v2_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// conversationTexts returns a model request's conversation as "role: text" lines, leaving out the
// system reminders the CLI adds to user messages and its system-role messages.
func conversationTexts(r claudetest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			continue // the CLI's environment block, sent as a system message
		}
		var parts []string
		for _, b := range m.Content {
			switch {
			case b.Type == "text" && !strings.HasPrefix(b.Text, "<system-reminder>"):
				parts = append(parts, b.Text)
			case b.Type == "tool_use":
				parts = append(parts, "tool_use "+b.ID)
			case b.Type == "tool_result":
				parts = append(parts, "tool_result "+b.ToolUseID)
			}
		}
		if len(parts) > 0 {
			out = append(out, m.Role+": "+strings.Join(parts, " "))
		}
	}
	return out
}

// assistantUUID returns the UUID of the live assistant message whose text is text.
func assistantUUID(t *testing.T, msgs []shared.Message, text string) string {
	t.Helper()
	for _, m := range msgs {
		if a, ok := m.(*shared.AssistantMessage); ok && a.Text() == text {
			return a.UUID
		}
	}
	t.Fatalf("no assistant message %q", text)
	return ""
}

// WithResumeAt: the model request of the resumed turn carries exactly the history up to the
// message given, with or without a fork; the stored session, renamed, tagged and forked by the
// sessions package, resumes as the CLI's own would.
func TestRealCLI_ResumeAt(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "A1", "A2", "A3", "A4", "A5", "A6")
	dir := sessions.Dir(filepath.Join(env.home, ".claude"))

	s1 := env.session(t)
	id := s1.SessionID()
	live, _ := query(t, s1, "P1")
	query(t, s1, "P2")
	s1.Close()
	atA1 := assistantUUID(t, live, "A1")

	t.Run("resume at", func(t *testing.T) {
		s := env.session(t, v2.WithResume(id), v2.WithResumeAt(atA1), v2.WithForkSession())
		query(t, s, "P3")
		s.Close()
		last, _ := env.api.LastRequest()
		if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P3"}, conversationTexts(last)); diff != "" {
			t.Errorf("the resumed turn's request (-want +got):\n%s", diff)
		}
	})

	t.Run("rename, tag and fork, then resume", func(t *testing.T) {
		if err := dir.Rename(env.project, id, "MY-TITLE"); err != nil {
			t.Fatal(err)
		}
		if err := dir.Tag(env.project, id, "MY-TAG"); err != nil {
			t.Fatal(err)
		}
		fork, err := dir.Fork(env.project, id, sessions.ForkOptions{UpTo: atA1})
		if err != nil {
			t.Fatal(err)
		}
		s := env.session(t, v2.WithResume(fork))
		if got := s.SessionID(); got != fork {
			t.Errorf("SessionID() = %s, want the fork %s", got, fork)
		}
		query(t, s, "P4")
		s.Close()
		last, _ := env.api.LastRequest()
		if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P4"}, conversationTexts(last)); diff != "" {
			t.Errorf("the forked session's request (-want +got):\n%s", diff)
		}

		// The renamed original resumes whole, and keeps its title and tag.
		s = env.session(t, v2.WithResume(id))
		query(t, s, "P5")
		s.Close()
		last, _ = env.api.LastRequest()
		if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P2", "assistant: A2", "user: P5"}, conversationTexts(last)); diff != "" {
			t.Errorf("the renamed session's request (-want +got):\n%s", diff)
		}
		info, err := dir.Stat(env.project, id)
		if err != nil || info.Title != "MY-TITLE" || info.CustomTitle != "MY-TITLE" || info.Tag != "MY-TAG" {
			t.Errorf("Stat after resuming = %+v, %v; want title MY-TITLE, tag MY-TAG", info, err)
		}
	})

	// Without a fork, the session goes on from the message, on a branch of its transcript.
	t.Run("resume at, same session", func(t *testing.T) {
		s := env.session(t, v2.WithResume(id), v2.WithResumeAt(atA1))
		if got := s.SessionID(); got != id {
			t.Errorf("SessionID() = %s, want %s", got, id)
		}
		query(t, s, "P6")
		s.Close()
		last, _ := env.api.LastRequest()
		if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P6"}, conversationTexts(last)); diff != "" {
			t.Errorf("the resumed turn's request (-want +got):\n%s", diff)
		}
	})

	t.Run("delete", func(t *testing.T) {
		if err := dir.Delete(env.project, id); err != nil {
			t.Fatal(err)
		}
		list, err := dir.List(context.Background(), env.project)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range list {
			if in.ID == id {
				t.Errorf("List after Delete still has %s", id)
			}
		}
		if _, err := env.create(t, v2.WithResume(id)); err == nil {
			t.Error("resuming a deleted session succeeded")
		}
	})
}
