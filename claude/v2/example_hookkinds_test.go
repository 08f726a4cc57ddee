package v2_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Hooks the CLI runs itself (settings hooks), next to a Go hook and a Go-side command hook.
func ExampleWithCommandHooks() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithSettings(`{"env":{"CI":"1"}}`), // kept; the hooks below are appended
		v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{
			shared.HookEventPreToolUse: {{Matcher: "Bash", Command: "./scripts/cli-guard.sh", Timeout: 10 * time.Second}},
		}),
		v2.WithPromptHooks(map[shared.HookEvent][]v2.SettingsPromptHook{
			shared.HookEventPreToolUse: {{Matcher: "Write", Prompt: "Does this write stay inside the project? $ARGUMENTS"}},
		}),
		v2.WithHooks(shared.Hooks{
			shared.HookEventPostToolUse: {{Name: "lint", Handler: v2.CommandHandler("./scripts/lint.sh", shared.CommandHookOptions{})}},
		}),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
}

// Hooks for a phase of the work, added to and removed from a running session.
func ExampleSession_RegisterScoped() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	readOnly := shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Write|Edit", Handler: shared.OnPreToolUse(
		func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			return shared.Deny("review phase: no edits"), nil
		})}}}
	if err := s.RegisterScoped(ctx, "review", readOnly); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Run(ctx, "review the change and list problems"); err != nil {
		log.Fatal(err)
	}
	s.UnregisterScoped("review")
}

// Every subagent gets its own guard, ended with it; an async audit hook; hook events on the stream.
func ExampleWithSubagentHooks() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithSubagentHooks(func(in *shared.SubagentStartHookInput) shared.Hooks {
			if in.AgentType == "Explore" {
				return nil
			}
			return shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(
				func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
					return shared.Deny("subagents do not run shell commands"), nil
				})}}}
		}),
		v2.WithHooks(shared.Hooks{shared.HookEventPostToolUse: {{Name: "audit", Handler: shared.OnPostToolUse(
			func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
				tool := in.ToolName
				return shared.Async(10*time.Second, func(ctx context.Context) (shared.HookOutput, error) {
					return nil, sendAudit(ctx, tool) // the agent does not wait for it
				}), nil
			})}}}),
		v2.WithHookEvents(),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for m, err := range s.Query(ctx, "split the work with a subagent") {
		if err != nil {
			log.Fatal(err)
		}
		if r, ok := m.(*shared.HookResponse); ok {
			fmt.Println(r.Source, r.HookName, r.Outcome, r.Duration)
		}
	}
}

func sendAudit(context.Context, string) error { return nil }
