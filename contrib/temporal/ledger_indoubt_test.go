package temporalagent

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The calls in doubt of a turn's ledger, with the keys their next requests get: a call recorded
// and never done keeps the key it was given (or, in an entry older than the key, the one it would
// have had); once a request of that key is done, the call is no longer in doubt; two calls of
// one tool and input keep a key each.
func TestInDoubtKeys(t *testing.T) {
	call := func(attempt int, id, key, idem string) LedgerEntry {
		return LedgerEntry{Kind: EntryCall, Attempt: attempt, ToolUseID: id, ToolName: "pay", CallKey: key, IdempotencyKey: idem}
	}
	done := func(attempt int, id string) LedgerEntry {
		return LedgerEntry{Kind: EntryDone, Attempt: attempt, ToolUseID: id, Result: "ok"}
	}
	tests := []struct {
		name    string
		entries []LedgerEntry
		want    []string // the keys in doubt, in order
	}{
		{"none", nil, nil},
		{"a done call", []LedgerEntry{call(1, "a", "k1", "t/a"), done(1, "a")}, nil},
		{"in flight", []LedgerEntry{call(1, "a", "k1", "t/a"), done(1, "a"), call(1, "b", "k2", "t/b")}, []string{"t/b"}},
		{"an entry older than the key", []LedgerEntry{call(1, "b", "k2", "")}, []string{"t/b"}},
		{"asked again and done", []LedgerEntry{call(1, "b", "k2", "t/b"), call(2, "b2", "k2", "t/b"), done(2, "b2")}, nil},
		{"asked again, in doubt again", []LedgerEntry{call(1, "b", "k2", "t/b"), call(2, "b2", "k2", "t/b")}, []string{"t/b"}},
		{"two calls of one tool and input", []LedgerEntry{call(1, "b", "k2", "t/b"), call(1, "c", "k2", "t/c")}, []string{"t/b", "t/c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range foldLedger(tt.entries).inDoubt("t") {
				got = append(got, c.idem)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keys in doubt (-want +got):\n%s", diff)
			}
		})
	}
}

// A guard gives a request for a call in doubt that call's key, once; any other request a key of
// its own.
func TestGuardIdempotencyKey(t *testing.T) {
	g := &ledgerGuard{turn: "t", inDoubt: []ledgerCall{{toolUseID: "b", key: "k2", idem: "t/b"}}}
	key := func(id, k string) string { s, _ := g.idempotencyKey(id, k); return s }
	got := []string{key("b2", "k2"), key("b3", "k2"), key("x", "k9")}
	if diff := cmp.Diff([]string{"t/b", "t/b3", "t/x"}, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}

// failingLedger fails its first Append, then records.
type failingLedger struct {
	Ledger
	failed bool
}

func (l *failingLedger) Append(context.Context, string, int, LedgerEntry) error {
	if !l.failed {
		l.failed = true
		return errors.New("the database is away")
	}
	return nil
}

// A request for a call in doubt that the ledger could not record is refused and keeps the call's
// key for the next request: the tool must not see a new key for the same call.
func TestGuardKeepsTheKeyOfARefusedCall(t *testing.T) {
	g := &ledgerGuard{turn: "t", ledger: &failingLedger{}, keys: &idempotencyKeys{}, logger: slog.Default(),
		inDoubt: []ledgerCall{{toolUseID: "b", key: ApprovalID("Bash", shared.ToolInput{"command": "pay"}), idem: "t/b"}}}
	ask := func(id string) shared.HookOutput {
		out, err := g.pre(context.Background(), &shared.PreToolUseHookInput{ToolCallFields: shared.ToolCallFields{
			ToolName: "Bash", ToolUseID: id, ToolInput: shared.ToolInput{"command": "pay"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := ask("b2"); out == nil {
		t.Fatal("the request the ledger could not record ran")
	}
	if out := ask("b3"); out != nil {
		t.Fatalf("the next request was refused: %+v", out)
	}
	if k, ok := g.keys.get("b3"); !ok || k != "t/b" {
		t.Errorf("the next request's key = %q, %v; want the call's own, t/b", k, ok)
	}
}
