package temporalagent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Ledger is the durable record of a turn's attempts (WithLedger): where the session is, where a
// retry resumes it, and each tool call before it runs and after it ran. It is written as the turn
// goes (not throttled like heartbeats), so a retry resumes from what the ledger holds, and a tool
// call the ledger marks done is never run again: the retry resumes after it, or, if the session
// resumes before it, answers the model's new request for it from the ledger.
//
// A turn has one owner at a time: the attempt that claimed it last. Its writes are fenced: an
// attempt that another one has claimed since can write nothing more, so a worker that lost its
// turn (it was thought dead) cannot start another tool call. Its lease tells the next attempt how
// long to wait before it starts its CLI: the owner renews it while it runs and ends its own CLI
// when it cannot.
//
// Implementations: FileLedger (a directory, one machine or a shared file system with working
// locks) and contrib/temporal/pgledger (PostgreSQL). Every method must be safe for concurrent
// use by several processes, and return only once what it wrote is durable.
type Ledger interface {
	// Claim makes attempt the owner of turn and returns the entries recorded so far, in order,
	// and how long the previous owner's lease still runs (0 if it has lapsed, or there was none).
	// The new owner's lease runs lease from the end of that wait. It fails with an error wrapping
	// ErrFenced when a later attempt owns turn.
	Claim(ctx context.Context, turn string, attempt int, lease time.Duration) ([]LedgerEntry, time.Duration, error)
	// Renew makes attempt's lease run lease from now; ErrFenced when attempt no longer owns turn.
	Renew(ctx context.Context, turn string, attempt int, lease time.Duration) error
	// Append records e if attempt owns turn; ErrFenced otherwise.
	Append(ctx context.Context, turn string, attempt int, e LedgerEntry) error
}

// ErrFenced is the error of a Ledger write by an attempt that no longer owns its turn.
var ErrFenced = errors.New("temporalagent: the turn was claimed by a later attempt")

// LedgerEntry kinds.
const (
	// EntryStart records an attempt's start: the session it resumes and where (empty for a new
	// session).
	EntryStart = "start"
	// EntryResume records a new resume point: a completed message of the turn that the store has.
	EntryResume = "resume"
	// EntryCall records a tool call about to run (written before the CLI runs it).
	EntryCall = "call"
	// EntryDone records a tool call that ran, with its result.
	EntryDone = "done"
)

// LedgerEntry is one record of a turn's ledger.
type LedgerEntry struct {
	// Kind is EntryStart, EntryResume, EntryCall or EntryDone.
	Kind string
	// Attempt is the activity attempt that wrote it.
	Attempt int
	// SessionID is the session (start, resume, call).
	SessionID string `json:",omitempty"`
	// ResumeAt is the message to resume at (resume), or where the attempt resumed (start).
	ResumeAt string `json:",omitempty"`
	// Completed are the ids of the turn's tool calls completed up to ResumeAt (resume).
	Completed []string `json:",omitempty"`
	// ToolUseID, ToolName and CallKey name the call (call, done); CallKey is ApprovalID's name of
	// its tool and input, which the model's request for the same call after a resume matches.
	ToolUseID string `json:",omitempty"`
	ToolName  string `json:",omitempty"`
	CallKey   string `json:",omitempty"`
	// IdempotencyKey is the key the call's tool is given (call; Activities.IdempotencyKey): the
	// turn and the tool_use id of the first request for the call, kept when the model asks for a
	// call in doubt again after a resume. Empty in entries written before it existed.
	IdempotencyKey string `json:",omitempty"`
	// Result is what the call returned, as the model saw it, cut to maxRecordedResult bytes
	// (done).
	Result string `json:",omitempty"`
	// Failed reports a call that ran and failed (done).
	Failed bool `json:",omitempty"`
}

// maxRecordedResult bounds a done entry's Result.
const maxRecordedResult = 16 << 10

// turnState is a turn's ledger read back: where a retry resumes and the calls it must not run
// again.
type turnState struct {
	attempts int    // the attempts that started
	session  string // the session the turn runs in
	start    string // where the first attempt resumed the session ("" for a new one)
	resume   *LedgerEntry
	calls    []ledgerCall // every call, in the order it was asked
}

