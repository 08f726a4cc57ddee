package hooks

import (
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// CallbackID is the id under which the SDK registers its handlers of one event with the CLI (the
// initialize request's hookCallbackIds), and with which the CLI calls them back (a hook_callback's
// callback_id). The SDK registers one per event: CallbackIDFor(e).
type CallbackID string

// CallbackIDFor returns the callback id of event e's handlers.
func CallbackIDFor(e shared.HookEvent) CallbackID { return CallbackID("hook_" + string(e)) }

// Event returns the event id was registered for (see CallbackIDFor); false for an id the SDK
// does not register.
func (id CallbackID) Event() (shared.HookEvent, bool) {
	name, ok := strings.CutPrefix(string(id), "hook_")
	if !ok || !shared.HookEvent(name).IsKnown() {
		return "", false
	}
	return shared.HookEvent(name), true
}
