// Command hooks-validation keeps an agent's writes inside its project directory (user story
// US-1) with one line: v2.WithPolicy(policy.Confined(dir)). The policy's PreToolUse hook checks
// every file tool by the path it names and every Bash command by what it writes (redirections,
// cp, sed -i, ...), resolved as the tool resolves them; see package claude/policy.
//
//	go run -C examples ./hooks-validation            # offline: the real CLI, a scripted fake model
//	go run -C examples ./hooks-validation -real-api  # the real model (needs ANTHROPIC_API_KEY)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
)

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("hooks-validation", flag.ContinueOnError)
	f := demo.NewFlags(fs, "Create /etc/hooks-demo.conf, then write a short note to notes.txt in the project.")
	outside := fs.String("outside", "/etc/hooks-demo.conf", "new file the scripted model tries to create outside the project (fake API only)")
	script := func(dir string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": *outside, "content": "owned = true\n"}),
			claudetest.ToolReply("toolu_02", "Bash", map[string]any{"command": "echo escaped > ../escape.txt", "description": "write next to the project"}),
			claudetest.ToolReply("toolu_03", "Bash", map[string]any{"command": "sed -i 's/owned/pwned/' " + *outside, "description": "edit outside"}),
			claudetest.ToolReply("toolu_04", "Bash", map[string]any{"command": "cd .. && touch escape.txt", "description": "write next to the project"}),
			claudetest.ToolReply("toolu_05", "Write", map[string]any{"file_path": filepath.Join(dir, "notes.txt"), "content": "hooks work\n"}),
			claudetest.TextReply("I could not touch files outside the project; notes.txt is written."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		_, statErr := os.Stat(*outside)
		existed := statErr == nil
		// The policy: writes only inside env.Dir, never .git, .env*, .claude/settings*.json. Its
		// decision log prints each decision; the hook denies with a reason naming the rule, and
		// allows what it accepts, so the CLI needs no permission rule for those writes.
		p := policy.Confined(env.Dir, policy.WithDecisionLog(func(_ context.Context, e policy.Event) {
			fmt.Printf("hook: PreToolUse %s %s -> %s\n", e.ToolName, demo.Abbrev(e.Subject, 100), e.Decision)
		}))
		s, err := v2.CreateSession(ctx, env.Options(v2.WithPolicy(p))...)
		if err != nil {
			return err
		}
		defer s.Close()
		if _, err := demo.RunPrompt(ctx, s, f.Prompt, os.Stdout); err != nil {
			return err
		}
		if env.RealAPI {
			return nil // what a real model did is up to it; the hook lines above tell the story
		}
		_, statErr = os.Stat(*outside)
		_, notesErr := os.Stat(filepath.Join(env.Dir, "notes.txt"))
		_, escErr := os.Stat(filepath.Join(filepath.Dir(env.Dir), "escape.txt"))
		checks := demo.Checks{W: os.Stdout} // a failed check makes the program exit non-zero
		checks.Check("notes.txt written in the project", notesErr == nil)
		checks.Check(*outside+" not created", existed || errors.Is(statErr, os.ErrNotExist))
		checks.Check("../escape.txt not created", errors.Is(escErr, os.ErrNotExist))
		return checks.Err()
	})
}
