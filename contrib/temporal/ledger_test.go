package temporalagent_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
	"github.com/hookwire/agent-sdk-go/contrib/temporal/pgledger"
)

// testLedgers are the ledgers under test: a FileLedger, and pgledger when $PGSTORE_TEST_DSN names
// a database (required when CI=true).
func testLedgers(t *testing.T) map[string]temporalagent.Ledger {
	t.Helper()
	out := map[string]temporalagent.Ledger{"FileLedger": temporalagent.FileLedger{Dir: t.TempDir()}}
	dsn := os.Getenv("PGSTORE_TEST_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("PGSTORE_TEST_DSN is not set (CI=true): start a database with eval \"$(.ci/postgres)\"")
		}
		return out
	}
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	schema := "temporalagent_" + randomTag()
	t.Cleanup(func() { _, _ = pool.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	out["pgledger"] = pgledger.New(pool, pgledger.WithSchema(schema))
	return out
}

// A turn's ledger: the owner's writes are kept in order; a later attempt's claim returns them and
// the previous owner's remaining lease, and fences the earlier one: it can neither write, renew,
// nor claim again.
func TestLedgerFencesEarlierAttempts(t *testing.T) {
	ctx := context.Background()
	for name, l := range testLedgers(t) {
		t.Run(name, func(t *testing.T) {
			const turn = "wf/run/1"
			entries, wait, err := l.Claim(ctx, turn, 1, time.Hour)
			if err != nil || len(entries) != 0 || wait != 0 {
				t.Fatalf("first claim = %v, %s, %v; want no entries, no wait", entries, wait, err)
			}
			written := []temporalagent.LedgerEntry{
				{Kind: temporalagent.EntryStart, Attempt: 1},
				{Kind: temporalagent.EntryCall, Attempt: 1, SessionID: "s", ToolUseID: "toolu_A", ToolName: "Bash", CallKey: "k"},
				{Kind: temporalagent.EntryDone, Attempt: 1, ToolUseID: "toolu_A", Result: "A\n"},
			}
			for _, e := range written {
				if err := l.Append(ctx, turn, 1, e); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Renew(ctx, turn, 1, time.Hour); err != nil {
				t.Fatal(err)
			}
			entries, wait, err = l.Claim(ctx, turn, 2, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(written, entries); diff != "" {
				t.Errorf("the second claim's entries (-want +got):\n%s", diff)
			}
			if wait < 59*time.Minute {
				t.Errorf("the second claim waits %s, want the first owner's lease (about an hour)", wait)
			}
			for what, err := range map[string]error{
				"append": l.Append(ctx, turn, 1, temporalagent.LedgerEntry{Kind: temporalagent.EntryCall, Attempt: 1}),
				"renew":  l.Renew(ctx, turn, 1, time.Hour),
				"claim": func() error {
					_, _, err := l.Claim(ctx, turn, 1, time.Hour)
					return err
				}(),
			} {
				if !errors.Is(err, temporalagent.ErrFenced) {
					t.Errorf("the fenced attempt's %s: %v, want ErrFenced", what, err)
				}
			}
			if err := l.Append(ctx, turn, 2, temporalagent.LedgerEntry{Kind: temporalagent.EntryStart, Attempt: 2}); err != nil {
				t.Errorf("the owner's append: %v", err)
			}
			if _, wait, err := l.Claim(ctx, "wf/run/2", 1, time.Second); err != nil || wait != 0 {
				t.Errorf("another turn's claim = %s, %v; want its own, no wait", wait, err)
			}
		})
	}
}
