package hooks_test

import (
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func ExampleMarshal() {
	// One helper, written in each event's own form.
	for _, e := range []shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPermissionRequest, shared.HookEventUserPromptSubmit} {
		b, err := hooks.Marshal(e, shared.Deny("no"))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(string(b))
	}

	// A helper that means nothing for an event is an error (the SDK then denies).
	_, err := hooks.Marshal(shared.HookEventUserPromptSubmit, shared.Ask("x"))
	fmt.Println(err)
	// Output:
	// {"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
	// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}
	// {"decision":"block","reason":"no"}
	// hooks: invalid hook output for UserPromptSubmit: decision "ask" is only meaningful for PreToolUse
}
