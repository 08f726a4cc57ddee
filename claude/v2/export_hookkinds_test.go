package v2

import "github.com/hookwire/agent-sdk-go/claude/hooks"

// CoversRegistration reports whether the CLI registration old (initialize hooks, as JSON-able
// matchers) makes the CLI send every request reg needs; for tests of when the session sends a new
// initialize.
func CoversRegistration(old, reg hooks.Registration) bool { return old.Covers(reg) }
