package v2

// CoversRegistration reports whether the CLI registration old (initialize hooks, as JSON-able
// matchers) makes the CLI send every request reg needs; for tests of when the session sends a new
// initialize.
func CoversRegistration(old, reg map[string][]InitHookMatcher) bool { return covers(old, reg) }

// InitHookMatcher is one matcher entry of the initialize request.
type InitHookMatcher = initHookMatcher
