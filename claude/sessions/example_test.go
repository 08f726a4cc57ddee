package sessions_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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

// A session copied into a store (here a FileStore in another directory) lists and reads back from
// it, and copies out of it into a config directory that lacks it, as v2.WithResume does before
// the CLI resumes it on another machine.
func ExampleDir_CopyToStore() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(tmp)
	local := sessions.Dir(filepath.Join(tmp, "local"))
	const cwd = "/work/app"
	id := "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a01"
	path, _ := local.TranscriptPath(cwd, id)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"type":"user","message":{"role":"user","content":"hello"},"uuid":"u1"}`+"\n"), 0o600)

	store := sessions.FileStore{Dir: sessions.Dir(filepath.Join(tmp, "store"))}
	if err := local.CopyToStore(ctx, store, cwd, id); err != nil {
		fmt.Println(err)
		return
	}
	infos, _ := sessions.ListStore(ctx, store, sessions.ProjectKey(cwd))
	fmt.Println(len(infos), infos[0].FirstPrompt)

	elsewhere := sessions.Dir(filepath.Join(tmp, "elsewhere"))
	if err := elsewhere.CopyFromStore(ctx, store, cwd, id); err != nil {
		fmt.Println(err)
		return
	}
	for m := range elsewhere.Messages(cwd, id) {
		fmt.Printf("%T\n", m)
	}
	// Output:
	// 1 hello
	// *shared.UserMessage
}
