package pgstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/sessions/storetest"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pool returns a pool on the tests' database (testDSN: $PGSTORE_TEST_DSN, else a throw-away
// PostgreSQL the tests start), closed when t ends.
func pool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	dsn := testDSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if err := p.Ping(ctx); err != nil {
		t.Fatalf("the tests' database (%s): %v", dsn, err)
	}
	return p
}

// newStore returns a Store in a schema of its own, dropped when t ends.
func newStore(t *testing.T, p *pgxpool.Pool) (*pgstore.Store, string) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "pgstore_test_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := p.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("dropping %s: %v", schema, err)
		}
	})
	return pgstore.New(p, pgstore.WithSchema(schema)), schema
}

// The Store keeps the contract of sessions.ReadableStore.
func TestConformance(t *testing.T) {
	p := pool(t)
	storetest.Run(t, func(t *testing.T) sessions.ReadableStore {
		s, _ := newStore(t, p)
		return s
	})
}

var (
	ctxBg = context.Background()
	key   = sessions.Key{ProjectKey: "-w-p", SessionID: "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a01"}
)

// An entry delivered twice (the SDK's at-least-once Append, a repeated CopyToStore) is stored
// once; entries without a uuid are all kept; the text of each entry is kept as appended.
func TestDeduplicatesByUUID(t *testing.T) {
	s, _ := newStore(t, pool(t))
	e1 := jsontext.Value(`{"type":"user","uuid":"u1","text":"a  b"}`)
	e2 := jsontext.Value(`{"uuid":"u2","type":"assistant"}`)
	tag := jsontext.Value(`{"type":"tag","tag":"x"}`)
	for _, batch := range [][]jsontext.Value{{e1, tag}, {e1, e2, tag}, {e2}} {
		if err := s.Append(ctxBg, key, batch); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(ctxBg, key)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range got {
		texts = append(texts, string(e))
	}
	want := []string{string(e1), string(tag), string(e2), string(tag)}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}

// An entry that is not a JSON object fails Append, and nothing of the batch is stored.
func TestAppendRefusesNonObjects(t *testing.T) {
	s, _ := newStore(t, pool(t))
	for _, bad := range []string{`[1]`, `"s"`, `{"a":`, ``} {
		err := s.Append(ctxBg, key, []jsontext.Value{jsontext.Value(`{"uuid":"ok"}`), jsontext.Value(bad)})
		if err == nil {
			t.Errorf("Append of %q: no error", bad)
		}
	}
	if _, err := s.Load(ctxBg, key); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("Load after refused Appends = %v, want ErrNotFound", err)
	}
}

// Delete of a session removes it and its subagents, and nothing else.
func TestDelete(t *testing.T) {
	s, _ := newStore(t, pool(t))
	sub := key
	sub.AgentID = "a1"
	other := key
	other.SessionID = "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a02"
	for _, k := range []sessions.Key{key, sub, other} {
		if err := s.Append(ctxBg, k, []jsontext.Value{jsontext.Value(`{"type":"x"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctxBg, key); err != nil {
		t.Fatal(err)
	}
	for _, k := range []sessions.Key{key, sub} {
		if _, err := s.Load(ctxBg, k); !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("Load(%+v) after Delete = %v, want ErrNotFound", k, err)
		}
	}
	if _, err := s.Load(ctxBg, other); err != nil {
		t.Errorf("Delete removed another session: %v", err)
	}
	list, err := s.List(ctxBg, key.ProjectKey)
	if err != nil || len(list) != 1 || list[0].Key != other {
		t.Errorf("List after Delete = %+v, %v; want only %+v", list, err, other)
	}
	if err := s.Delete(ctxBg, key); err != nil {
		t.Errorf("Delete of a deleted session: %v", err)
	}
}

// Stores of many processes migrate the same schema at once without failing (the advisory
// lock), and later Migrates do nothing.
func TestMigrateConcurrently(t *testing.T) {
	p := pool(t)
	_, schema := newStore(t, p)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() { errs[i] = pgstore.New(p, pgstore.WithSchema(schema)).Migrate(ctxBg) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Migrate %d: %v", i, err)
		}
	}
}

// A call whose context ends while the database holds a lock it waits for returns by the
// context's deadline, with the context's error.
func TestContextEndsAWaitingCall(t *testing.T) {
	p := pool(t)
	s, schema := newStore(t, p)
	if err := s.Migrate(ctxBg); err != nil {
		t.Fatal(err)
	}
	tx, err := p.Begin(ctxBg)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctxBg)
	if _, err := tx.Exec(ctxBg, "LOCK TABLE "+pgx.Identifier{schema, "claude_entries"}.Sanitize()+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctxBg)
	done := make(chan error, 1)
	go func() {
		_, err := s.Load(ctx, key)
		done <- err
	}()
	// Cancel once the Load waits for the lock (pg_locks shows an ungranted lock).
	for {
		var waiting bool
		if err := p.QueryRow(ctxBg, "SELECT count(*) > 0 FROM pg_locks WHERE NOT granted").Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Load returned before waiting for the lock: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Load = %v, want an error wrapping context.Canceled", err)
	}
}
