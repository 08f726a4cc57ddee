// Package pgstore keeps the SDK's session transcripts in PostgreSQL: a sessions.ReadableStore on a
// pgx connection pool (github.com/jackc/pgx/v5/pgxpool). Give it to v2.WithSessionStore to mirror
// each session's transcripts as the CLI writes them, and to resume a session on any machine that
// reaches the database (v2.WithResume copies the session from the store when the machine's CLI
// config directory lacks it):
//
//	pool, err := pgxpool.New(ctx, "postgres://app@db/agents")
//	...
//	store := pgstore.New(pool)
//	s, err := v2.CreateSession(ctx, v2.WithSessionStore(store), v2.WithResume(id))
//
// The tables (two, in the schema WithSchema names) are created by Migrate, or on the store's first
// use. Entries are kept as the CLI wrote them (PostgreSQL's json type, not jsonb: the text is kept,
// "\u0000" included); an entry whose "uuid" the transcript already has is not stored again, so the
// SDK's at-least-once delivery and a repeated sessions.Dir.CopyToStore leave one copy of each.
// Every call honours its context; the pool is the caller's to close.
package pgstore
