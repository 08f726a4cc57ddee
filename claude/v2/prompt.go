package v2

import (
	"context"
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// Priority is when the CLI takes a prompt sent while a turn runs (Prompt.Priority).
type Priority string

// The priorities of the CLI's command queue.
const (
	PriorityNow   Priority = "now"   // at once: the running turn is interrupted
	PriorityNext  Priority = "next"  // after the running turn (the CLI's default)
	PriorityLater Priority = "later" // after what is queued
)

// Prompt is a user message with the per-message fields of the official SDKs' SDKUserMessage,
// for SendPrompt.
type Prompt struct {
	// Text, or Blocks (as SendContent's), is the message; exactly one of them.
	Text   string
	Blocks []shared.ContentBlock
	// UUID is the message's uuid (a UUID), which the CLI keeps as its transcript entry's: rewind
	// to it (RewindFiles) or find it (sessions.Dir.Messages) without reading the transcript
	// first. Default: the CLI makes one.
	UUID string
	// Priority is when the CLI takes it if a turn is running. Default: the CLI's (next).
	Priority Priority
	// NoQuery appends the message to the conversation without starting a turn (shouldQuery
	// false): it goes to the model with the next prompt that does. CLI 2.1.332 answers it with a
	// result of no turn (NumTurns 0, no model request), which Receive yields.
	NoQuery bool
	// Origin says where the message came from (default: the user, kind "human"). The CLI frames
	// a message by its origin (a "peer" message is another session's, a "task-notification" the
	// CLI's own): set it only for a message that is what it claims to be.
	Origin *shared.MessageOrigin
}

// promptMessage is the user message of a Prompt.
type promptMessage struct {
	subprocess.UserMessage
	ClientComposed bool                  `json:"client_composed,omitempty"`
	UUID           string                `json:"uuid,omitempty"`
	Priority       Priority              `json:"priority,omitempty"`
	ShouldQuery    *bool                 `json:"shouldQuery,omitempty"`
	Origin         *shared.MessageOrigin `json:"origin,omitempty"`
}

// SendPrompt writes p, a user message with a chosen uuid, priority, origin or no turn at all
// (NoQuery). It does not wait for the answer: read it with Receive (one result, also for NoQuery).
// An invalid prompt (no text and no blocks or both, an invalid block, a UUID that is not one, an
// unknown priority) is an error and nothing is sent.
func (s *Session) SendPrompt(ctx context.Context, p Prompt) error {
	if err := p.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return callErr("SendPrompt", err)
	}
	var content any = p.Text
	if p.Text == "" {
		content = p.Blocks
	}
	m := promptMessage{
		UserMessage:    subprocess.UserMessage{Type: "user", Message: subprocess.UserContent{Role: "user", Content: content}, SessionID: "default"},
		ClientComposed: s.o.verbatim, UUID: p.UUID, Priority: p.Priority, Origin: p.Origin,
	}
	if p.NoQuery {
		m.ShouldQuery = new(bool)
	}
	if err := s.t.WriteMessage(m); err != nil {
		return callErr("SendPrompt", err)
	}
	s.inStep.sent() // instep.go: the prompt awaits its result (a NoQuery one too)
	return nil
}

func (p Prompt) validate() error {
	switch {
	case (p.Text == "") == (len(p.Blocks) == 0):
		return fmt.Errorf("v2: SendPrompt: give Text or Blocks, one of them")
	case p.UUID != "" && !isUUID(p.UUID):
		return &SessionIDError{Option: "Prompt.UUID", ID: p.UUID}
	}
	switch p.Priority {
	case "", PriorityNow, PriorityNext, PriorityLater:
	default:
		return fmt.Errorf("v2: SendPrompt: unknown priority %q (PriorityNow, PriorityNext, PriorityLater)", p.Priority)
	}
	if len(p.Blocks) > 0 {
		return validateBlocks(p.Blocks)
	}
	return nil
}
