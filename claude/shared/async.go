package shared

import (
	"context"
	"time"
)

// AsyncWork is a hook's two-phase answer (the Goat runner's async form): "no opinion now, the work
// goes on in the background". Build it with Async.
//
// CLI 2.1.330 reads {"async":true} as "no decision" at once and has no way to take a later answer,
// so the SDK does the two phases itself: it answers the CLI at once ({} — the other handlers of the
// chain still run and their answers still count) and runs Work on a goroutine of its own, bounded by
// Timeout, reporting the run's end as a HookResponse event (Async true) with its outcome and
// duration. Work's output has nowhere to go and is dropped; an error or a panic is logged.
//
// Async is not allowed for events that guard an action (HookEvent.GuardsAction: PreToolUse,
// PermissionRequest, UserPromptSubmit, ...): a decision that comes later cannot stop the action,
// so the SDK fails closed there and denies, saying why. Session.Close waits for the work still
// running, each piece at most until its Timeout.
type AsyncWork struct {
	// Timeout bounds Work; zero means DefaultAsyncTimeout.
	Timeout time.Duration
	// Work is the background phase. Its ctx ends at Timeout. It must not be nil.
	Work func(ctx context.Context) (HookOutput, error)
}

func (*AsyncWork) isHookOutput() {}

// DefaultAsyncTimeout bounds an AsyncWork without a Timeout (the Goat runner's default).
const DefaultAsyncTimeout = 30 * time.Second

// Async returns a two-phase answer: work runs in the background, bounded by timeout (zero:
// DefaultAsyncTimeout). See AsyncWork.
func Async(timeout time.Duration, work func(ctx context.Context) (HookOutput, error)) *AsyncWork {
	return &AsyncWork{Timeout: timeout, Work: work}
}
