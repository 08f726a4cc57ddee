package claudetest_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Record a real session (with the user's ANTHROPIC_API_KEY, which the Recorder passes to the API
// and never writes down) into a script file, then replay it offline in a test.
func ExampleRecorder() {
	rec, err := claudetest.NewRecorder("") // https://api.anthropic.com
	if err != nil {
		log.Fatal(err)
	}
	defer rec.Close()

	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithBaseEnv(append(os.Environ(), "ANTHROPIC_BASE_URL="+rec.URL())...),
		v2.WithAllowedTools("Bash"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Run(ctx, "list the Go files and count their lines"); err != nil {
		log.Print(err)
	}
	s.Close()
	if err := rec.Save("testdata/incident.json"); err != nil {
		log.Fatal(err)
	}
	// In a test: claudetest.NewModel(replies...) with the replies of
	// claudetest.LoadScript("testdata/incident.json").
}

func ExampleLoadScript() {
	replies, err := claudetest.LoadScript("testdata/example_script.json")
	if err != nil {
		log.Fatal(err)
	}
	model := claudetest.NewModel(replies...)
	defer model.Close()
	for _, r := range replies {
		switch {
		case r.Status != 0:
			fmt.Println("error", r.Status, r.ErrorMessage, r.RetryAfter)
		case len(r.ToolUses) > 0:
			fmt.Printf("%s then %s %s\n", r.Text, r.ToolUses[0].Name, r.ToolUses[0].Input)
		default:
			fmt.Println(r.Text)
		}
	}
	// Output:
	// Listing. then Bash {"command":"ls"}
	// error 529 Overloaded 0s
	// error 429 Slow down. 1s
	// All done.
}
