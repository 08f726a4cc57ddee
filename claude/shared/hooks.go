package shared

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// HookHandler is a Go hook: Handle runs when its event fires and its matcher matches. ctx is
// cancelled when the hook's timeout passes, when the CLI cancels the request, or when the session
// closes; a handler must honour it. A handler may call the session's methods.
//
// Handle returns an output (nil means "no opinion") or an error. For events that guard an action
// (HookEvent.GuardsAction), an error, a panic, a timeout, or an output the SDK cannot send with its
// meaning (another event's output, a helper that means nothing for the event, a typed nil such as
// (*SyncHookOutput)(nil), an unreadable raw output; see NormalizeOutput) makes the SDK deny: it
// fails closed.
//
// Make one with a typed adapter, which knows the input type its event gets (OnPreToolUse,
// OnStop, ..., HandlerFor), or from a function of any input with HookHandlerFunc.
type HookHandler interface {
	Handle(ctx context.Context, input HookInput) (HookOutput, error)
}

// HookHandlerFunc is a HookHandler that takes the input of any event: Handle calls f. Prefer a
// typed adapter (OnPreToolUse, ...), which Hooks.Validate checks against the event it is
// registered under.
type HookHandlerFunc func(ctx context.Context, input HookInput) (HookOutput, error)

// Handle calls f(ctx, input).
func (f HookHandlerFunc) Handle(ctx context.Context, input HookInput) (HookOutput, error) {
	return f(ctx, input)
}

// HookConfig registers one handler for one event.
type HookConfig struct {
	// Matcher selects the calls the handler sees, by tool name for tool events (by source, reason,
	// trigger, ... for others; see HookInput.MatchValue). "" or "*" matches all; a list such as
	// "Write|Edit" or "Read, Write" matches exactly those names; a glob such as "mcp__*" or
	// "mcp__github__*" matches by wildcard; anything else is a Go regular expression anchored to the
	// whole name ("Edit.*" matches "EditX", not "NotebookEdit"). See CompileMatcher.
	Matcher string
	// Handler runs the hook. It must not be nil.
	Handler HookHandler
	// Timeout bounds one run of Handler. Zero means the session's default (5 s unless set).
	Timeout time.Duration
	// Name labels the hook in logs and progress events. Optional.
	Name string
}

// MatchesToolName reports whether the config's matcher matches name. An invalid matcher matches
// nothing (CreateSession rejects it before this could happen).
func (c HookConfig) MatchesToolName(name string) bool {
	m, err := cachedMatcher(c.Matcher)
	if err != nil {
		return false
	}
	return m.Match(name)
}

// Hooks maps each event to its handlers, run in this order.
type Hooks map[HookEvent][]HookConfig

// Validate checks every registration: a known event, a non-nil handler, a valid matcher, a
// non-negative timeout, and a typed handler (OnPreToolUse, ...) made for the event's input
// (CheckHandlerEvent). The error names the event and the index of the bad config. With several
// bad registrations it reports the same one every time: unknown events first (by name), then the
// known events in AllHookEvents order.
func (h Hooks) Validate() error {
	var unknown []HookEvent
	for e := range h {
		if !e.IsKnown() {
			unknown = append(unknown, e)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return &RegistrationError{Event: unknown[0], Index: -1, Reason: "unknown hook event"}
	}
	for _, e := range allEvents {
		for i, c := range h[e] {
			if isNilHandler(c.Handler) {
				return &RegistrationError{Event: e, Index: i, Reason: "nil handler"}
			}
			if c.Timeout < 0 {
				return &RegistrationError{Event: e, Index: i, Reason: "negative timeout"}
			}
			if _, err := CompileMatcher(c.Matcher); err != nil {
				return &RegistrationError{Event: e, Index: i, Reason: err.Error(), Err: err}
			}
			if err := CheckHandlerEvent(e, c.Handler); err != nil {
				ite := err.(*InputTypeError)
				return &RegistrationError{Event: e, Index: i, Err: err,
					Reason: fmt.Sprintf("the typed handler takes %s, but %s hooks get %T: register it under its own event", ite.Want, e, ite.Got)}
			}
		}
	}
	return nil
}

// RegistrationError says a hook registration is invalid. It comes from CreateSession, or from
// Session.RegisterScoped for hooks added to a running session; never from a hook's fire.
type RegistrationError struct {
	Event  HookEvent
	Index  int // index in the event's list, or -1 for the event itself
	Reason string
	Err    error
}

// Error describes the failure.
func (e *RegistrationError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("shared: hook event %q: %s", e.Event, e.Reason)
	}
	return fmt.Sprintf("shared: hook %s[%d]: %s", e.Event, e.Index, e.Reason)
}

