// Command hooks-validation shows a PreToolUse hook that keeps an agent's writes inside its project
// directory (user story US-1). The file-writing tools (shared.FileWriteToolsMatcher: Write, Edit,
// NotebookEdit, and MultiEdit of older CLIs) are checked by the path they write
// (shared.WrittenPaths), Bash calls by their output redirections (> and >>); the check itself is
// package pathguard.
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
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/examples/hooks-validation/pathguard"
	"github.com/hookwire/agent-sdk-go/internal/demo"
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
			claudetest.ToolReply("toolu_03", "Write", map[string]any{"file_path": filepath.Join(dir, "notes.txt"), "content": "hooks work\n"}),
			claudetest.TextReply("I could not touch files outside the project; notes.txt is written."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		_, statErr := os.Stat(*outside)
		existed := statErr == nil
		s, err := v2.CreateSession(ctx, env.Options(
			// Permission rules let edits through without a prompt; the hook runs before them and
			// is what keeps them in the project.
			v2.WithAllowedTools("Write", "Edit", "NotebookEdit"),
			v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{
				Matcher: shared.FileWriteToolsMatcher + "|Bash",
				Handler: shared.OnPreToolUse(guard(env.Dir)),
			}}}),
		)...)
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
		fmt.Printf("check: notes.txt written in the project: %v\n", notesErr == nil)
		fmt.Printf("check: %s not created: %v\n", *outside, existed || errors.Is(statErr, os.ErrNotExist))
		fmt.Printf("check: ../escape.txt not created: %v\n", errors.Is(escErr, os.ErrNotExist))
		return nil
	})
}

// guard returns the PreToolUse handler: it denies a call that would write outside root, and has
// no opinion on the others, so the normal permission rules still apply to them.
func guard(root string) func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
	return func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		var paths []string
		var err error
		if in.ToolName == "Bash" {
			paths, err = pathguard.BashWriteTargets(in.ToolInput.String("command"))
		} else {
			// Write, Edit, MultiEdit: file_path; NotebookEdit: notebook_path. An input that names
			// no file is an error: denied.
			paths, err = shared.WrittenPaths(in.ToolName, in.ToolInput)
		}
		for _, p := range paths {
			if err != nil {
				break
			}
			var ok bool
			if ok, err = pathguard.Inside(root, in.Cwd, p); err == nil && !ok {
				err = fmt.Errorf("%s is outside the project directory %s", p, root)
			}
		}
		what := in.ToolName + " " + demo.Summary(in.ToolName, in.ToolInput)
		if err != nil {
			fmt.Printf("hook: PreToolUse %s -> deny: %v\n", what, err)
			return shared.Deny("blocked by the project guard: " + err.Error() + ". Write inside the project."), nil
		}
		fmt.Printf("hook: PreToolUse %s -> no objection (stays in the project)\n", what)
		return nil, nil
	}
}
