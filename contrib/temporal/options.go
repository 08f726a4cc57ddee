package temporalagent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Option configures NewActivities.
type Option interface{ apply(*Activities) }

type optionFunc func(*Activities)

func (f optionFunc) apply(a *Activities) { f(a) }

// WithSessionOptions are the v2 options every session of the worker gets, after those the
// workflow chose (so they win): the CLI, its environment, the hooks and policy the program
// registers (they run on the worker, fail-closed as always), the logger. Default: none.
func WithSessionOptions(opts ...v2.Option) Option {
	return optionFunc(func(a *Activities) { a.sessionOpts = append(a.sessionOpts, opts...) })
}

// WithHeartbeatEvery is how often the activity heartbeats (and, with a ledger, renews its lease)
// while the turn runs, whatever the CLI says (a long tool says nothing). It must be shorter than
// the activity's HeartbeatTimeout (an attempt fails, not retried, when it is not). Default: a
// third of the activity's HeartbeatTimeout, 10 seconds without one.
func WithHeartbeatEvery(d time.Duration) Option {
	return optionFunc(func(a *Activities) {
		if d <= 0 {
			a.optErr = errors.New("temporalagent: WithHeartbeatEvery needs a positive duration")
		}
		a.heartbeatEvery = d
	})
}

// WithLedger records each turn in ledger (see Ledger): where a retry resumes, and every tool call
// before and after it runs, so that a call that ran is never run again by a retry, whatever the
// heartbeat throttle let through; the call in flight when a worker died runs at least once,
// unless its tool applies Activities.IdempotencyKey's key once. It
// fences the turn's attempts: an attempt taken for dead can start no tool call once the next one
// claimed the turn, and the next one starts its CLI only once the lease of the previous has
// lapsed. Pair it with WithStore, so that the session can be resumed on another worker.
// FileLedger keeps it in a directory, contrib/temporal/pgledger in PostgreSQL. Default: none; a
// retry resumes from the last heartbeat that reached the server, which the SDK throttles.
func WithLedger(ledger Ledger) Option {
	return optionFunc(func(a *Activities) { a.ledger = ledger })
}

// WithCancelCheckEvery is how often a turn asks the server whether the workflow cancelled it (the
// state of its pending activity): the Temporal SDK learns of a cancellation only in the answer to
// a heartbeat, which it sends at most once per throttle interval (0.8 x the heartbeat timeout, 48 s
// with DefaultActivityOptions). A cancelled turn ends its CLI at once, and the activity is
// reported cancelled. The check also ends an attempt whose activity the server already retried.
// Each check is one DescribeWorkflowExecution call per running turn. Negative: no check (a
// cancellation arrives with a heartbeat's answer). Default: 500 milliseconds (with 1 second, the
// time from CancelWorkflow to the CLI's end was 1.9 s at the median and up to 2.5 s; see
// docs/TEMPORAL.md).
func WithCancelCheckEvery(d time.Duration) Option {
	return optionFunc(func(a *Activities) { a.cancelEvery = d })
}

// WithLogger is the logger of the activities' own events (a fenced attempt, a ledger write that
// failed). Default: slog.Default().
func WithLogger(logger *slog.Logger) Option {
	return optionFunc(func(a *Activities) { a.logger = logger })
}

// WithStuckAfter is how long the CLI may say nothing (no message, while no approval is awaited)
// before the turn counts as stuck: the activity stops heartbeating, ends the CLI and fails with a
// retryable *StuckError, and the retry resumes the session. Make it longer than the longest tool
// call. Default: 10 minutes.
func WithStuckAfter(d time.Duration) Option {
	return optionFunc(func(a *Activities) { a.stuckAfter = d })
}

// WithStore mirrors every session's transcript to store (v2.WithSessionStore). A
// sessions.ReadableStore (sessions.FileStore, contrib/pgstore) also gives transcripts back: a
// retry or a later turn on a worker whose CLI lacks the session, or has an older copy of it,
// restores it from the store before resuming. With a store, a message becomes a turn's resume
// point only once the store has it. Default: no store; a session resumes only on a worker that
// has its transcript.
func WithStore(store sessions.Store) Option {
	return optionFunc(func(a *Activities) { a.store = store })
}

// WithConfigDir is the CLI's config directory on this worker (where it keeps transcripts), into
// which WithStore's store restores a transcript. Default: sessions.DefaultDir().
func WithConfigDir(dir string) Option {
	return optionFunc(func(a *Activities) { a.configDir = dir })
}

// WithWorkspaceRoot confines sessions to root: a SessionOptions.Cwd must lie inside it, and an
// empty one is root. Default: none (an empty Cwd is the worker's working directory).
func WithWorkspaceRoot(root string) Option {
	return optionFunc(func(a *Activities) { a.workspaceRoot = root })
}

// WithContinuePrompt is the prompt a resumed turn sends after its last completed message.
// Default: DefaultContinuePrompt.
func WithContinuePrompt(prompt string) Option {
	return optionFunc(func(a *Activities) { a.continuePrompt = prompt })
}

// DefaultContinuePrompt is what a turn resumed after a crash tells the model.
const DefaultContinuePrompt = "The session was interrupted (its worker stopped) and has been resumed here. " +
	"Go on with the task from where it stopped; the tool results above are complete."

// WithApprovals makes tool calls that rule matches wait for a decision of the workflow (see
// ApprovalRule). Default: none.
func WithApprovals(rule ApprovalRule) Option {
	return optionFunc(func(a *Activities) { r := rule; a.approvals = &r })
}

// WithTurnOptions adds v2 options made for each turn, after WithSessionOptions': fn gets the
// activity's context and the turn's working directory (resolved against WithWorkspaceRoot). For
// a guard that needs the session's directory, such as v2.WithPolicy(policy.Confined(cwd)), or
// instrumentation that needs the activity's context, such as
// otelagent.Instrument(tp, mp, otelagent.WithParent(ctx)) (the agent's spans become children of
// the activity's span when the worker uses Temporal's OpenTelemetry interceptor). Each
// WithTurnOptions adds its options, in order. Default: none.
func WithTurnOptions(fn func(ctx context.Context, cwd string) []v2.Option) Option {
	return optionFunc(func(a *Activities) { a.turnOpts = append(a.turnOpts, fn) })
}
