package sessions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestProjectKey(t *testing.T) {
	long := "/" + strings.Repeat("abcdefghij/", 20) + "end"
	cases := []struct{ cwd, want string }{
		{"/home/me/demo", "-home-me-demo"},
		{"/tmp/Test_1/002/my.project", "-tmp-Test-1-002-my-project"},
		{"/home/jörg/ü", "-home-j-rg--"},
		{"/x/🙂", "-x---"}, // one character, two UTF-16 code units
		{"", ""},
		// Checked against CLI 2.1.330 by TestRealCLI_ProjectKey.
		{long, strings.ReplaceAll(long, "/", "-")[:200] + "-3oi9x0"},
	}
	for _, tc := range cases {
		if got := sessions.ProjectKey(tc.cwd); got != tc.want {
			t.Errorf("ProjectKey(%q) = %q, want %q", tc.cwd, got, tc.want)
		}
	}
}

// writeTranscript writes lines as session id's transcript of cwd in dir, with modification time mt.
func writeTranscript(t *testing.T, dir sessions.Dir, cwd, id string, mt time.Time, lines ...string) string {
	t.Helper()
	p, err := dir.TranscriptPath(cwd, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	idA = "aaaaaaaa-0000-4000-8000-000000000001"
	idB = "bbbbbbbb-0000-4000-8000-000000000002"
	idC = "cccccccc-0000-4000-8000-000000000003"
	idD = "dddddddd-0000-4000-8000-000000000004"
)

func prompt(text string) string {
	return `{"type":"user","message":{"role":"user","content":"` + text + `"},"uuid":"p-` + text + `","timestamp":"2026-11-25T04:00:00Z","cwd":"/w","gitBranch":"main","isSidechain":false}`
}

func TestList(t *testing.T) {
	dir := sessions.Dir(t.TempDir())
	const cwd = "/nonexistent/project"
	base := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	// A field of an unexpected type (gitBranch) fails alone: the prompt and cwd are still read.
	writeTranscript(t, dir, cwd, idA, base.Add(1*time.Minute),
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"first-a"}]},"uuid":"p","timestamp":"2026-11-25T04:00:00Z","cwd":"/w","gitBranch":{"x":1}}`,
		`{"type":"ai-title","aiTitle":"Generated","sessionId":"x"}`)
	writeTranscript(t, dir, cwd, idB, base.Add(3*time.Minute), prompt("first-b"),
		`{"type":"assistant","message":{"role":"assistant","model":"claude-b","content":[]},"uuid":"m"}`,
		`{"type":"last-prompt","lastPrompt":"latest-b"}`, "torn {")
	writeTranscript(t, dir, cwd, idC, base.Add(2*time.Minute), `{"type":"queue-operation"}`)                                                              // no prompt, no title
	writeTranscript(t, dir, cwd, idD, base.Add(4*time.Minute), `{"type":"user","isSidechain":true,"uuid":"s","message":{"role":"user","content":"sub"}}`) // a sidechain
	if err := os.WriteFile(filepath.Join(dir.ProjectDir(cwd), "not-a-session.jsonl"), []byte(prompt("ignored")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := dir.List(context.Background(), cwd)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ ID, Title, First, Last, Model, Cwd string }
	var rows []row
	for _, in := range got {
		rows = append(rows, row{in.ID, in.Title, in.FirstPrompt, in.LastPrompt, in.Model, in.Cwd})
	}
	want := []row{
		{idB, "latest-b", "first-b", "latest-b", "claude-b", "/w"},
		{idA, "Generated", "first-a", "", "", "/w"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if got[0].Started != base || !got[0].LastActivity.Equal(base.Add(3*time.Minute)) {
		t.Errorf("Started %v LastActivity %v", got[0].Started, got[0].LastActivity)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dir.List(ctx, cwd); !errors.Is(err, context.Canceled) {
		t.Errorf("List with a cancelled ctx: %v", err)
	}
	if l, err := dir.List(context.Background(), "/no/sessions/here"); err != nil || len(l) != 0 {
		t.Errorf("List of a project without sessions = %v, %v", l, err)
	}
}

// Ids must be UUIDs (agent ids: letters, digits, '-', '_'), so that none names another file.
func TestInvalidIDs(t *testing.T) {
	dir := sessions.Dir(t.TempDir())
	for _, id := range []string{"../../etc/passwd", "", "aaaaaaaa-0000-4000-8000-00000000000/", "x"} {
		if _, err := dir.Stat("/p", id); !errors.Is(err, sessions.ErrInvalidID) {
			t.Errorf("Stat(%q) = %v", id, err)
		}
		if err := dir.Rename("/p", id, "t"); !errors.Is(err, sessions.ErrInvalidID) {
			t.Errorf("Rename(%q) = %v", id, err)
		}
		for _, err := range dir.Messages("/p", id) {
			if !errors.Is(err, sessions.ErrInvalidID) {
				t.Errorf("Messages(%q) = %v", id, err)
			}
		}
	}
	for _, err := range dir.SubagentMessages("/p", idA, "../x") {
		if !errors.Is(err, sessions.ErrInvalidID) {
			t.Errorf("SubagentMessages(../x) = %v", err)
		}
	}
	for _, err := range dir.Messages("/p", idA) {
		if !errors.Is(err, sessions.ErrNotFound) || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Messages of a missing session = %v", err)
		}
	}
}

func TestRenameTagForkDelete(t *testing.T) {
	dir := sessions.Dir(t.TempDir())
	const cwd = "/p"
	// The last line has no newline (being written): the title goes on a line of its own.
	p := writeTranscript(t, dir, cwd, idA, time.Now(), prompt("one"),
		`{"type":"assistant","message":{"role":"assistant","content":[]},"uuid":"a-one","sessionId":"`+idA+`","extra":{"k":[1,"\u00e9"]}}`, prompt("two"))
	if err := os.WriteFile(p, append(mustRead(t, p), `{"type":"assistant","message":{"role":"assistant","content":[]},"uuid":"a-two"}`...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := dir.Rename(cwd, idA, "Title \"1\""); err != nil {
		t.Fatal(err)
	}
	if err := dir.Tag(cwd, idA, "t1"); err != nil {
		t.Fatal(err)
	}
	info, err := dir.Stat(cwd, idA)
	if err != nil || info.Title != `Title "1"` || info.Tag != "t1" {
		t.Errorf("Stat after Rename and Tag = %+v, %v", info, err)
	}
	if n := len(readUUIDs(t, dir, cwd, idA)); n != 4 {
		t.Errorf("%d messages after Rename and Tag, want 4: the torn line was not mended", n)
	}

	fork, err := dir.Fork(cwd, idA, sessions.ForkOptions{UpTo: "a-one"})
	if err != nil {
		t.Fatal(err)
	}
	// Fresh uuids, the chain kept, forkedFrom naming the original, every other member as it was,
	// and a title.
	fp, _ := dir.TranscriptPath(cwd, fork)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(mustRead(t, fp))), "\n") {
		var e struct {
			Type        string            `json:"type"`
			UUID        string            `json:"uuid"`
			Parent      *string           `json:"parentUuid"`
			SessionID   string            `json:"sessionId"`
			ForkedFrom  map[string]string `json:"forkedFrom"`
			CustomTitle string            `json:"customTitle"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if e.SessionID != fork || e.UUID == "" || e.UUID == "p-one" || e.UUID == "a-one" {
			t.Errorf("fork entry %s: want the fork's session id and a fresh uuid", l)
		}
		parent := "null"
		if e.Parent != nil {
			parent = "fresh"
		}
		got = append(got, e.Type+" from "+e.ForkedFrom["messageUuid"]+" parent "+parent+" "+e.CustomTitle)
	}
	want := []string{"user from p-one parent null ", "assistant from a-one parent null ", `custom-title from  parent null Title "1" (fork)`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fork's entries (-want +got):\n%s", diff)
	}
	if forked := string(mustRead(t, fp)); !strings.Contains(forked, `"forkedFrom":{"sessionId":"`+idA+`","messageUuid":"a-one"}`) ||
		!strings.Contains(forked, `"extra":{"k":[1,"\u00e9"]}`) {
		t.Errorf("forked transcript:\n%s", forked)
	}
	if info, err := dir.Stat(cwd, fork); err != nil || info.Title != `Title "1" (fork)` {
		t.Errorf("Stat of the fork = %+v, %v", info, err)
	}
	if _, err := dir.Fork(cwd, idA, sessions.ForkOptions{UpTo: "no-such-message"}); !errors.Is(err, sessions.ErrMessageNotFound) {
		t.Errorf("Fork at a missing message: %v", err)
	}
	if err := dir.Delete(cwd, fork); err != nil {
		t.Fatal(err)
	}
	if err := dir.Delete(cwd, fork); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if l, _ := dir.List(context.Background(), cwd); len(l) != 1 || l[0].ID != idA {
		t.Errorf("List after Fork and Delete: %+v", l)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readUUIDs(t *testing.T, dir sessions.Dir, cwd, id string) []string {
	t.Helper()
	var out []string
	for m, err := range dir.Messages(cwd, id) {
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *shared.UserMessage:
			out = append(out, m.UUID)
		case *shared.AssistantMessage:
			out = append(out, m.UUID)
		}
	}
	return out
}

