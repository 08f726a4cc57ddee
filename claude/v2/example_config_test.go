package v2_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A typed answer: the schema comes from the Go type, the CLI makes the model fill it, and RunAs
// decodes it. A budget and a fallback model bound what the session may cost and how it copes with
// an overloaded model. (It needs the claude CLI, so it is compiled but not run by go test.)
func ExampleRunAs() {
	type Review struct {
		Verdict  string   `json:"verdict"`
		Problems []string `json:"problems"`
	}
	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithOutputSchemaFor[Review](),
		v2.WithClaudeCodeSystemPrompt(),
		v2.WithTools("Read", "Grep", "Glob"),
		v2.WithMaxBudgetUSD(0.50),
		v2.WithFallbackModels("claude-sonnet-4-5"),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	review, _, err := v2.RunAs[Review](ctx, s, "review main.go")
	switch {
	case errors.Is(err, v2.ErrMaxBudget):
		log.Fatal("the review cost more than $0.50")
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(review.Verdict, review.Problems)
}

// The CLI in a container: the wrapper's command gets the CLI's path and arguments. The session's
// environment goes to the wrapper (the docker client), not into the container: pass what the CLI
// needs with docker's own -e. Close ends the docker client; `docker exec -i` ends the CLI when its
// stdin closes. (It needs docker, so it is compiled but not run by go test.)
func ExampleWithWrapper() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithWrapper("docker", "exec", "-i", "-e", "ANTHROPIC_API_KEY", "-w", "/work", "agent-box"),
		v2.WithCLIPath("/usr/local/bin/claude"), // inside the container
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	png, err := os.ReadFile("screenshot.png")
	if err != nil {
		log.Fatal(err)
	}
	for msg, err := range s.QueryContent(ctx, v2.TextBlock("What does this screen show?"), v2.ImageBlock("image/png", png)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(msg.Type())
	}
}
