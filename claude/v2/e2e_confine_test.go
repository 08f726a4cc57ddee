//go:build linux

package v2_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// escape is one way for a session to change a file outside its policy's write root that the
// policy's analysis of tool calls cannot see. setup prepares the project (and returns more
// options); calls are the model's Bash commands. Each writes outside/<name>.
type escape struct {
	name  string
	setup func(t *testing.T, home, project, target string) []v2.Option
	calls func(project, target string) []string
	// escaped reports whether the escape worked; nil: target holds "pwned".
	escaped func(home, project, target string) bool
}

// homeEscape is an escape by a script, written and run in one command, that runs body with HOME
// set (the CLI's) and succeeds when the file at rel below HOME holds "pwned". The file exists
// before (so that only the confinement stops the write).
func homeEscape(name, rel, body string) escape {
	return escape{name: name,
		setup: func(t *testing.T, home, _, _ string) []v2.Option {
			writeFile(t, filepath.Join(home, rel), "{}\n")
			return nil
		},
		calls: func(string, string) []string {
			return []string{"printf '%s\\n' '" + body + "' > h.sh && sh h.sh"}
		},
		escaped: func(home, _, _ string) bool { return fileHas(filepath.Join(home, rel), "pwned") },
	}
}

// fileHas reports whether the file at path holds s.
func fileHas(path, s string) bool {
	b, _ := os.ReadFile(path)
	return strings.Contains(string(b), s)
}

// escapes are the classes of escape, each in a form that gets past the policy's analysis
// as it decides for a confined session (policy.WithKernelConfinement: programs it has no model of
// run, a script it cannot read yet runs); only the kernel stops them. Scripts are written and run
// in one command, so that the analysis cannot read them first.
var escapes = []escape{
	{name: "script written then run", setup: targetFile, calls: func(string, string) []string {
		return []string{`printf '%s\n' 'echo pwned > "$(cat t.txt)"' > run.sh && chmod +x run.sh && ./run.sh`}
	}},
	{name: "make recipe", setup: func(t *testing.T, home, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, "Makefile"), "all:\n\techo pwned > "+target+"\n")
		return nil
	}, calls: func(string, string) []string { return []string{"make"} }},
	// The analysis refuses python3 -c (inline code) even under confinement: the same from a file.
	{name: "interpreter", setup: func(t *testing.T, home, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, "w.py"), `open(open("t.txt").read().strip(),"w").write("pwned")`+"\n")
		return targetFile(t, home, p, target)
	}, calls: func(string, string) []string { return []string{"python3 w.py"} }},
	// A hostile repository ships src/x, a link to a directory outside.
	{name: "cp -a of a link", setup: func(t *testing.T, home, p, target string) []v2.Option {
		if err := os.MkdirAll(filepath.Join(p, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(target), filepath.Join(p, "src", "x")); err != nil {
			t.Fatal(err)
		}
		return nil
	}, calls: func(string, string) []string {
		return []string{`printf '%s\n' 'echo pwned > x/f' > w.sh && cp -a src/x . && sh w.sh`}
	}},
	{name: "hard link", setup: func(t *testing.T, home, p, target string) []v2.Option {
		writeFile(t, target, "original")
		return targetFile(t, home, p, target)
	}, calls: func(string, string) []string {
		return []string{`printf '%s\n' 'ln "$(cat t.txt)" h && echo pwned > h' > hl.sh && sh hl.sh`}
	}},
	{name: "/proc/self/cwd", calls: func(string, string) []string {
		return []string{`printf '%s\n' 'echo pwned > /proc/self/cwd/../outside/f' > pc.sh && sh pc.sh`}
	}},
	// The repository's own hooks are refused before the CLI starts (ErrUntrustedProject); a hook
	// of the user's settings runs, in the CLI's tree.
	{name: "SessionStart hook of the user's settings", setup: func(t *testing.T, home, p, target string) []v2.Option {
		writeFile(t, filepath.Join(home, ".claude", "settings.json"),
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo pwned > `+target+`"}]}]}}`)
		return nil
	}},
	{name: "MCP stdio server", setup: func(t *testing.T, home, p, target string) []v2.Option {
		return []v2.Option{v2.WithMCPStdioServer("w", v2.MCPStdioServer{Command: "sh", Args: []string{"-c", "echo pwned > " + target}})}
	}},
	// The analysis refuses BASH_ENV=... on a command line: a Makefile exports it to its recipes'
	// shell.
	{name: "BASH_ENV", setup: func(t *testing.T, home, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, "env.sh"), "echo pwned > "+target+"\n")
		writeFile(t, filepath.Join(p, "Makefile"), "SHELL := /bin/bash\nexport BASH_ENV := env.sh\nall:\n\ttrue\n")
		return nil
	}, calls: func(string, string) []string { return []string{"make"} }},
	// HOME: the policy's deny-read paths, its dotfiles, the CLI's own settings and global config.
	{name: "read of ~/.ssh", setup: func(t *testing.T, home, _, _ string) []v2.Option {
		writeFile(t, filepath.Join(home, ".ssh", "id_ed25519"), "SECRET-KEY\n")
		return nil
	}, calls: func(string, string) []string {
		return []string{`printf '%s\n' 'cat "$HOME/.ssh/id_ed25519" > leak.txt' > r.sh && sh r.sh`}
	}, escaped: func(_, p, _ string) bool { return fileHas(filepath.Join(p, "leak.txt"), "SECRET-KEY") }},
	homeEscape("HOME dotfile", ".bashrc", `echo pwned >> "$HOME/.bashrc"`),
	homeEscape("~/.claude/settings.json", ".claude/settings.json", `echo "{\"pwned\":1}" > "$HOME/.claude/settings.json"`),
	homeEscape("~/.claude.json", ".claude.json", `echo "{\"pwned\":1}" > "$HOME/.claude.json"`),
}

