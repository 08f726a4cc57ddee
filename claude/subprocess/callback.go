package subprocess

import (
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// eventOf returns the hook event of a hook request that could not be decoded: the one named in its
// input, or else the one its callback id ("hook_<Event>") was registered for.
func eventOf(h parser.Head) shared.HookEvent {
	if e := shared.HookEvent(h.HookEventName); e.IsKnown() {
		return e
	}
	if e, ok := callbackEvent(h.CallbackID); ok {
		return e
	}
	return shared.HookEvent(h.HookEventName)
}

// callbackEvent returns the event the SDK registered callback id for: the SDK registers one
// callback per event, "hook_<Event>" (see claude/v2's initialize).
func callbackEvent(id string) (shared.HookEvent, bool) {
	name, ok := strings.CutPrefix(id, "hook_")
	if !ok || !shared.HookEvent(name).IsKnown() {
		return "", false
	}
	return shared.HookEvent(name), true
}
