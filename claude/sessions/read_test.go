package sessions_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

const (
	userLine      = `{"type":"user","message":{"role":"user","content":"hello"},"uuid":"u1","sessionId":"s1"}`
	toolLine      = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"toolUseResult":{"stdout":"ok"},"uuid":"u2","sessionId":"s1"}`
	assistantLine = `{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn"},"uuid":"a1","sessionId":"s1"}`
	systemLine    = `{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","level":"info","uuid":"y1","sessionId":"s1"}`
)

// item is what the reading of one line gave, for comparing: "user u1", "error 3 syntax", ...
func summarize(seq func(func(shared.Message, error) bool)) []string {
	var out []string
	for m, err := range seq {
		if err != nil {
			var le *sessions.LineError
			var se *jsontext.SyntacticError
			var me *json.SemanticError
			switch {
			case !errors.As(err, &le):
				out = append(out, "untyped "+err.Error())
			case errors.Is(err, sessions.ErrLineTooLong):
				out = append(out, "too long "+strconv.Itoa(le.Line))
			case errors.As(err, &se):
				out = append(out, "syntax "+strconv.Itoa(le.Line))
			case errors.As(err, &me):
				out = append(out, "semantic "+strconv.Itoa(le.Line))
			default:
				out = append(out, "other "+strconv.Itoa(le.Line)+" "+err.Error())
			}
			continue
		}
		switch m := m.(type) {
		case *shared.UserMessage:
			out = append(out, "user "+m.UUID)
		case *shared.AssistantMessage:
			out = append(out, "assistant "+m.UUID)
		case *shared.SystemMessage:
			out = append(out, "system "+m.UUID)
		default:
			out = append(out, "unexpected "+m.Type())
		}
	}
	return out
}

func TestReadMessages(t *testing.T) {
	huge := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 300) + `"},"uuid":"big"}`
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"messages", strings.Join([]string{userLine, assistantLine, toolLine, systemLine}, "\n") + "\n",
			[]string{"user u1", "assistant a1", "user u2", "system y1"}},
		{"unknown and metadata lines skipped", `{"type":"queue-operation","operation":"enqueue"}` + "\n" + `{"type":"future-kind","x":[1,2],"tag":{"a":1},"content":7,"message":"m"}` + "\n" + userLine + "\n" + `{"type":"custom-title","customTitle":"t"}` + "\n",
			[]string{"user u1"}},
		{"garbage then a valid line", "not json\n" + userLine + "\n", []string{"syntax 1", "user u1"}},
		{"wrong shape", `{"type":"assistant","message":5,"uuid":"a9"}` + "\n" + userLine + "\n", []string{"semantic 1", "user u1"}},
		{"duplicate names", `{"type":"user","type":"user","message":{"role":"user","content":"x"}}` + "\n" + userLine + "\n", []string{"syntax 1", "user u1"}},
		{"too long then a valid line", huge + "\n" + userLine + "\n", []string{"too long 1", "user u1"}},
		{"torn last line", userLine + "\n" + assistantLine[:40], []string{"user u1"}},
		{"whole last line without a newline", userLine + "\n" + assistantLine, []string{"user u1", "assistant a1"}},
		{"blank lines and CRLF", "\n\r\n" + userLine + "\r\n\n" + assistantLine + "\r\n", []string{"user u1", "assistant a1"}},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := summarize(sessions.ReadMessages(strings.NewReader(tc.in), 256))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The decoded messages carry the transcript's fields in the stream's types.
func TestReadMessagesFields(t *testing.T) {
	var got []shared.Message
	for m, err := range sessions.ReadMessages(strings.NewReader(toolLine+"\n"+assistantLine+"\n"), 0) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	u := got[0].(*shared.UserMessage)
	if u.SessionID != "s1" || len(u.Blocks) != 1 || u.Blocks[0].ToolUseID != "t1" || u.Blocks[0].ContentText() != "ok" ||
		string(u.ToolUseResult) != `{"stdout":"ok"}` || string(u.Raw) != toolLine {
		t.Errorf("user message %+v", u)
	}
	a := got[1].(*shared.AssistantMessage)
	if a.SessionID != "s1" || a.Message.ID != "m1" || a.Message.Model != "claude-x" || a.Text() != "hi" || a.Message.StopReason != "end_turn" || a.ParentToolUseID != nil {
		t.Errorf("assistant message %+v", a)
	}
}

