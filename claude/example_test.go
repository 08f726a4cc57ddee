package claude_test

import (
	"context"
	"fmt"
	"log"

	"github.com/hookwire/agent-sdk-go/claude"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A one-shot run with an audit hook on every tool call. (It needs the claude CLI, so it is
// compiled but not run by go test.)
func ExampleRun() {
	ctx := context.Background()
	audit := shared.OnPostToolUse(func(ctx context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		log.Printf("tool %s took %d ms", in.ToolName, in.DurationMS)
		return nil, nil
	})
	res, err := claude.Run(ctx, "list the files here",
		v2.WithAllowedTools("Bash(ls:*)"),
		v2.WithHook(shared.HookEventPostToolUse, "", audit),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result)
}
