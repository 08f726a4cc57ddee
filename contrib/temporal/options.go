package temporalagent

import (
	"context"
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

// WithHeartbeatEvery is how often the activity heartbeats while the turn runs, whatever the CLI
// says (a long tool says nothing). Keep it well under the activity's HeartbeatTimeout. Default:
// 10 seconds.
func WithHeartbeatEvery(d time.Duration) Option {
	return optionFunc(func(a *Activities) { a.heartbeatEvery = d })
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