// Stopping the iteration early is honoured.
func TestReadMessagesBreak(t *testing.T) {
	n := 0
	for range sessions.ReadMessages(strings.NewReader(strings.Repeat(userLine+"\n", 10)), 0) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("read %d messages after break at 3", n)
	}
}

// FuzzReadMessages: whatever precedes it (truncated, garbage, huge lines), reading never panics,
// every error is a *LineError, and a valid line on a line of its own is still read.
func FuzzReadMessages(f *testing.F) {
	for _, s := range []string{"", userLine, assistantLine[:50], "{", "\x00\xff", strings.Repeat("[", 5000), `{"type":"user","message":{"content":[{"type":1}]}}`,
		strings.Repeat("y", 1000), `{"type":"system","content":{"a":1}}`, `{"type":"user","message":"x"}`} {
		f.Add([]byte(s))
	}
	const sentinel = `{"type":"assistant","message":{"role":"assistant","content":[]},"uuid":"sentinel"}`
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(append(append(bytes.Clone(in), '\n'), sentinel+"\n"...))
		var last shared.Message
		for m, err := range sessions.ReadMessages(r, 512) {
			if err != nil {
				var le *sessions.LineError
				if !errors.As(err, &le) || le.Line < 1 {
					t.Fatalf("error %v (%T), want a *LineError", err, err)
				}
				continue
			}
			last = m
		}
		if a, ok := last.(*shared.AssistantMessage); !ok || a.UUID != "sentinel" {
			t.Fatalf("the valid last line was not read; last message %#v", last)
		}
	})
}

// FuzzStatFork: Stat and Fork of any transcript never panic; Fork fails only with a *LineError or
// ErrNothingToFork, and each message of a fork is a message of the original of the same type,
// named by its forkedFrom, under a fresh uuid.
func FuzzStatFork(f *testing.F) {
	for _, s := range []string{userLine + "\n" + assistantLine + "\n", "{\n", `{"type":"custom-title","customTitle":5}` + "\n" + userLine,
		`{"type":"user","sessionId":"x","sessionId":"y"}` + "\n", `{"sessionId":"\u00e9\ud800"}` + "\n", "[1]\n" + toolLine} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		dir := sessions.Dir(t.TempDir())
		const id = "aaaaaaaa-0000-4000-8000-000000000001"
		p, _ := dir.TranscriptPath("/p", id)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, in, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := dir.Stat("/p", id); err != nil {
			t.Fatalf("Stat: %v", err)
		}
		fork, err := dir.Fork("/p", id, sessions.ForkOptions{})
		if err != nil {
			var le *sessions.LineError
			if !errors.As(err, &le) && !errors.Is(err, sessions.ErrNothingToFork) {
				t.Fatalf("Fork: %v (%T), want a *LineError or ErrNothingToFork", err, err)
			}
			return
		}
		original := map[string]bool{}
		for _, l := range bytes.Split(in, []byte("\n")) {
			var e struct {
				Type string `json:"type"`
				UUID string `json:"uuid"`
			}
			if json.Unmarshal(l, &e) == nil {
				original[e.Type+" "+e.UUID] = true
			}
		}
		for m, err := range dir.Messages("/p", fork) {
			if err != nil {
				continue
			}
			var raw jsontext.Value
			var uuid string
			switch m := m.(type) {
			case *shared.UserMessage:
				raw, uuid = m.Raw, m.UUID
			case *shared.AssistantMessage:
				raw, uuid = m.Raw, m.UUID
			case *shared.SystemMessage:
				raw, uuid = m.Raw, m.UUID
			default:
				continue
			}
			var e struct {
				Type       string `json:"type"`
				ForkedFrom struct {
					MessageUUID string `json:"messageUuid"`
				} `json:"forkedFrom"`
			}
			if err := json.Unmarshal(raw, &e); err != nil || !original[e.Type+" "+e.ForkedFrom.MessageUUID] || original[e.Type+" "+uuid] {
				t.Errorf("fork message %s: not a message of the original under a fresh uuid (%v)", raw, err)
			}
		}
	})
}
