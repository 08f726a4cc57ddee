package pgstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a sessions.ReadableStore on PostgreSQL. Make one with New. It is safe for concurrent
// use.
type Store struct {
	pool        *pgxpool.Pool
	schema      string // as given (WithSchema)
	transcripts string // the tables' names, quoted and qualified
	entries     string

	mu       sync.Mutex // held while migrating
	migrated bool
}

var (
	_ sessions.ReadableStore  = (*Store)(nil)
	_ sessions.DeletableStore = (*Store)(nil) // DeleteFromStore
	_ sessions.SummaryStore   = (*Store)(nil) // ListStore without a Load per session
)

// Option configures a Store.
type Option func(*Store)

// WithSchema puts the store's tables in schema, which Migrate creates if need be. Default:
// "public".
func WithSchema(schema string) Option { return func(s *Store) { s.schema = schema } }

// New returns a Store on pool. It does not connect: the first call (or Migrate) does.
func New(pool *pgxpool.Pool, opts ...Option) *Store {
	s := &Store{pool: pool, schema: "public"}
	for _, o := range opts {
		o(s)
	}
	s.transcripts = pgx.Identifier{s.schema, "claude_transcripts"}.Sanitize()
	s.entries = pgx.Identifier{s.schema, "claude_entries"}.Sanitize()
	return s
}

