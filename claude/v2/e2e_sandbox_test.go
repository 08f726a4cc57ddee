package v2_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithSandbox confines the Bash tool's commands: the model writes one file in the project and one
// beside it (outside), each with its own Bash call.
func TestRealCLI_Sandbox(t *testing.T) {
	t.Parallel()
	claudetest.RequireSandbox(t)
	allowAll := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	})
	// Each case's options, given the project and the outside directory.
	type dirs struct{ project, outside string }
	for _, tc := range []struct {
		name          string
		opts          func(d dirs) []v2.Option
		emptyPath     bool // the CLI's PATH is an empty directory: no bwrap
		escape        bool // the outside write asks for dangerouslyDisableSandbox
		inside, other bool // inside.txt, outside.txt written
		locked        bool // locked/f.txt written
		wantStartErr  bool
	}{
		// Without a sandbox, an allowed Bash writes anywhere.
		{name: "no sandbox", opts: func(dirs) []v2.Option { return []v2.Option{v2.WithAllowedTools("Bash")} }, inside: true, other: true, locked: true},
		// Sandboxed: only inside the project, and not in a DenyWrite path there.
		{name: "sandboxed", opts: func(d dirs) []v2.Option {
			return []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true, Filesystem: v2.SandboxFilesystem{DenyWrite: []string{filepath.Join(d.project, "locked")}}})}
		}, inside: true},
		// AllowWrite opens the outside directory.
		{name: "allow write", opts: func(d dirs) []v2.Option {
			return []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true, Filesystem: v2.SandboxFilesystem{AllowWrite: []string{d.outside}}})}
		}, inside: true, other: true, locked: true},
		// Without AutoAllowBash a sandboxed command still needs a permission, which the session
		// (no WithCanUseTool) denies.
		{name: "no auto allow", opts: func(dirs) []v2.Option { return []v2.Option{v2.WithSandbox(v2.Sandbox{})} }},
		// The model asks to run the outside write unsandboxed: the request is ignored by default,
		// even with every permission prompt allowed...
		{name: "escape refused", opts: func(dirs) []v2.Option {
			return []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true}), allowAll}
		}, escape: true, inside: true, locked: true},
		// ... and with AllowUnsandboxedCommands it is a permission prompt, here allowed: the
		// command runs outside the sandbox.
		{name: "escape allowed", opts: func(dirs) []v2.Option {
			return []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true, AllowUnsandboxedCommands: true}), allowAll}
		}, escape: true, inside: true, other: true, locked: true},
		// bwrap cannot be found: the CLI exits at startup (failIfUnavailable)...
		{name: "unavailable", opts: func(dirs) []v2.Option { return []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true})} }, emptyPath: true, wantStartErr: true},
		// ... unless AllowUnavailable: the commands then run unsandboxed (with a permission).
		{name: "unavailable allowed", opts: func(dirs) []v2.Option {
			return []v2.Option{v2.WithSandbox(v2.Sandbox{AllowUnavailable: true}), v2.WithAllowedTools("Bash")}
		}, emptyPath: true, inside: true, other: true, locked: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			outside := filepath.Join(t.TempDir(), "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			// Only echo and redirections: shell builtins, which run with an empty PATH too.
			out := bash("echo out > " + outside + "/outside.txt")
			if tc.escape {
				out["dangerouslyDisableSandbox"] = true
			}
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_s1", "Bash", bash("echo in > "+p+"/inside.txt")),
					claudetest.ToolReply("toolu_s2", "Bash", out),
					claudetest.ToolReply("toolu_s3", "Bash", bash("echo l > "+p+"/locked/f.txt")),
					claudetest.TextReply("done"),
				}
			})
			if err := os.MkdirAll(env.path("locked"), 0o755); err != nil {
				t.Fatal(err)
			}
			opts := tc.opts(dirs{env.project, outside})
			if tc.emptyPath {
				opts = append(opts, v2.WithEnv("PATH="+t.TempDir()))
			}
			s, err := env.create(t, opts...)
			if tc.wantStartErr {
				if err == nil {
					t.Fatal("CreateSession started a session that cannot be sandboxed")
				}
				t.Logf("CreateSession: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
			msgs, _ := query(t, s, "write the files")
			for id, tr := range toolResults(msgs) {
				t.Logf("%s: error %v: %.200q", id, tr.IsError, tr.ContentText())
			}
			_, err = os.Stat(filepath.Join(outside, "outside.txt"))
			got := [3]bool{env.exists("inside.txt"), err == nil, env.exists("locked/f.txt")}
			if want := [3]bool{tc.inside, tc.other, tc.locked}; got != want {
				t.Errorf("written inside, outside, locked = %v, want %v", got, want)
			}
		})
	}
}

