package main

// The house: the tables every check of housecheck reads. docs/ARCHITECTURE.md draws the floors
// from floors (housecheck -write-doc rewrites that part of the file; the check fails when it
// differs).

// core is the module path of the SDK's core module; the other modules' paths start with it.
const core = "github.com/hookwire/agent-sdk-go"

// floor is one level of the core module's production packages. A package imports only packages on
// floors below its own: nothing imports upward, nor sideways on its floor.
type floor struct {
	name     string
	job      string   // what the floor is for, one line
	packages []string // import paths relative to the core module
}

// floors is the house drawing, top floor first.
var floors = []floor{
	{"api", "the package doc and one-shot helpers; in-process MCP tools (the MCP SDK, for the programs that use them)", []string{"claude", "claude/mcptools"}},
	{"session", "the session factory: options, sessions, the user API", []string{"claude/v2"}},
	{"features", "what a session composes: guards, stores, the settings' command hooks", []string{
		"claude/policy", "claude/sessions", "claude/internal/commandhook", "claude/internal/project",
		"claude/internal/confine", "claude/settings"}},
	{"transport", "the CLI process, framing, request correlation", []string{
		"claude/subprocess"}},
	{"hooks", "the hook engine: matching, chains, answers, registration", []string{"claude/hooks"}},
	{"protocol", "decoding the CLI's messages; the in-process MCP bridge", []string{
		"claude/parser", "claude/internal/mcpbridge"}},
	{"base", "types (no goroutines, no I/O) and leaf helpers", []string{
		"claude/shared", "claude/internal/childenv", "claude/internal/procgroup", "claude/policy/shellparse"}},
}

// forbidden are edges the house names on their own, with the reason a message gives; the floors
// forbid them too, but a named edge says why.
var forbidden = []struct{ from, to, why string }{
	{"claude/parser", "internal/control", "the parser returns its own or shared types, not the transport's control types (issue 27)"},
}

// tooling lists the packages that serve tests, benchmarks, demos and the repository's own tools,
// by import path prefix (a prefix ending in "/" covers the packages under it). No production
// package imports them.
var tooling = []string{
	core + "/internal/testkit/",
	core + "/internal/bench", // a module of its own: the end-to-end benchmark
	core + "/internal/tools", // a module of its own: modpin, housecheck
	core + "/claude/claudetest",
	core + "/claude/sessions/storetest",
	core + "/examples", // a module of its own: programs, not a library
}

// production lists the modules whose packages are production code (less the tooling above).
var production = []string{core, core + "/contrib/otel", core + "/contrib/pgstore", core + "/contrib/temporal"}

// errorPrefixes is the prefix of the error strings each production package returns (paths
// relative to the core's module path): the package a user imports. An internal package whose
// errors the public package wraps with its own prefix (v2's "v2: %w" around mcpbridge's) names
// itself, so the user reads "v2: mcpbridge: ..." and not "v2: v2: ..."; one whose errors reach the
// user unwrapped carries the public package's name. A row may name a file instead of a package
// (its path relative to the repository): it overrides its package's row.
var errorPrefixes = map[string]string{
	"claude":                      "claude: ",
	"claude/v2":                   "v2: ",
	"claude/policy":               "policy: ",
	"claude/sessions":             "sessions: ",
	"claude/settings":             "settings: ",
	"claude/subprocess":           "subprocess: ",
	"claude/hooks":                "hooks: ",
	"claude/mcptools":             "mcptools: ",
	"claude/parser":               "parser: ",
	"claude/shared":               "shared: ",
	"claude/shared/errors.go":     "v2: ",         // the session's errors (transport, hook runs): every error a v2 call returns starts with "v2: " (issue 35)
	"claude/internal/commandhook": "v2: ",         // WithCommandHooks
	"claude/internal/mcpbridge":   "mcpbridge: ",  // wrapped by v2 ("v2: %w", claude/v2/mcp.go)
	"claude/internal/confine":     "confine: ",    // wrapped by v2's *ConfinementError
	"claude/internal/childenv":    "subprocess: ", // the CLI's environment
	"claude/internal/procgroup":   "subprocess: ", // the CLI's process group
	"claude/internal/project":     "project: ",    // wrapped by v2 (ErrUntrustedProject, claude/v2/project.go)
	"claude/policy/shellparse":    "policy: ",
	"contrib/otel":                "otelagent: ",
	"contrib/pgstore":             "pgstore: ",
	"contrib/temporal":            "temporalagent: ",
	"contrib/temporal/pgledger":   "pgledger: ",
}

// errorDetail is an exported error string that is a detail: the message of a sentinel or the
// reason that a typed error or another message of the package wraps, with the prefix.
type errorDetail struct{ pkg, text, why string }

// errorDetails are the exported error strings that carry no prefix, and why.
var errorDetails = []errorDetail{
	{"claude/shared", "hook timed out", "ErrHookTimeout: the cause in a *HookError (\"v2: PreToolUse hook #0: hook timed out after 2s\")"},
	{"claude/shared", "hook panicked", "ErrHookPanic: the cause in a *HookError"},
	{"claude/shared", "hook cancelled", "ErrHookCancelled: the cause in a *HookError"},
	{"claude/shared", "invalid hook output", "ErrInvalidOutput: the cause in a *HookError"},
	{"claude/shared", "async answer refused: the event guards an action and a later decision could not stop it",
		"ErrAsyncNotAllowed: the cause in a *HookError, and the deny reason the model reads"},
	{"claude/subprocess", "no such file", "CheckCLIPath's reason, quoted in ErrCLINotFound's list of the paths tried"},
	{"claude/subprocess", "a directory, not the CLI executable", "CheckCLIPath's reason, as above"},
	{"claude/subprocess", "not executable (mode %v)", "CheckCLIPath's reason, as above"},
	{"claude/internal/commandhook", "command hook %q answered async again in its background run", "the cause in a *shared.HookError"},
}

// Limits of the size checks, over the non-test .go files of every module.
const (
	maxComplexity = 20  // gocyclo's cyclomatic complexity of a function
	maxFileLines  = 500 // lines of a non-test .go file
)