// targetFile writes the target's path into the project's t.txt, for commands that read it there
// (so that no command names the outside path, which the policy would refuse).
func targetFile(t *testing.T, _, p, target string) []v2.Option {
	writeFile(t, filepath.Join(p, "t.txt"), target+"\n")
	return nil
}

// TestRealCLI_ConfinementEscapes runs each escape through the real CLI in a session guarded by
// policy.Confined(project): with WithPolicy alone (Landlock), and with WithSandbox too (an outer
// bubblewrap, inside which the CLI's own bubblewrap runs each Bash command), nothing outside the
// project changes while a write inside it works; with WithoutOSConfinement and the policy deciding
// as it does under confinement (WithKernelConfinement), the same escape writes outside: the test
// fails without the kernel's confinement. (With WithoutOSConfinement and the plain policy, the
// analysis refuses most of these: the programs it cannot read.)
func TestRealCLI_ConfinementEscapes(t *testing.T) {
	t.Parallel()
	for _, esc := range escapes {
		for _, mode := range []string{"confined", "confined+WithSandbox", "WithoutOSConfinement"} {
			t.Run(esc.name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				if mode == "confined+WithSandbox" {
					claudetest.RequireSandbox(t)
				}
				var target string
				env := newRealEnv(t, func(p string) []claudetest.Reply {
					target = filepath.Join(filepath.Dir(p), "outside", "f")
					var r []claudetest.Reply
					if esc.calls != nil {
						for i, c := range esc.calls(p, target) {
							r = append(r, claudetest.ToolReply("toolu_e"+string(rune('a'+i)), "Bash", bash(c)))
						}
					}
					return append(r, claudetest.ToolReply("toolu_in", "Bash", bash("echo ok > inside.txt")), claudetest.TextReply("done"))
				})
				if err := os.Mkdir(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
				p := policy.Confined(env.project, policy.WithHome(env.home))
				opts := []v2.Option{v2.WithAllowedTools("Bash")}
				if esc.setup != nil {
					opts = append(opts, esc.setup(t, env.home, env.project, target)...)
				}
				switch mode {
				case "confined":
					opts = append(opts, v2.WithPolicy(p))
				case "confined+WithSandbox":
					opts = append(opts, v2.WithPolicy(p), v2.WithSandbox(v2.PolicySandbox(p)))
				case "WithoutOSConfinement":
					// The analysis as it decides under confinement, without the kernel: what the
					// session would be if confinement silently failed.
					opts = append(opts, v2.WithPolicy(p.WithKernelConfinement()), v2.WithoutOSConfinement())
				}
				run(t, env.session(t, opts...), "go")
				escaped := fileHas(target, "pwned")
				if esc.escaped != nil {
					escaped = esc.escaped(env.home, env.project, target)
				}
				if want := mode == "WithoutOSConfinement"; escaped != want {
					t.Errorf("escaped = %v, want %v", escaped, want)
				}
				if !env.exists("inside.txt") {
					t.Errorf("the write inside the project failed")
					for _, r := range env.api.Requests() {
						for _, b := range r.ToolResults() {
							t.Logf("tool result: %s", b.ContentText())
						}
					}
				}
				refused := slices.ContainsFunc([]string{"ermission denied", "not permitted", "cross-device", "Read-only file system", "No such file or directory" /* a denied directory is an empty tmpfs under bubblewrap */},
					func(s string) bool { return len(env.requestsContaining(s)) > 0 })
				if mode != "WithoutOSConfinement" && esc.calls != nil && !refused {
					t.Errorf("no tool result told the model the write was refused")
				}
			})
		}
	}
}

