package shared_test

import (
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func ExampleCompileMatcher() {
	for _, pattern := range []string{"Write|Edit", "mcp__github__*", "Edit.*"} {
		m, err := shared.CompileMatcher(pattern)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, tool := range []string{"Write", "WriteFile", "mcp__github__create_issue", "EditX", "NotebookEdit"} {
			if m.Match(tool) {
				fmt.Printf("%-15s matches %s\n", pattern, tool)
			}
		}
	}
	_, err := shared.CompileMatcher("Bash(")
	fmt.Println(err != nil)
	// Output:
	// Write|Edit      matches Write
	// mcp__github__*  matches mcp__github__create_issue
	// Edit.*          matches EditX
	// true
}

func ExampleMarshalWireOutput() {
	// One helper, written in each event's own form.
	for _, e := range []shared.HookEvent{shared.HookEventPreToolUse, shared.HookEventPermissionRequest, shared.HookEventUserPromptSubmit} {
		b, err := shared.MarshalWireOutput(e, shared.Deny("no"))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(string(b))
	}

	// A helper that means nothing for an event is an error (the SDK then denies).
	_, err := shared.MarshalWireOutput(shared.HookEventUserPromptSubmit, shared.Ask("x"))
	fmt.Println(err)
	// Output:
	// {"decision":"block","reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}
	// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}
	// {"decision":"block","reason":"no"}
	// shared: invalid hook output for UserPromptSubmit: decision "ask" is only meaningful for PreToolUse
}
