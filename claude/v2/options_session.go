package v2

import (
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// WithResume resumes the session with this id (--resume), a UUID: anything else (the CLI also
// takes a session's name) makes CreateSession fail with a *SessionIDError. Default: a new session.
// The CLI reuses
// the system prompt recorded at the conversation's first request; when the resumed session has
// WithSystemPrompt, WithAppendSystemPrompt or SessionStart additionalContext, the SDK passes
// --system-prompt-snapshot off so that they take effect. With WithSessionStore of a
// sessions.ReadableStore, a session whose transcript is not in the CLI's config directory is
// first copied there from the store (sessions.Dir.CopyFromStore), so that it resumes on a
// machine other than the one that ran it; a local transcript is used as it is.
func WithResume(sessionID string) Option {
	return setOption("WithResume", func(o *config) { o.resume = sessionID })
}

// WithResumeAt, with WithResume, resumes the session at the message whose uuid is messageUUID:
// the resumed conversation is the chain of messages up to and including that one, and what came
// after it is left out of every model request of the new session (--resume-session-at). The
// transcript keeps the dropped messages, on a branch the CLI no longer follows. messageUUID is the
// UUID of a user or assistant message: as the live stream gives it (shared.AssistantMessage.UUID,
// shared.UserMessage.UUID) or as sessions.Dir.Messages reads it back. It must be a UUID, else
// CreateSession fails with a *SessionIDError; a UUID not in the session makes the CLI exit at
// start, and CreateSession fail. Combine it with WithForkSession to keep the original session
// as it was. Default: the whole conversation is resumed.
func WithResumeAt(messageUUID string) Option {
	return setOption("WithResumeAt", func(o *config) { o.resumeAt = messageUUID })
}

// WithResumeDropsTurn, with WithResumeAt, declares the turn the resume means to drop: promptUUID
// is the UUID of that turn's prompt (a shared.UserMessage's, as sessions.Dir.Messages reads it
// back), and the CLI refuses the resume, so that CreateSession fails, when the messages after
// WithResumeAt's hold anything else (another turn, a queued prompt, a task notification)
// (--resume-drops-turn; the official SDKs' resumeDropsTurn). Use it to undo exactly one turn
// without losing more. Default: no check, everything after WithResumeAt's message is dropped. It
// must be a UUID (*SessionIDError).
func WithResumeDropsTurn(promptUUID string) Option {
	return setOption("WithResumeDropsTurn", func(o *config) { o.dropsTurn = promptUUID })
}

// WithContinue continues the most recent session in the working directory (--continue), or starts
// a new one if there is none. The SDK learns the session's id from the running CLI, so its
// synthesized SessionStart (source resume) runs after the CLI started and its additionalContext is
// dropped, with a warning in Info().Warnings: use WithResume to keep it. Default: off, a new
// session.
func WithContinue() Option {
	return setOption("WithContinue", func(o *config) { o.continueSession = true })
}

// WithForkSession, with WithResume or WithContinue, gives the resumed session a new id. Default:
// off, the resumed session keeps its id.
func WithForkSession() Option {
	return setOption("WithForkSession", func(o *config) { o.forkSession = true })
}

// WithSessionID sets the id of a new session (--session-id), a UUID: anything else makes
// CreateSession fail with a *SessionIDError. Default: the SDK makes one, so that the id is known
// from the start.
func WithSessionID(id string) Option {
	return setOption("WithSessionID", func(o *config) { o.sessionID = id })
}

// WithTitle sets the session's title (the initialize request's title): the CLI records it in the
// transcript and skips generating one from the first prompt. It does not change the title of a
// resumed session. Default: a title the CLI generates.
func WithTitle(title string) Option {
	return setOption("WithTitle", func(o *config) { o.title = title })
}

// WithoutSessionPersistence keeps the CLI from writing the session's transcript to disk
// (--no-session-persistence; the official SDKs' persistSession false): nothing is written under
// ~/.claude/projects, so the session cannot be resumed, continued or forked later. Default: the
// transcript is written. It excludes WithSessionStore, which mirrors that transcript.
func WithoutSessionPersistence() Option {
	return setOption("WithoutSessionPersistence", func(o *config) { o.noPersist = true })
}

// WithSessionStore mirrors the session's transcripts (its own and its subagents') to store as the
// CLI writes them: the CLI reports each write on its stdout (--session-mirror, a
// "transcript_mirror" line, which Receive and Query also yield, as a *shared.RawMessage), and the
// session calls store.Append with its entries, on a goroutine of its own, so that a slow store
// never slows the CLI. The contract (order, at least once, crash) is sessions.Store's: each
// Append is bounded by the request timeout (WithRequestTimeout) and made three times at most (a
// panic counts as a failure, its stack logged); a batch that still fails is left out, logged at
// level Error and yielded by Receive (and Query) as a *shared.MirrorErrorMessage (system
// mirror_error, as both official SDKs synthesize it: its Key names the transcript, Error the
// last failure), and the later ones are still delivered. A transcript_mirror line for a file of
// another session than this one's (its SessionID when the line came) is refused and logged at
// level Error: the store is written under this session's id only.
//
// Close waits for the batches not yet delivered at most the request timeout in all (not that per
// attempt); then it ends the ctx of the Append in flight, waits at most the close grace
// (WithCloseGrace) for it to return, leaves the rest out, and returns an error wrapping
// ErrStoreIncomplete that counts the entries left out. An Append that ignores its ctx is not
// waited for: its goroutine ends when it returns. The CLI keeps writing its own transcript too.
// Default: none.
func WithSessionStore(store sessions.Store) Option {
	return setOption("WithSessionStore", func(o *config) { o.store, o.storeGiven = store, true })
}
