//go:build linux

package v2_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// escape is one way for a session to change a file outside its policy's write root that the
// policy's analysis of tool calls cannot see. setup prepares the project (and returns more
// options); calls are the model's Bash commands. Each writes outside/<name>.
type escape struct {
	name  string
	setup func(t *testing.T, project, target string) []v2.Option
	calls func(project, target string) []string
}

// escapes are the classes of escape: each gets past the policy's hook (the run with
// WithoutOSConfinement shows it) and only the kernel stops it.
var escapes = []escape{
	{name: "script written then run", calls: func(p, target string) []string {
		return []string{"printf '#!/bin/sh\\necho pwned >%s\\n' \"$(cat t.txt)\" > run.sh", "chmod +x run.sh", "./run.sh"}
	}, setup: targetFile},
	{name: "make recipe", setup: func(t *testing.T, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, "Makefile"), "all:\n\techo pwned > "+target+"\n")
		return nil
	}, calls: func(string, string) []string { return []string{"make"} }},
	// The analysis refuses python3 -c (inline code it does not read): the same write from a file.
	{name: "interpreter running a file", setup: script("w.py", `open(open("t.txt").read().strip(),"w").write("pwned")`),
		calls: func(string, string) []string { return []string{"python3 w.py"} }},
	// A hostile repository ships src/x, a link to a directory outside; it does not exist in the
	// project when the analysis reads the command.
	{name: "cp -a of a link", setup: func(t *testing.T, p, target string) []v2.Option {
		if err := os.MkdirAll(filepath.Join(p, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(target), filepath.Join(p, "src", "x")); err != nil {
			t.Fatal(err)
		}
		return nil
	}, calls: func(string, string) []string { return []string{"cp -a src/x . && echo pwned > x/" + "f"} }},
	{name: "hard link", setup: func(t *testing.T, p, target string) []v2.Option {
		writeFile(t, target, "original")
		return script("hl.sh", `ln "$(cat t.txt)" h && echo pwned > h`)(t, p, target)
	}, calls: func(string, string) []string { return []string{"sh hl.sh"} }},
	{name: "/proc/self/cwd", setup: script("pc.sh", `echo pwned > /proc/self/cwd/../outside/f`),
		calls: func(string, string) []string { return []string{"sh pc.sh"} }},
	{name: "SessionStart hook of the project's settings", setup: func(t *testing.T, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, ".claude", "settings.json"),
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo pwned > `+target+`"}]}]}}`)
		return nil
	}},
	{name: "MCP stdio server", setup: func(t *testing.T, p, target string) []v2.Option {
		return []v2.Option{v2.WithMCPStdioServer("w", v2.MCPStdioServer{Command: "sh", Args: []string{"-c", "echo pwned > " + target}})}
	}},
	{name: "BASH_ENV", setup: func(t *testing.T, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, "env.sh"), "echo pwned > "+target+"\n")
		return nil
	}, calls: func(string, string) []string { return []string{"BASH_ENV=env.sh bash -c true"} }},
}

// script returns a setup that writes name into the project with body (and t.txt: targetFile).
func script(name, body string) func(t *testing.T, p, target string) []v2.Option {
	return func(t *testing.T, p, target string) []v2.Option {
		writeFile(t, filepath.Join(p, name), body+"\n")
		return targetFile(t, p, target)
	}
}

// targetFile writes the target's path into the project's t.txt, for commands that read it there
// (so that no command names the outside path, which the policy would refuse).
func targetFile(t *testing.T, p, target string) []v2.Option {
	writeFile(t, filepath.Join(p, "t.txt"), target+"\n")
	return nil
}

// TestRealCLI_ConfinementEscapes runs each escape through the real CLI in a session guarded by
// policy.Confined(project): with WithPolicy alone (Landlock), and with WithSandbox too (an outer
// bubblewrap, inside which the CLI's own bubblewrap runs each Bash command), nothing outside the
// project changes while a write inside it works; with WithoutOSConfinement, the same escape
// writes outside (so the test fails without the kernel's confinement).
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
				p := policy.Confined(env.project)
				opts := []v2.Option{v2.WithPolicy(p), v2.WithAllowedTools("Bash")}
				if esc.setup != nil {
					opts = append(opts, esc.setup(t, env.project, target)...)
				}
				switch mode {
				case "confined+WithSandbox":
					opts = append(opts, v2.WithSandbox(v2.PolicySandbox(p)))
				case "WithoutOSConfinement":
					opts = append(opts, v2.WithoutOSConfinement())
				}
				run(t, env.session(t, opts...), "go")
				b, _ := os.ReadFile(target)
				if pwned, want := strings.Contains(string(b), "pwned"), mode == "WithoutOSConfinement"; pwned != want {
					t.Errorf("outside file written = %v, want %v (it holds %q)", pwned, want, b)
				}
				if !env.exists("inside.txt") {
					t.Errorf("the write inside the project failed")
					for _, r := range env.api.Requests() {
						for _, b := range r.ToolResults() {
							t.Logf("tool result: %s", b.ContentText())
						}
					}
				}
				refused := slices.ContainsFunc([]string{"ermission denied", "not permitted", "cross-device", "Read-only file system"},
					func(s string) bool { return len(env.requestsContaining(s)) > 0 })
				if mode != "WithoutOSConfinement" && esc.calls != nil && !refused {
					t.Errorf("no tool result told the model the write was refused")
				}
			})
		}
	}
}
