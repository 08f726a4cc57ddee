package sessions_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// DefaultDir is $CLAUDE_CONFIG_DIR, else $HOME/.claude, as the CLI's.
func TestDefaultDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	if d, err := sessions.DefaultDir(); err != nil || string(d) != filepath.Join(home, ".claude") {
		t.Errorf("without CLAUDE_CONFIG_DIR: %q, %v; want %q", d, err, filepath.Join(home, ".claude"))
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "/elsewhere/config")
	if d, err := sessions.DefaultDir(); err != nil || string(d) != "/elsewhere/config" {
		t.Errorf("with CLAUDE_CONFIG_DIR: %q, %v; want /elsewhere/config", d, err)
	}
}

// Delete removes the session's directory too (subagent transcripts, stored tool results), and
// nothing of another session.
func TestDeleteRemovesTheSessionsDirectory(t *testing.T) {
	d := sessions.Dir(t.TempDir())
	const cwd = "/p"
	const id, other = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	proj := d.ProjectDir(cwd)
	for _, f := range []string{id + ".jsonl", id + "/subagents/agent-a1.jsonl", id + "/tool-results/r.txt", other + ".jsonl", other + "/subagents/agent-b.jsonl"} {
		p := filepath.Join(proj, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Delete(cwd, id); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{id + ".jsonl", id} {
		if _, err := os.Stat(filepath.Join(proj, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there after Delete (%v)", gone, err)
		}
	}
	for _, kept := range []string{other + ".jsonl", other + "/subagents/agent-b.jsonl"} {
		if _, err := os.Stat(filepath.Join(proj, kept)); err != nil {
			t.Errorf("Delete removed another session's %s: %v", kept, err)
		}
	}
}

// endless is a transcript that never ends: the same user line, forever.
type endless struct {
	line []byte
	off  int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.line[e.off:])
		n += c
		e.off = (e.off + c) % len(e.line)
	}
	return n, nil
}

// ReadMessages streams: it yields the first messages of a transcript that never ends (one that
// read the whole transcript first would never return).
func TestReadMessagesStreams(t *testing.T) {
	line := []byte(`{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n")
	var r io.Reader = &endless{line: line}
	n := 0
	for m, err := range sessions.ReadMessages(r, 0) {
		if err != nil {
			t.Fatal(err)
		}
		if m == nil {
			t.Fatal("nil message")
		}
		if n++; n == 1000 {
			break
		}
	}
	if n != 1000 {
		t.Errorf("read %d messages, want 1000", n)
	}
}
