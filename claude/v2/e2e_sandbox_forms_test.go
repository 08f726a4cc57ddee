package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_SandboxForms: the sandbox settings issue 38 item 4 typed, by effect on CLI 2.1.332
// with bubblewrap.
//
//   - nested_userns: a sandboxed `unshare -U` fails, and succeeds with AllowNestedUserNamespaces.
//   - extract: a MaskEnv entry with Extract masks only the captured span of a connection string:
//     the command sees the rest as it is and a sentinel for the password.
//   - ripgrep: the CLI runs Sandbox.Ripgrep's program on the host (a script that records its
//     arguments); a program inside the project is refused before the CLI starts.
func TestRealCLI_SandboxForms(t *testing.T) {
	t.Parallel()
	claudetest.RequireSandbox(t)
	t.Run("nested_userns", func(t *testing.T) {
		t.Parallel()
		for _, allow := range []bool{false, true} {
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_u1", "Bash", bash("unshare -U true && echo made > "+p+"/userns.txt")),
					claudetest.TextReply("done"),
				}
			})
			sb := v2.Sandbox{AutoAllowBash: true, AllowNestedUserNamespaces: allow}
			run(t, env.session(t, v2.WithSandbox(sb), v2.WithAllowedTools("Bash")), "ns")
			if got := env.exists("userns.txt"); got != allow {
				t.Errorf("AllowNestedUserNamespaces %v: a user namespace was made = %v", allow, got)
			}
		}
	})
	t.Run("extract", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_x1", "Bash", bash(`echo "[$O15B_DB_URL]" > `+p+"/env.txt")),
				claudetest.TextReply("done"),
			}
		})
		sb := v2.Sandbox{AutoAllowBash: true, Credentials: v2.SandboxCredentials{MaskEnv: []v2.SandboxMaskedEnv{{
			Name: "O15B_DB_URL", SandboxMaskOptions: v2.SandboxMaskOptions{Extract: `postgres://app:([^@]+)@`, OnExtractNoMatch: "deny"},
		}}}}
		run(t, env.session(t, v2.WithSandbox(sb), v2.WithAllowedTools("Bash"), v2.WithEnv("O15B_DB_URL=postgres://app:PW-SECRET-7@db.internal/app")), "url")
		out, _ := os.ReadFile(env.path("env.txt"))
		s := string(out)
		if strings.Contains(s, "PW-SECRET-7") || !strings.Contains(s, "[postgres://app:") || !strings.Contains(s, "@db.internal/app]") {
			t.Errorf("the command saw %q; want the URL with a sentinel for its password only", s)
		}
	})
	t.Run("ripgrep", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		log := filepath.Join(dir, "rg.log")
		rg := filepath.Join(dir, "rg")
		writeFile(t, rg, "#!/bin/sh\necho \"$@\" >> "+log+"\nexit 1\n")
		if err := os.Chmod(rg, 0o755); err != nil {
			t.Fatal(err)
		}
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_r1", "Bash", bash("echo ran > "+p+"/ran.txt")),
				claudetest.TextReply("done"),
			}
		})
		sb := v2.Sandbox{AutoAllowBash: true, Ripgrep: &v2.SandboxRipgrep{Command: rg, Args: []string{"--no-config"}}}
		run(t, env.session(t, v2.WithSandbox(sb), v2.WithAllowedTools("Bash")), "rg")
		b, err := os.ReadFile(log)
		if err != nil || !strings.Contains(string(b), "--no-config") {
			t.Errorf("the CLI did not run Sandbox.Ripgrep's program with its Args (log %q, %v)", b, err)
		}
		inProject := env.path("rg")
		writeFile(t, inProject, "#!/bin/sh\nexit 1\n")
		if err := os.Chmod(inProject, 0o755); err != nil {
			t.Fatal(err)
		}
		_, err = env.create(t, v2.WithSandbox(v2.Sandbox{AutoAllowBash: true, Ripgrep: &v2.SandboxRipgrep{Command: inProject}}))
		var oe *v2.OptionError
		if !errors.As(err, &oe) || oe.Option != "WithSandbox" || !strings.Contains(err.Error(), "Ripgrep.Command") {
			t.Errorf("a ripgrep inside the project: CreateSession = %v, want a WithSandbox *v2.OptionError", err)
		}
	})
}
