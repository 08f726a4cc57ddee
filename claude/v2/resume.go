package v2

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
	return optionFunc(func(o *config) { o.resumeAt = messageUUID })
}
