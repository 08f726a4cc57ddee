// Command agent is a user's program outside the repository: modpin's consumer check builds it
// from the modules a user fetches (the core, contrib/otel, contrib/pgstore and claudetest), with
// no replace.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	ctx := context.Background()
	opts := options(".")
	if dsn := os.Getenv("DATABASE_URL"); dsn != "" { // transcripts mirrored to PostgreSQL
		pool, err := pgxpool.New(ctx, dsn)
		if err != nil {
			log.Fatal(err)
		}
		defer pool.Close()
		opts = append(opts, v2.WithSessionStore(pgstore.New(pool)))
	}
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run(ctx, os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result)
}

// options denies every Bash call and traces the session with the global OpenTelemetry providers.
func options(dir string) []v2.Option {
	noBash := shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		return shared.Deny("no shell here"), nil
	})
	return []v2.Option{
		v2.WithCwd(dir),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: noBash}}}),
		v2.WithObserver(otelagent.New(nil, nil)),
	}
}
