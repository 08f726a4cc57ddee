package subprocess

import (
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// CallbackID is the id under which the SDK registers its handlers of one event with the CLI (the
// initialize request's hookCallbackIds), and with which the CLI calls them back (a hook_callback's
// callback_id). The SDK registers one per event: HookCallbackID(e).
type CallbackID string

// HookCallbackID returns the callback id of event e's handlers.
func HookCallbackID(e shared.HookEvent) CallbackID { return CallbackID("hook_" + string(e)) }

// Event returns the event id was registered for (see HookCallbackID); false for an id the SDK
// does not register.
func (id CallbackID) Event() (shared.HookEvent, bool) {
	name, ok := strings.CutPrefix(string(id), "hook_")
	if !ok || !shared.HookEvent(name).IsKnown() {
		return "", false
	}
	return shared.HookEvent(name), true
}

// eventOf returns the hook event of a hook request that could not be decoded: the one named in its
// input, or else the one its callback id was registered for.
func eventOf(h parser.Head) shared.HookEvent {
	if e := shared.HookEvent(h.HookEventName); e.IsKnown() {
		return e
	}
	if e, ok := CallbackID(h.CallbackID).Event(); ok {
		return e
	}
	return shared.HookEvent(h.HookEventName)
}
