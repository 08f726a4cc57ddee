package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAgentModes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "---\nname: alpha\ndescription: |\n  two\n  lines\npermissionMode: \"auto\"\n---\nbody\n")
	write("sub/b.md", "\ufeff---\r\ndescription: b\r\n---\r\nbody\r\n")
	write("c.txt", "---\npermissionMode: auto\n---\n")
	got, err := AgentModes(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []AgentMode{{File: filepath.Join(dir, "a.md"), Name: "alpha", Mode: "auto"}, {File: filepath.Join(dir, "sub", "b.md"), Name: "b"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("AgentModes (-want +got):\n%s", d)
	}
	if got, err := AgentModes(filepath.Join(dir, "missing")); err != nil || len(got) != 0 {
		t.Errorf("a missing dir: %v, %v; want none", got, err)
	}
	write("d.md", "---\npermissionMode: [auto\nthis is not yaml\n---\n")
	if _, err := AgentModes(dir); err == nil || !strings.Contains(err.Error(), "d.md") {
		t.Errorf("an unreadable frontmatter: %v, want an error naming d.md", err)
	}
}

// An agents directory that is a link (a dotfiles manager's) is read through it, and an agent
// file's extension is matched whatever its case.
func TestAgentModesThroughALink(t *testing.T) {
	real, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "x.MD"), []byte("---\npermissionMode: acceptEdits\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(home, "agents")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	got, err := AgentModes(link)
	if err != nil || len(got) != 1 || got[0].Mode != "acceptEdits" || got[0].Name != "x" {
		t.Errorf("AgentModes through a link = %+v, %v; want agent x in acceptEdits", got, err)
	}
}
