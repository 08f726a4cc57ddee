package v2_test

import (
	"context"
	"fmt"
	"log"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Pick up the newest session of a project from its first answer: find the answer in the stored
// transcript, and resume a fork of the session at it. (It needs the claude CLI, so it is compiled
// but not run by go test.)
func ExampleWithResumeAt() {
	ctx := context.Background()
	dir, err := sessions.DefaultDir()
	if err != nil {
		log.Fatal(err)
	}
	list, err := dir.List(ctx, "/home/me/app")
	if err != nil || len(list) == 0 {
		log.Fatal("no session: ", err)
	}
	var at string
	for m, err := range dir.Messages(list[0].Cwd, list[0].ID) {
		if a, ok := m.(*shared.AssistantMessage); err == nil && ok && a.Text() != "" {
			at = a.UUID
			break
		}
	}
	s, err := v2.CreateSession(ctx, v2.WithCwd(list[0].Cwd),
		v2.WithResume(list[0].ID), v2.WithResumeAt(at), v2.WithForkSession())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run(ctx, "Take another approach.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result)
}

// Undo the file changes of the latest prompt. (Compiled, not run.)
func ExampleSession_RewindFiles() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx, v2.WithCwd("/home/me/app"), v2.WithFileCheckpointing(), v2.WithAllowedTools("Write", "Edit"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(ctx, "Add a README."); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Run(ctx, "Now rewrite it in French."); err != nil {
		log.Fatal(err)
	}
	// The prompts' uuids are in the stored transcript.
	dir, _ := sessions.DefaultDir()
	var last string
	for m, err := range dir.Messages("/home/me/app", s.SessionID()) {
		if u, ok := m.(*shared.UserMessage); err == nil && ok && len(u.Blocks) == 0 {
			last = u.UUID
		}
	}
	plan, err := s.RewindFiles(ctx, last, true)
	if err != nil || !plan.CanRewind {
		log.Fatal("cannot rewind: ", err, plan.Error)
	}
	fmt.Println("would restore", plan.FilesChanged)
	if _, err := s.RewindFiles(ctx, last, false); err != nil {
		log.Fatal(err)
	}
}

// Mirror every transcript to a second directory as the CLI writes it. (Compiled, not run.)
func ExampleWithSessionStore() {
	ctx := context.Background()
	store := sessions.FileStore{Dir: sessions.Dir("/var/lib/agents/transcripts")}
	s, err := v2.CreateSession(ctx, v2.WithCwd("/home/me/app"), v2.WithSessionStore(store))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(ctx, "Summarise the README."); err != nil {
		log.Fatal(err)
	}
	// After Close, the copy reads as the CLI's own: store.Dir.Messages("/home/me/app", s.SessionID()).
}