// ledgerCall is one tool call of the ledger.
type ledgerCall struct {
	toolUseID, toolName, key, result string
	idem                             string // the IdempotencyKey it was given ("" in old entries)
	done, failed                     bool
}

// foldLedger reads entries into a turnState.
func foldLedger(entries []LedgerEntry) turnState {
	var s turnState
	index := map[string]int{}
	for i := range entries {
		e := entries[i]
		if e.SessionID != "" {
			s.session = e.SessionID
		}
		switch e.Kind {
		case EntryStart:
			if s.attempts == 0 {
				s.start = e.ResumeAt
			}
			s.attempts++
		case EntryResume:
			s.resume = &e
		case EntryCall:
			if _, ok := index[e.ToolUseID]; !ok {
				index[e.ToolUseID] = len(s.calls)
				s.calls = append(s.calls, ledgerCall{toolUseID: e.ToolUseID, toolName: e.ToolName, key: e.CallKey, idem: e.IdempotencyKey})
			}
		case EntryDone:
			i, ok := index[e.ToolUseID]
			if !ok {
				i = len(s.calls)
				index[e.ToolUseID] = i
				s.calls = append(s.calls, ledgerCall{toolUseID: e.ToolUseID, toolName: e.ToolName, key: e.CallKey})
			}
			s.calls[i].done, s.calls[i].result, s.calls[i].failed = true, e.Result, e.Failed
		}
	}
	return s
}

// progress is the Progress a retry resumes from.
func (s turnState) progress() (Progress, bool) {
	if s.attempts == 0 {
		return Progress{}, false
	}
	p := Progress{SessionID: s.session, ResumeAt: s.start, Resumes: s.attempts - 1}
	if s.resume != nil && s.resume.ResumeAt != "" {
		p.ResumeAt, p.InTurn, p.CompletedToolUses = s.resume.ResumeAt, true, slices.Clone(s.resume.Completed)
	}
	return p, true
}

// answered returns the calls that ran (done) but lie after where the retry resumes, so that the
// model asks for them again: the guard answers those from the ledger instead of running them.
// Calls that began and never finished are not in it: they run again (at least once).
func (s turnState) answered(completed []string) []ledgerCall {
	var out []ledgerCall
	for _, c := range s.calls {
		if c.done && !slices.Contains(completed, c.toolUseID) {
			out = append(out, c)
		}
	}
	return out
}

// inDoubt returns the calls that began and never finished, and so may have run, with their
// idempotency keys (turn names the turn, for entries that lack one): a call the model asks for
// again gets its key, so that a tool that takes the key applies it once. A call whose key a done
// call has (it was asked again and finished) is not in doubt.
func (s turnState) inDoubt(turn string) []ledgerCall {
	keyOf := func(c ledgerCall) string { return cmp.Or(c.idem, newIdempotencyKey(turn, c.toolUseID)) }
	seen := map[string]bool{} // keys done, or already in doubt
	for _, c := range s.calls {
		if c.done {
			seen[keyOf(c)] = true
		}
	}
	var out []ledgerCall
	for _, c := range s.calls {
		if k := keyOf(c); !c.done && !seen[k] {
			c.idem, seen[k] = k, true
			out = append(out, c)
		}
	}
	return out
}

// newIdempotencyKey is the key of a call first asked for as toolUseID in turn.
func newIdempotencyKey(turn, toolUseID string) string { return turn + "/" + toolUseID }

// FencedError is the failure of a turn whose attempt lost its claim on the ledger (another
// attempt claimed the turn, or the lease could not be renewed in time): it ended its CLI. It is
// retryable, but a later attempt owns the turn.
type FencedError struct {
	Err error
}

func (e *FencedError) Error() string {
	return fmt.Sprintf("temporalagent: this attempt no longer owns the turn, its CLI was ended: %v", e.Err)
}

func (e *FencedError) Unwrap() error { return e.Err }
