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
