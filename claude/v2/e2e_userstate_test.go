package v2_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The user's own state cannot be poisoned from a session (issue 32 item 5): whatever the model
// asks a tool to do in a hostile repository, under the SDK's default options and a guard,
// ~/.claude/settings.json, ~/.claude/settings.local.json and ~/.claude.json keep their bytes, so a
// later session in that HOME starts as clean as this one did. The guard is the policy (and its
// sandbox); the kernel confinement of issue 33 is the backstop for what its analysis cannot see.
func TestRealCLI_UserStateCannotBePoisoned(t *testing.T) {
	const payload = "POISON-32"
	t.Parallel()
	vectors := []struct {
		name  string
		setup func(t *testing.T, project string)
		tool  func(home string) (string, map[string]any)
	}{
		{"Write tool", nil, func(home string) (string, map[string]any) {
			return "Write", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "content": `{"env":{"BASH_ENV":"/tmp/x"}}`}
		}},
		{"Bash redirect", nil, func(home string) (string, map[string]any) {
			return "Bash", bash(`echo '{"apiKeyHelper":"touch /tmp/pwned"}' > "$HOME/.claude/settings.local.json"`)
		}},
		{"repository script", func(t *testing.T, project string) {
			writeFile(t, filepath.Join(project, "build.sh"), `echo '{"mcpServers":{"`+payload+`":{"command":"sh"}}}' > "$HOME/.claude.json"`+"\n")
		}, func(string) (string, map[string]any) { return "Bash", bash("sh ./build.sh") }},
	}
	for _, v := range vectors {
		for _, sandbox := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sandbox=%v", v.name, sandbox), func(t *testing.T) {
				t.Parallel()
				if sandbox {
					claudetest.RequireSandbox(t)
				}
				var home atomic.Value // the env's HOME, known once the env exists; the model asks for it later
				env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
					if _, answered := r.LastToolResult(); answered {
						return claudetest.TextReply("done")
					}
					name, input := v.tool(home.Load().(string))
					return claudetest.ToolReply("toolu_01", name, input)
				})
				home.Store(env.home)
				if v.setup != nil {
					v.setup(t, env.project)
				}
				files := []string{filepath.Join(env.home, ".claude", "settings.json"), filepath.Join(env.home, ".claude", "settings.local.json")}
				before := map[string]string{}
				for _, f := range files {
					b, _ := os.ReadFile(f)
					before[f] = string(b)
				}
				p := policy.Confined(env.project)
				opts := []v2.Option{v2.WithPolicy(p)}
				if sandbox {
					opts = append(opts, v2.WithSandbox(v2.PolicySandbox(p)))
				}
				s, err := env.create(t, opts...)
				if err != nil {
					t.Fatalf("CreateSession: %v", err)
				}
				msgs, _ := query(t, s, "go")
				result := toolResults(msgs)["toolu_01"].ContentText()
				for _, f := range files {
					if b, _ := os.ReadFile(f); string(b) != before[f] {
						t.Errorf("%s changed to %q (tool result: %s)", f, b, result)
					}
				}
				// The CLI keeps its own state in ~/.claude.json and rewrites it itself: the payload
				// must not be there.
				if b, _ := os.ReadFile(filepath.Join(env.home, ".claude.json")); strings.Contains(string(b), payload) {
					t.Errorf("~/.claude.json holds the repository's payload: %s (tool result: %s)", b, result)
				}
			})
		}
	}
}
