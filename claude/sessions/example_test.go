package sessions_test

import (
	"context"
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// List the sessions run in a project, then read one's messages. DefaultDir gives the config
// directory the CLI uses; here it is a copy in testdata.
func Example() {
	dir := sessions.Dir("testdata/config")
	list, err := dir.List(context.Background(), "/home/me/demo")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range list {
		fmt.Printf("%s %q tag=%s first=%q model=%s cwd=%s\n", s.ID, s.Title, s.Tag, s.FirstPrompt, s.Model, s.Cwd)
		for m, err := range dir.Messages(s.Cwd, s.ID) {
			if err != nil {
				fmt.Println("unreadable line:", err) // reading goes on
				continue
			}
			switch m := m.(type) {
			case *shared.UserMessage:
				if len(m.Blocks) == 0 {
					fmt.Printf("  user: %s\n", m.Message.Content)
				} else {
					fmt.Printf("  user: %s %s\n", m.Blocks[0].Type, m.Blocks[0].ContentText())
				}
			case *shared.AssistantMessage:
				for _, b := range m.Message.Content {
					switch b.Type {
					case "text":
						fmt.Printf("  assistant: text %s\n", b.Text)
					case "tool_use":
						fmt.Printf("  assistant: tool_use %s %s\n", b.Name, b.Input)
					}
				}
			}
		}
	}
	// Output:
	// 6c1f3d4e-8a2b-4c5d-9e6f-7a8b9c0d1e2f "File listing" tag=demo first="list the files" model=claude-opus-5-5 cwd=/home/me/demo
	//   user: "list the files"
	//   assistant: tool_use Bash {"command":"ls","description":"List files"}
	//   user: tool_result README.md
	// main.go
	//   assistant: text Two files: README.md and main.go.
}

// ProjectKey names the directory of a working directory's sessions.
func ExampleProjectKey() {
	fmt.Println(sessions.ProjectKey("/home/me/my.app"))
	fmt.Println(sessions.ProjectKey(`C:\Users\me\app`))
	// Output:
	// -home-me-my-app
	// C--Users-me-app
}
