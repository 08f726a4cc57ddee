//go:build unix

package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A program that ends before it answers initialize is reported with what tells a crash from a
// wrong program: its exit status, its stderr, and what it says for --version. (Before, all three
// were "v2: initialize: subprocess: transport closed".)
func TestCreateSession_CLIExitsAtStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		script string
		want   v2.StartError // CLIPath and Err are not compared
		// wantText are in the message, in order; notText is not.
		wantText []string
		notText  string
	}{
		{
			name:     "a program that exits 0 at once",
			script:   "echo 'usage: not-claude [file]' >&2\nexit 0",
			want:     v2.StartError{Exited: true, ExitCode: 0, Stderr: "usage: not-claude [file]", Version: "usage: not-claude [file]"},
			wantText: []string{"exited with code 0", "usage: not-claude", "--version` said", "is it the Claude Code CLI?"},
		},
		{
			name:     "the CLI fails with a status",
			script:   "if [ \"$1\" = --version ]; then echo '2.1.330 (Claude Code)'; exit 0; fi\necho 'Error: bad settings' >&2\nexit 3",
			want:     v2.StartError{Exited: true, ExitCode: 3, Stderr: "Error: bad settings", Version: "2.1.330 (Claude Code)"},
			wantText: []string{"exited with code 3", "Error: bad settings", "2.1.330 (Claude Code)"},
			notText:  "is it the Claude Code CLI?",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cli := filepath.Join(t.TempDir(), "fake-cli")
			if err := os.WriteFile(cli, []byte("#!/bin/sh\n"+c.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			s, err := v2.CreateSession(t.Context(), v2.WithCLIPath(cli), v2.WithCwd(t.TempDir()))
			if err == nil {
				s.Close()
				t.Fatal("CreateSession succeeded")
			}
			var se *v2.StartError
			if !errors.As(err, &se) {
				t.Fatalf("CreateSession: %v, want a *v2.StartError", err)
			}
			got := *se
			got.CLIPath, got.Err = "", nil
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("StartError (-want +got):\n%s", diff)
			}
			if se.CLIPath != cli {
				t.Errorf("CLIPath = %q, want %q", se.CLIPath, cli)
			}
			msg := err.Error()
			rest := msg
			for _, w := range c.wantText {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("message %q lacks %q (in order)", msg, w)
					break
				}
				rest = rest[i+len(w):]
			}
			if c.notText != "" && strings.Contains(msg, c.notText) {
				t.Errorf("message %q says %q", msg, c.notText)
			}
			var pe *shared.ProcessError
			if se.ExitCode != 0 && !errors.As(err, &pe) {
				t.Errorf("errors.As(%v, *shared.ProcessError) = false", err)
			}
		})
	}
}
