package pgstore_test

import (
	"context"
	"fmt"
	"os"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Mirror a session to PostgreSQL, and resume it from there on any machine whose CLI config
// directory lacks it.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	store := pgstore.New(pool, pgstore.WithSchema("agents"))
	if err := store.Migrate(ctx); err != nil {
		fmt.Println(err)
		return
	}
	s, err := v2.CreateSession(ctx, v2.WithSessionStore(store), v2.WithResume(os.Getenv("SESSION_ID")))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	res, err := s.Run(ctx, "Go on where we stopped.")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Result)
}