// A confined session keeps its transcripts where the CLI always does (its private config dir
// links projects/ to the real one): the sessions package lists it, a confined resume gets its
// history, a confined fork gets a new id and the history, and WithSessionStore mirrors it; a
// store-only session (its transcript removed locally) resumes from the store, confined.
func TestRealCLI_ConfinedSessionState(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "A1", "A2", "A3", "A4")
	confined := v2.WithPolicy(policy.Confined(env.project))
	dir := sessions.Dir(filepath.Join(env.home, ".claude"))
	store := sessions.FileStore{Dir: sessions.Dir(t.TempDir())}

	s := env.session(t, confined, v2.WithSessionStore(store))
	id := s.SessionID()
	query(t, s, "P1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	list, err := dir.List(testCtx(t), env.project)
	if err != nil || len(list) != 1 || list[0].ID != id {
		t.Fatalf("List = %+v, %v; want the one session %s", list, err, id)
	}
	if got, err := store.Dir.List(testCtx(t), env.project); err != nil || len(got) != 1 {
		t.Errorf("the store holds %+v, %v; want the session", got, err)
	}

	s = env.session(t, confined, v2.WithResume(id))
	query(t, s, "P2")
	s.Close()
	last, _ := env.api.LastRequest()
	if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P2"}, conversationTexts(last)); diff != "" {
		t.Errorf("the resumed turn's request (-want +got):\n%s", diff)
	}

	s = env.session(t, confined, v2.WithResume(id), v2.WithForkSession())
	fork := s.SessionID()
	query(t, s, "P3")
	s.Close()
	if fork == id {
		t.Errorf("the fork kept the id %s", id)
	}
	if _, err := dir.Stat(env.project, fork); err != nil {
		t.Errorf("the fork's transcript: %v", err)
	}

	path, err := dir.TranscriptPath(env.project, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s = env.session(t, confined, v2.WithResume(id), v2.WithSessionStore(store))
	query(t, s, "P4")
	s.Close()
	last, _ = env.api.LastRequest()
	if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P4"}, conversationTexts(last)); diff != "" {
		t.Errorf("the turn resumed from the store (-want +got):\n%s", diff)
	}
}
