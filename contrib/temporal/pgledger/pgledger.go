// Package pgledger is a temporalagent.Ledger on PostgreSQL: a turn's entries in one table, its
// owner and lease in another, each write in a transaction that checks the writer still owns the
// turn. The lease is counted on the database's clock, so workers' clocks do not matter for it.
package pgledger

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// Ledger is a temporalagent.Ledger on PostgreSQL. Make one with New. It is safe for concurrent
// use, by several processes.
type Ledger struct {
	pool    *pgxpool.Pool
	schema  string
	turns   string // the tables' names, quoted and qualified
	entries string

	mu       sync.Mutex // held while migrating
	migrated bool
}

var _ temporalagent.Ledger = (*Ledger)(nil)

// Option configures a Ledger.
type Option func(*Ledger)

// WithSchema puts the ledger's tables in schema, which Migrate creates if need be. Default:
// "public".
func WithSchema(schema string) Option { return func(l *Ledger) { l.schema = schema } }

// New returns a Ledger on pool. It does not connect: the first call (or Migrate) does.
func New(pool *pgxpool.Pool, opts ...Option) *Ledger {
	l := &Ledger{pool: pool, schema: "public"}
	for _, o := range opts {
		o(l)
	}
	l.turns = pgx.Identifier{l.schema, "temporalagent_turns"}.Sanitize()
	l.entries = pgx.Identifier{l.schema, "temporalagent_ledger"}.Sanitize()
	return l
}

// Migrate creates the ledger's schema and tables if they do not exist. The other methods call it
// once (until it succeeds). Concurrent Migrates are safe (an advisory lock).
func (l *Ledger) Migrate(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.migrated {
		return nil
	}
	err := pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		for _, q := range []string{
			"SELECT pg_advisory_xact_lock(hashtext('agent-sdk-go/contrib/temporal/pgledger'))",
			"CREATE SCHEMA IF NOT EXISTS " + pgx.Identifier{l.schema}.Sanitize(),
			`CREATE TABLE IF NOT EXISTS ` + l.turns + ` (
				turn        text PRIMARY KEY,
				attempt     integer NOT NULL,     -- the owner
				lease_until timestamptz NOT NULL  -- on the database's clock
			)`,
			`CREATE TABLE IF NOT EXISTS ` + l.entries + ` (
				seq   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
				turn  text NOT NULL,
				entry jsonb NOT NULL
			)`,
			"CREATE INDEX IF NOT EXISTS temporalagent_ledger_turn ON " + l.entries + " (turn, seq)",
		} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgledger: migrating schema %s: %w", l.schema, err)
	}
	l.migrated = true
	return nil
}

// Claim implements temporalagent.Ledger.
func (l *Ledger) Claim(ctx context.Context, turn string, attempt int, lease time.Duration) ([]temporalagent.LedgerEntry, time.Duration, error) {
	if err := l.Migrate(ctx); err != nil {
		return nil, 0, err
	}
	var entries []temporalagent.LedgerEntry
	var wait time.Duration
	err := pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO "+l.turns+" (turn, attempt, lease_until) VALUES ($1, 0, now()) ON CONFLICT DO NOTHING", turn); err != nil {
			return err
		}
		var owner int
		var left time.Duration
		err := tx.QueryRow(ctx, "SELECT attempt, GREATEST(lease_until - clock_timestamp(), '0'::interval) FROM "+l.turns+" WHERE turn = $1 FOR UPDATE", turn).Scan(&owner, &left)
		if err != nil {
			return err
		}
		if owner > attempt {
			return fmt.Errorf("%w (attempt %d, owner %d)", temporalagent.ErrFenced, attempt, owner)
		}
		if owner < attempt {
			wait = left
		}
		if _, err := tx.Exec(ctx, "UPDATE "+l.turns+" SET attempt = $2, lease_until = clock_timestamp() + $3 WHERE turn = $1", turn, attempt, wait+lease); err != nil {
			return err
		}
		entries, err = l.read(ctx, tx, turn)
		return err
	})
	if err != nil && !errors.Is(err, temporalagent.ErrFenced) {
		err = fmt.Errorf("pgledger: claiming turn %s: %w", turn, err)
	}
	return entries, wait, err
}

// read returns turn's entries in order.
func (l *Ledger) read(ctx context.Context, tx pgx.Tx, turn string) ([]temporalagent.LedgerEntry, error) {
	rows, err := tx.Query(ctx, "SELECT entry::text FROM "+l.entries+" WHERE turn = $1 ORDER BY seq", turn)
	if err != nil {
		return nil, err
	}
	raw, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	out := make([]temporalagent.LedgerEntry, len(raw))
	for i, r := range raw {
		if err := jsonv2.Unmarshal([]byte(r), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Renew implements temporalagent.Ledger.
func (l *Ledger) Renew(ctx context.Context, turn string, attempt int, lease time.Duration) error {
	if err := l.Migrate(ctx); err != nil {
		return err
	}
	tag, err := l.pool.Exec(ctx, "UPDATE "+l.turns+" SET lease_until = clock_timestamp() + $3 WHERE turn = $1 AND attempt = $2", turn, attempt, lease)
	if err != nil {
		return fmt.Errorf("pgledger: renewing turn %s: %w", turn, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w (attempt %d)", temporalagent.ErrFenced, attempt)
	}
	return nil
}

// Append implements temporalagent.Ledger.
func (l *Ledger) Append(ctx context.Context, turn string, attempt int, e temporalagent.LedgerEntry) error {
	if err := l.Migrate(ctx); err != nil {
		return err
	}
	b, err := jsonv2.Marshal(e)
	if err != nil {
		return fmt.Errorf("pgledger: %w", err)
	}
	err = pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		var owner int
		if err := tx.QueryRow(ctx, "SELECT attempt FROM "+l.turns+" WHERE turn = $1 FOR SHARE", turn).Scan(&owner); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("%w (attempt %d: the turn was never claimed)", temporalagent.ErrFenced, attempt)
			}
			return err
		}
		if owner != attempt {
			return fmt.Errorf("%w (attempt %d, owner %d)", temporalagent.ErrFenced, attempt, owner)
		}
		_, err := tx.Exec(ctx, "INSERT INTO "+l.entries+" (turn, entry) VALUES ($1, $2::jsonb)", turn, string(b))
		return err
	})
	if err != nil && !errors.Is(err, temporalagent.ErrFenced) {
		err = fmt.Errorf("pgledger: appending to turn %s: %w", turn, err)
	}
	return err
}