// A subagent's messages carry the tool_use id of its metadata file, as on the live stream.
func TestSubagentMessages(t *testing.T) {
	dir := sessions.Dir(t.TempDir())
	p, _ := dir.TranscriptPath("/p", idA)
	sub := filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, data string }{
		{"agent-a1.jsonl", userLine + "\n" + assistantLine + "\n"},
		{"agent-a1.meta.json", `{"agentType":"general-purpose","toolUseId":"toolu_9"}`},
		{"agent-a2.jsonl", userLine + "\n"},
		{"agent-a3.meta.json", `{}`},
		{"notes.txt", ""},
	} {
		if err := os.WriteFile(filepath.Join(sub, f.name), []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := dir.Subagents("/p", idA)
	if diff := cmp.Diff([]string{"a1", "a2"}, ids); err != nil || diff != "" {
		t.Errorf("Subagents (-want +got): %v\n%s", err, diff)
	}
	parents := func(agent string) []string {
		var out []string
		for m, err := range dir.SubagentMessages("/p", idA, agent) {
			if err != nil {
				t.Fatal(err)
			}
			var p *string
			switch m := m.(type) {
			case *shared.UserMessage:
				p = m.ParentToolUseID
			case *shared.AssistantMessage:
				p = m.ParentToolUseID
			}
			if p == nil {
				out = append(out, "<nil>")
			} else {
				out = append(out, *p)
			}
		}
		return out
	}
	if diff := cmp.Diff([]string{"toolu_9", "toolu_9"}, parents("a1")); diff != "" {
		t.Errorf("a1 parents (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"<nil>"}, parents("a2")); diff != "" {
		t.Errorf("a2 parents (-want +got):\n%s", diff)
	}
}
