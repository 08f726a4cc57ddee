package v2_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// matcherCase is one matcher string with the tools (of Bash, Read, Write) that the SDK's handler
// sees and that the CLI's own matching fires for.
type matcherCase struct {
	matcher  string
	sdk, cli string // tool initials: "BRW"
}

// The SDK's matcher semantics against the CLI's, for one string at a time: the CLI's own matching
// is observed through a settings command hook registered with the same string, the SDK's through a
// Go hook. For exact-name lists they agree, and the SDK registers the union list with the CLI. For
// regexes and globs they may differ; the SDK then registers "" and filters locally, so its own
// semantics (anchored regex, globs) decide what a Go hook sees.
func TestRealCLI_MatcherSemantics(t *testing.T) {
	t.Parallel()
	t.Run("lists", func(t *testing.T) {
		t.Parallel()
		runMatcherTable(t, []matcherCase{
			{"Bash", "B", "B"},
			{"Bash|Read", "BR", "BR"},
			{"Read, Write", "RW", "RW"},
			{"Read,Write", "RW", "RW"},
			{" Bash,", "B", "B"},
			{"Read|Write|Bash ", "BRW", "BRW"},
			{"Read Write", "", ""},
			{"bash", "", ""},
			{"Ba", "", ""},
			{"Bash-x|Wri", "", ""},
		})
	})
	t.Run("regex and glob", func(t *testing.T) {
		t.Parallel()
		runMatcherTable(t, []matcherCase{
			{"", "BRW", "BRW"},
			{"*", "BRW", "BRW"},
			{".*", "BRW", "BRW"},
			{"[BR].*", "BR", "BR"},
			{"Rea(d)?", "R", "R"},
			{"^B.*$", "B", "B"},
			{"Write*", "W", "W"},
			// The SDK anchors its regexes; the CLI does not.
			{"as.", "", "B"},
			{"e.*", "", "RW"},
			{"B.", "", "B"},
			// '*' and '?' make a glob for the SDK; for the CLI they are regex operators, or invalid.
			{"R*", "R", "BRW"},
			{"*ead", "R", ""},
			{"Wri?e", "W", ""},
			{"Bas?", "B", "B"},
		})
	})
}

func runMatcherTable(t *testing.T, cases []matcherCase) {
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolsReply(
			claudetest.ToolUse{ID: "toolu_b", Name: "Bash", Input: bash("echo hi")},
			claudetest.ToolUse{ID: "toolu_r", Name: "Read", Input: map[string]any{"file_path": filepath.Join(p, "r.txt")}},
			claudetest.ToolUse{ID: "toolu_w", Name: "Write", Input: map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}},
		), claudetest.TextReply("done")}
	})
	if err := os.WriteFile(env.path("r.txt"), []byte("r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marks := t.TempDir()
	type cmdHook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type cmdMatcher struct {
		Matcher string    `json:"matcher"`
		Hooks   []cmdHook `json:"hooks"`
	}
	var cmdMatchers []cmdMatcher
	var mu sync.Mutex
	sdkSaw := make([]string, len(cases))
	var cfgs []shared.HookConfig
	for i, c := range cases {
		file := filepath.Join(marks, fmt.Sprintf("m%d.jsonl", i))
		cmdMatchers = append(cmdMatchers, cmdMatcher{Matcher: c.matcher, Hooks: []cmdHook{{Type: "command", Command: fmt.Sprintf("(cat; echo) >> '%s'", file)}}})
		cfgs = append(cfgs, shared.HookConfig{Matcher: c.matcher, Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			mu.Lock()
			sdkSaw[i] += in.ToolName[:1]
			mu.Unlock()
			return nil, nil
		})})
	}
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": cmdMatchers}})
	if err != nil {
		t.Fatal(err)
	}
	// Matchers naming no tool are the point here: accepted (else ErrGuardCannotFire).
	s := env.session(t, v2.WithAllowedTools("Bash", "Read", "Write"), v2.WithSettings(string(settings)),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: cfgs}), v2.WithAllowUnenforcedHooks())
	msgs, _ := query(t, s, "use three tools")
	if n := len(toolResults(msgs)); n != 3 {
		t.Fatalf("%d tool results, want 3", n)
	}
	if !env.exists("w.txt") {
		t.Error("Write did not run")
	}
	norm := func(s string) string {
		b := []byte(s)
		slices.Sort(b)
		return string(slices.Compact(b))
	}
	for i, c := range cases {
		var cliSaw string
		if b, err := os.ReadFile(filepath.Join(marks, fmt.Sprintf("m%d.jsonl", i))); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				var in struct {
					ToolName string `json:"tool_name"`
				}
				if json.Unmarshal([]byte(line), &in) == nil && in.ToolName != "" {
					cliSaw += in.ToolName[:1]
				}
			}
		}
		mu.Lock()
		sdk := norm(sdkSaw[i])
		mu.Unlock()
		if sdk != c.sdk || norm(cliSaw) != c.cli {
			t.Errorf("matcher %q: Go hook saw %q (want %q), CLI command hook fired for %q (want %q)", c.matcher, sdk, c.sdk, norm(cliSaw), c.cli)
		}
		// The SDK's own matcher function decides the same as the run.
		var local string
		for _, tool := range []string{"Bash", "Read", "Write"} {
			if (shared.HookConfig{Matcher: c.matcher}).MatchesToolName(tool) {
				local += tool[:1]
			}
		}
		if local != c.sdk {
			t.Errorf("matcher %q: MatchesToolName gives %q, the run %q", c.matcher, local, c.sdk)
		}
	}
}