// Sandbox.Credentials: a denied environment variable is unset for sandboxed commands, and a
// denied file cannot be read; without them the command sees both.
func TestRealCLI_SandboxCredentials(t *testing.T) {
	t.Parallel()
	claudetest.RequireSandbox(t)
	t.Run("mask", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_m1", "Bash", bash(`echo "[$O15B_SECRET_TOKEN]" > `+p+"/env.txt")),
				claudetest.ToolReply("toolu_m2", "Bash", bash("cat "+p+"/token.txt > "+p+"/file.txt")),
				claudetest.TextReply("done"),
			}
		})
		writeFile(t, env.path("token.txt"), "FILE-SECRET-3\n")
		sb := v2.Sandbox{AutoAllowBash: true, Credentials: v2.SandboxCredentials{
			MaskEnv:   []v2.SandboxMaskedEnv{{Name: "O15B_SECRET_TOKEN", InjectHosts: []string{"api.example.com"}}},
			MaskFiles: []v2.SandboxMaskedFile{{Path: env.path("token.txt"), InjectHosts: []string{"api.example.com"}}},
		}}
		run(t, env.session(t, v2.WithSandbox(sb), v2.WithAllowedTools("Bash"), v2.WithEnv("O15B_SECRET_TOKEN=ENV-SECRET-9")), "leak")
		out, _ := os.ReadFile(env.path("env.txt"))
		if strings.Contains(string(out), "ENV-SECRET-9") || len(strings.Trim(strings.TrimSpace(string(out)), "[]")) == 0 {
			t.Errorf("masked variable as the command saw it: %q; want a sentinel, not the secret", out)
		}
		fout, _ := os.ReadFile(env.path("file.txt"))
		if strings.Contains(string(fout), "FILE-SECRET-3") || len(strings.TrimSpace(string(fout))) == 0 {
			t.Errorf("masked file as the command read it: %q; want a sentinel, not the secret", fout)
		}
	})
	for _, deny := range []bool{false, true} {
		t.Run(fmt.Sprintf("deny=%v", deny), func(t *testing.T) {
			t.Parallel()
			var secret string // in the project: a path outside it would need a permission to read
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				secret = filepath.Join(p, "token.txt")
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_c1", "Bash", bash(`echo "[$O15B_SECRET_TOKEN]" > `+p+"/env.txt")),
					claudetest.ToolReply("toolu_c2", "Bash", bash("cat "+secret+" > "+p+"/file.txt")),
					claudetest.TextReply("done"),
				}
			})
			writeFile(t, secret, "FILE-SECRET-3\n")
			sb := v2.Sandbox{AutoAllowBash: true}
			if deny {
				sb.Credentials = v2.SandboxCredentials{DenyEnv: []string{"O15B_SECRET_TOKEN"}, DenyFiles: []string{secret}}
			}
			// Bash allowed too: CLI 2.1.330 asks before "cat x > y" even sandboxed.
			run(t, env.session(t, v2.WithSandbox(sb), v2.WithAllowedTools("Bash"), v2.WithEnv("O15B_SECRET_TOKEN=ENV-SECRET-9")), "leak")
			envOut, _ := os.ReadFile(env.path("env.txt"))
			fileOut, _ := os.ReadFile(env.path("file.txt"))
			got := [2]bool{strings.Contains(string(envOut), "ENV-SECRET-9"), strings.Contains(string(fileOut), "FILE-SECRET-3")}
			if got != [2]bool{!deny, !deny} {
				t.Errorf("deny %v: the command saw the variable, the file = %v (env.txt %q, file.txt %q)", deny, got, envOut, fileOut)
			}
		})
	}
}

// Sandbox.Network: a sandboxed command reaches a host only through the CLI's proxy, for
// AllowedDomains; without a sandbox it reaches it directly.
func TestRealCLI_SandboxNetwork(t *testing.T) {
	t.Parallel()
	claudetest.RequireSandbox(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "NET-BODY-4") }))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	host = host[:strings.LastIndex(host, ":")]
	for _, tc := range []struct {
		name    string
		opts    []v2.Option
		fetched bool
	}{
		{"no sandbox", []v2.Option{v2.WithAllowedTools("Bash")}, true},
		{"sandboxed", []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true}), v2.WithAllowedTools("Bash")}, false},
		{"allowed domain", []v2.Option{v2.WithSandbox(v2.Sandbox{AutoAllowBash: true, Network: v2.SandboxNetwork{AllowedDomains: []string{host}}}), v2.WithAllowedTools("Bash")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// --noproxy '': through the CLI's proxy even to a loopback host, which the sandbox's
			// NO_PROXY would send direct, into its empty network namespace.
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_n1", "Bash", bash("curl -s -m 10 --noproxy '' -o "+p+"/net.txt "+srv.URL+"/")),
					claudetest.TextReply("done"),
				}
			})
			msgs, _ := query(t, env.session(t, tc.opts...), "fetch")
			body, _ := os.ReadFile(env.path("net.txt"))
			if got := strings.Contains(string(body), "NET-BODY-4"); got != tc.fetched {
				t.Errorf("fetched %v, want %v; tool result %.300q", got, tc.fetched, toolResults(msgs)["toolu_n1"].ContentText())
			}
		})
	}
}
