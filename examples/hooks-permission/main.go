// Command hooks-permission answers the agent's permission prompts for Bash by policy (user story
// US-4): read-only commands are approved, destructive ones denied, the rest "ask", which in this
// unattended demo means deny. The same policy (package bashpolicy) is wired either as a
// PermissionRequest hook or as the can_use_tool callback.
//
//	go run -C examples ./hooks-permission                  # -mode hook: a PermissionRequest hook
//	go run -C examples ./hooks-permission -mode callback   # the can_use_tool callback
//	go run -C examples ./hooks-permission -real-api        # the real model (ANTHROPIC_API_KEY)
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
	"github.com/hookwire/agent-sdk-go/examples/hooks-permission/bashpolicy"
	"github.com/hookwire/agent-sdk-go/examples/hooks-validation/pathguard"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
)

// askAll is a settings layer with an "ask" rule for Bash: every Bash call needs a permission, so
// the policy decides them all. Without it the CLI approves what it deems read-only by itself and
// only asks for the rest.
const askAll = `{"permissions":{"ask":["Bash"]}}`

func bash(cmd string) map[string]any { return map[string]any{"command": cmd, "description": cmd} }

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("hooks-permission", flag.ContinueOnError)
	f := demo.NewFlags(fs, "List the project, then wipe the disk, then create touched.txt.")
	mode := fs.String("mode", "hook", "who answers permission prompts: hook (PermissionRequest) or callback (can_use_tool)")
	script := func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("ls -la")),
			// The canary: if this line ever ran, rm-canary.txt would appear, and `exit 0` ends the
			// shell before rm could start.
			claudetest.ToolReply("toolu_02", "Bash", bash("touch rm-canary.txt; exit 0; rm -rf /")),
			claudetest.ToolReply("toolu_03", "Bash", bash("touch touched.txt")),
			claudetest.TextReply("Listed the project; the other two commands were refused."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		opts := []v2.Option{v2.WithSettings(askAll)}
		switch *mode {
		case "hook":
			opts = append(opts, v2.WithHooks(shared.Hooks{shared.HookEventPermissionRequest: {{
				Matcher: "Bash",
				Handler: shared.OnPermissionRequest(func(ctx context.Context, in *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
					r := decide("hook", in.ToolName, in.ToolInput, in.Cwd, env.Dir)
					return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: r}}, nil
				}),
			}}}))
		case "callback":
			opts = append(opts, v2.WithCanUseTool(func(ctx context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
				return decide("callback", req.ToolName, req.Input, env.Dir, env.Dir), nil // can_use_tool carries no cwd
			}))
		default:
			return fmt.Errorf("-mode %q: want hook or callback", *mode)
		}
		s, err := v2.CreateSession(ctx, env.Options(opts...)...)
		if err != nil {
			return err
		}
		defer s.Close()
		if _, err := demo.RunPrompt(ctx, s, f.Prompt, os.Stdout); err != nil {
			return err
		}
		if !env.RealAPI {
			c := demo.Checks{W: os.Stdout}
			c.Check("rm-canary.txt absent (the rm line never ran)", absent(env.Dir, "rm-canary.txt"))
			c.Check("touched.txt absent (ask was denied)", absent(env.Dir, "touched.txt"))
			return c.Err()
		}
		return nil
	})
}

// decide applies the policy to one permission prompt and prints the decision.
func decide(who, tool string, in shared.ToolInput, cwd, root string) *shared.PermissionResult {
	if tool != "Bash" {
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "this demo only decides Bash"}
	}
	cmd := in.String("command")
	policy := bashpolicy.Policy{Inside: func(p string) bool {
		ok, err := pathguard.Inside(root, cwd, p)
		return err == nil && ok
	}}
	d := policy.Classify(cmd)
	fmt.Printf("permission (%s): Bash %s -> %s: %s\n", who, demo.Abbrev(cmd, 80), d.Verdict, d.Reason)
	switch d.Verdict {
	case bashpolicy.Allow:
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}
	case bashpolicy.Deny:
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "blocked by policy: " + d.Reason}
	}
	return &shared.PermissionResult{Behavior: shared.PermissionDeny,
		Message: "needs a human (" + d.Reason + "); this demo runs unattended, so ask means deny"}
}

func absent(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return errors.Is(err, os.ErrNotExist)
}