// Unwrap returns the underlying error, such as a regexp syntax error.
func (e *RegistrationError) Unwrap() error { return e.Err }

// InputTypeError says a typed handler got an input of another type: it was registered for the
// wrong event.
type InputTypeError struct {
	Want  string
	Got   HookInput
	Event HookEvent
}

// Error describes the failure.
func (e *InputTypeError) Error() string {
	return fmt.Sprintf("shared: handler for %s got %T for event %s", e.Want, e.Got, e.Event)
}

// HandlerFor adapts a handler of one input type to a HookHandler. If the input has another
// type, the handler is not called and the result is an *InputTypeError (a deny, for events that
// guard an action). The handler it returns carries T, so that Hooks.Validate (CheckHandlerEvent)
// refuses it under an event whose input is not a T.
func HandlerFor[T HookInput](fn func(context.Context, T) (HookOutput, error)) HookHandler {
	return typedHandler[T](fn)
}

// OnPreToolUse adapts a PreToolUse handler.
func OnPreToolUse(fn func(context.Context, *PreToolUseHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPostToolUse adapts a PostToolUse handler.
func OnPostToolUse(fn func(context.Context, *PostToolUseHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPostToolUseFailure adapts a PostToolUseFailure handler.
func OnPostToolUseFailure(fn func(context.Context, *PostToolUseFailureHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnUserPromptSubmit adapts a UserPromptSubmit handler.
func OnUserPromptSubmit(fn func(context.Context, *UserPromptSubmitHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnStop adapts a Stop handler.
func OnStop(fn func(context.Context, *StopHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnSubagentStart adapts a SubagentStart handler.
func OnSubagentStart(fn func(context.Context, *SubagentStartHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnSubagentStop adapts a SubagentStop handler.
func OnSubagentStop(fn func(context.Context, *SubagentStopHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPreCompact adapts a PreCompact handler.
func OnPreCompact(fn func(context.Context, *PreCompactHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnNotification adapts a Notification handler.
func OnNotification(fn func(context.Context, *NotificationHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnSessionStart adapts a SessionStart handler.
func OnSessionStart(fn func(context.Context, *SessionStartHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnSessionEnd adapts a SessionEnd handler.
func OnSessionEnd(fn func(context.Context, *SessionEndHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPermissionRequest adapts a PermissionRequest handler.
func OnPermissionRequest(fn func(context.Context, *PermissionRequestHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPostToolBatch adapts a PostToolBatch handler.
func OnPostToolBatch(fn func(context.Context, *PostToolBatchHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPermissionDenied adapts a PermissionDenied handler.
func OnPermissionDenied(fn func(context.Context, *PermissionDeniedHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnUserPromptExpansion adapts a UserPromptExpansion handler.
func OnUserPromptExpansion(fn func(context.Context, *UserPromptExpansionHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnStopFailure adapts a StopFailure handler.
func OnStopFailure(fn func(context.Context, *StopFailureHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPostCompact adapts a PostCompact handler.
func OnPostCompact(fn func(context.Context, *PostCompactHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnPreModelSwitch adapts a PreModelSwitch handler.
func OnPreModelSwitch(fn func(context.Context, *PreModelSwitchHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}

// OnMessageDisplay adapts a MessageDisplay handler.
func OnMessageDisplay(fn func(context.Context, *MessageDisplayHookInput) (HookOutput, error)) HookHandler {
	return HandlerFor(fn)
}
