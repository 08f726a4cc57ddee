package sessions_test

import (
	"context"
	"fmt"
	"os"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/sessions/storetest"
)

// Sessions kept in a store (here storetest.Memory, a SummaryStore; v2.WithSessionStore fills a
// store as the CLI writes): rename and tag one, fork it at its first message, and list them
// from the store's summaries.
func ExampleForkInStore() {
	ctx := context.Background()
	store := &storetest.Memory{}
	const project, id = "-home-me-demo", "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a01"
	key := sessions.Key{ProjectKey: project, SessionID: id}
	err := store.Append(ctx, key, []jsontext.Value{
		jsontext.Value(`{"type":"user","uuid":"00000000-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + id + `","message":{"role":"user","content":"fix the tests"}}`),
		jsontext.Value(`{"type":"assistant","uuid":"00000000-0000-4000-8000-000000000002","parentUuid":"00000000-0000-4000-8000-000000000001","sessionId":"` + id + `","message":{"role":"assistant","model":"claude-x","content":[{"type":"text","text":"done"}]}}`),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	_ = sessions.RenameInStore(ctx, store, project, id, "Tests")
	_ = sessions.TagInStore(ctx, store, project, id, "ci")
	fork, err := sessions.ForkInStore(ctx, store, project, id, sessions.ForkOptions{UpTo: "00000000-0000-4000-8000-000000000001"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	list, _ := sessions.ListStore(ctx, store, project)
	for _, s := range list {
		fmt.Printf("fork=%v title=%q tag=%q first=%q\n", s.ID == fork, s.Title, s.Tag, s.FirstPrompt)
	}
	// Unordered output:
	// fork=false title="Tests" tag="ci" first="fix the tests"
	// fork=true title="Tests (fork)" tag="" first="fix the tests"
}