// Migrate creates the store's schema and tables if they do not exist. Each other method calls
// it once (until it succeeds); call it at start to find a database problem early, or to create
// the tables as a user with more rights than the application's. Concurrent Migrates, from this
// process or others, are safe (they take a transaction-level advisory lock).
func (s *Store) Migrate(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.migrated {
		return nil
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		stmts := []string{
			"SELECT pg_advisory_xact_lock(hashtext('agent-sdk-go/contrib/pgstore'))",
			"CREATE SCHEMA IF NOT EXISTS " + pgx.Identifier{s.schema}.Sanitize(),
			`CREATE TABLE IF NOT EXISTS ` + s.transcripts + ` (
				project_key text NOT NULL,
				session_id  text NOT NULL,
				agent_id    text NOT NULL, -- '' for the session's own transcript
				modified    timestamptz NOT NULL,
				PRIMARY KEY (project_key, session_id, agent_id)
			)`,
			`CREATE TABLE IF NOT EXISTS ` + s.entries + ` (
				seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- the order of the entries
				project_key text NOT NULL,
				session_id  text NOT NULL,
				agent_id    text NOT NULL,
				uuid        text, -- the entry's "uuid", if it has one
				entry       json NOT NULL
			)`,
			"CREATE INDEX IF NOT EXISTS claude_entries_key ON " + s.entries + " (project_key, session_id, agent_id, seq)",
			// The session's sessions.Summary, folded in Append (a session's own row only).
			"ALTER TABLE " + s.transcripts + " ADD COLUMN IF NOT EXISTS summary json",
			"CREATE UNIQUE INDEX IF NOT EXISTS claude_entries_uuid ON " + s.entries + " (project_key, session_id, agent_id, uuid) WHERE uuid IS NOT NULL",
		}
		if s.schema == "public" {
			stmts = append(stmts[:1], stmts[2:]...) // public exists; creating it needs rights the application may not have
		}
		for _, q := range stmts {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgstore: creating the tables in schema %q: %w", s.schema, err)
	}
	s.migrated = true
	return nil
}

// Append adds entries to key's transcript in one transaction, in order, leaving out each entry
// whose "uuid" the transcript already has, and sets the transcript's modification time to the
// database's clock. An entry that is not a JSON object fails it, and nothing is added.
func (s *Store) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pgstore: append: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if err := s.Migrate(ctx); err != nil {
		return err
	}
	texts := make([]string, len(entries))
	uuids := make([]*string, len(entries))
	for i, e := range entries {
		if !e.IsValid() || e.Kind() != '{' {
			return fmt.Errorf("pgstore: append to %s: entry %d is not one JSON object", describe(key), i)
		}
		var v struct {
			UUID *string `json:"uuid"`
		}
		_ = json.Unmarshal(e, &v) // a "uuid" that is not a string is no key to deduplicate by
		texts[i], uuids[i] = string(e), v.UUID
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `INSERT INTO `+s.entries+` (project_key, session_id, agent_id, uuid, entry)
			SELECT $1, $2, $3, u, e::json FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS t(u, e, i) ORDER BY i
			ON CONFLICT (project_key, session_id, agent_id, uuid) WHERE uuid IS NOT NULL DO NOTHING
			RETURNING uuid`,
			key.ProjectKey, key.SessionID, key.AgentID, uuids, texts)
		if err != nil {
			return err
		}
		inserted, err := pgx.CollectRows(rows, pgx.RowTo[*string])
		if err != nil {
			return err
		}
		// The upsert locks the row: the summary's read-fold-write below is serialised per key.
		var prev []byte
		err = tx.QueryRow(ctx, `INSERT INTO `+s.transcripts+` AS t (project_key, session_id, agent_id, modified)
			VALUES ($1, $2, $3, clock_timestamp())
			ON CONFLICT (project_key, session_id, agent_id) DO UPDATE SET modified = greatest(t.modified, excluded.modified)
			RETURNING summary::text`,
			key.ProjectKey, key.SessionID, key.AgentID).Scan(&prev)
		if err != nil || key.AgentID != "" {
			return err
		}
		summary, err := fold(prev, key, entries, uuids, inserted)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE `+s.transcripts+` SET summary = $4::json
			WHERE project_key = $1 AND session_id = $2 AND agent_id = $3`, key.ProjectKey, key.SessionID, key.AgentID, summary)
		return err
	})
	if err != nil {
		return fmt.Errorf("pgstore: append to %s: %w", describe(key), err)
	}
	return nil
}

// Load returns key's entries in the order they were appended: the text each was appended with.
// A key with no entries is sessions.ErrNotFound.
func (s *Store) Load(ctx context.Context, key sessions.Key) ([]jsontext.Value, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pgstore: load: %w", err)
	}
	if err := s.Migrate(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT entry::text FROM `+s.entries+`
		WHERE project_key = $1 AND session_id = $2 AND agent_id = $3 ORDER BY seq`,
		key.ProjectKey, key.SessionID, key.AgentID)
	if err != nil {
		return nil, fmt.Errorf("pgstore: load %s: %w", describe(key), err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (jsontext.Value, error) {
		var b []byte
		err := r.Scan(&b)
		return jsontext.Value(b), err
	})
	if err != nil {
		return nil, fmt.Errorf("pgstore: load %s: %w", describe(key), err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s in the database", sessions.ErrNotFound, describe(key))
	}
	return out, nil
}

// List returns the transcripts of projectKey: sessions' and subagents'.
func (s *Store) List(ctx context.Context, projectKey string) ([]sessions.Transcript, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pgstore: list: %w", err)
	}
	if err := s.Migrate(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT session_id, agent_id, modified FROM `+s.transcripts+` WHERE project_key = $1`, projectKey)
	if err != nil {
		return nil, fmt.Errorf("pgstore: list project %s: %w", projectKey, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sessions.Transcript, error) {
		t := sessions.Transcript{Key: sessions.Key{ProjectKey: projectKey}}
		err := r.Scan(&t.Key.SessionID, &t.Key.AgentID, &t.Modified)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("pgstore: list project %s: %w", projectKey, err)
	}
	return out, nil
}

// Delete removes key's transcript; for a session's own (AgentID ""), its subagents' too. Deleting
// a key the store does not have is not an error.
func (s *Store) Delete(ctx context.Context, key sessions.Key) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pgstore: delete: %w", err)
	}
	if err := s.Migrate(ctx); err != nil {
		return err
	}
	cond := "project_key = $1 AND session_id = $2 AND (agent_id = $3 OR $3 = '')"
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, table := range []string{s.entries, s.transcripts} {
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE "+cond, key.ProjectKey, key.SessionID, key.AgentID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgstore: delete %s: %w", describe(key), err)
	}
	return nil
}

// fold folds the entries this Append inserted (those without a uuid, and those whose uuid was
// not there yet) into the stored summary prev.
func fold(prev []byte, key sessions.Key, entries []jsontext.Value, uuids, inserted []*string) (string, error) {
	var sum sessions.Summary
	if prev != nil {
		if err := json.Unmarshal(prev, &sum); err != nil {
			return "", fmt.Errorf("the stored summary: %w", err)
		}
	}
	added := map[string]bool{}
	for _, u := range inserted {
		if u != nil {
			added[*u] = true
		}
	}
	var new []jsontext.Value
	for i, e := range entries {
		if uuids[i] == nil || added[*uuids[i]] {
			new = append(new, e)
			if uuids[i] != nil {
				delete(added, *uuids[i]) // the first of duplicates within one batch
			}
		}
	}
	out, err := json.Marshal(sessions.FoldSummary(sum, key, new))
	return string(out), err
}

// Summaries returns the summaries of projectKey's sessions, folded in Append, each with the
// Modified time of its transcript (the same row, so never older than List's).
func (s *Store) Summaries(ctx context.Context, projectKey string) ([]sessions.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pgstore: summaries: %w", err)
	}
	if err := s.Migrate(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT summary::text, modified FROM `+s.transcripts+`
		WHERE project_key = $1 AND agent_id = '' AND summary IS NOT NULL`, projectKey)
	if err != nil {
		return nil, fmt.Errorf("pgstore: summaries of project %s: %w", projectKey, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sessions.Summary, error) {
		var text []byte
		var sum sessions.Summary
		var modified time.Time
		if err := r.Scan(&text, &modified); err != nil {
			return sum, err
		}
		if err := json.Unmarshal(text, &sum); err != nil {
			return sum, err
		}
		sum.Modified = modified
		return sum, nil
	})
	if err != nil {
		return nil, fmt.Errorf("pgstore: summaries of project %s: %w", projectKey, err)
	}
	return out, nil
}

// describe names a key in errors.
func describe(k sessions.Key) string {
	var b strings.Builder
	fmt.Fprintf(&b, "session %s of project %s", k.SessionID, k.ProjectKey)
	if k.AgentID != "" {
		fmt.Fprintf(&b, ", subagent %s", k.AgentID)
	}
	return b.String()
}
