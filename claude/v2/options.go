package v2

// The With* functions live in files by what they configure; a new option goes in the file of
// its topic, and gets a row in optionTable (optiontable.go):
//
//	options_model.go        the model: model, fallbacks, effort, thinking, budgets, turns
//	options_prompt.go       the system prompt and how prompts are sent
//	options_tools.go        which tools exist and which run without a prompt
//	options_permissions.go  the permission mode and who answers permission prompts
//	options_hooks.go        Go hooks, settings hooks, hook enforcement and hook events
//	options_mcp.go          MCP servers, in-process and external
//	options_session.go      new, resumed, continued or forked sessions; transcripts
//	options_settings.go     settings files, setting sources, managed settings, plugins
//	options_agents.go       subagents and the main agent
//	options_process.go      the CLI process: path, wrapper, directory, environment, limits, logs
//
// Options of a feature with its own file sit beside it: WithSandbox (sandbox.go), WithPolicy
// (policy.go), WithTrustedProject and its kin (project.go), WithoutOSConfinement (confine.go),
// WithSkills (skills.go), WithJSONSchema (output.go), WithObserver (observe.go), WithElicitation
// (elicitation.go), WithUserDialog (dialog.go), the UI declarations (declarations.go),
// WithFileCheckpointing (checkpoint.go), WithTraceContext (tracecontext.go), WithDefaults
// (optiononce.go), WithSpawner (spawn.go). The package doc (doc.go) lists every option by topic.

// Option configures a session. Options only record; CreateSession validates. The package doc
// lists the options by topic.
//
// Given twice: an option that adds (WithAllowedTools, WithEnv, WithHooks, WithPolicy,
// WithMCPServer, WithObserver, ...) adds each time, and every value counts (two WithPolicy
// compose: both guard). An option that sets one value (WithCwd, WithModel, WithPermissionMode,
// WithCanUseTool, WithLogger, ...) may be given again with the same value; given again with a
// different value, or two options that set the same value differently (WithJSONSchema and
// WithOutputSchemaFor), CreateSession fails with an *OptionError naming them: the SDK does not
// pick one. Options inside WithDefaults are the exception: a later option replaces what they set.
// (An option given its default value, e.g. WithModel(""), counts as not given.)
type Option interface {
	apply(*config)
}

// namedOption is an Option with the name of the With* function that made it, which errors about
// it name (optionName).
type namedOption struct {
	name string
	set  func(*config)
}

func (n namedOption) apply(o *config) { n.set(o) }

// setOption returns the Option named name (its With* function) that applies set.
func setOption(name string, set func(*config)) Option { return namedOption{name, set} }

// WithOptions groups opts into one Option, applied in order: for a package that configures a
// session in several ways and hands the user one value (e.g. contrib/otel's
// otelagent.Instrument). Nil options are skipped. Default: none.
func WithOptions(opts ...Option) Option { return optionGroup(opts) }
