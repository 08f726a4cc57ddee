package v2

// WithModel sets the model (--model). Default: the CLI's default.
func WithModel(model string) Option {
	return setOption("WithModel", func(o *config) { o.model = model })
}

// WithFallbackModels sets the models the CLI falls back to, in order, when the main model is
// overloaded or unavailable (--fallback-model, a comma-separated list with CLI 2.1.330; the
// official SDKs take one): after its retries of one model fail, the CLI asks the next, and the
// main model is tried again at the start of each turn (TestRealCLI_FallbackModels). When the
// last one is overloaded too, the CLI keeps retrying it with backoff: bound the turn with its
// ctx. Default: none. A name must not be empty, hold a comma, repeat another, or be WithModel's
// (the CLI would only retry the same model; the TypeScript SDK rejects it too).
func WithFallbackModels(models ...string) Option {
	return setOption("WithFallbackModels", func(o *config) { o.fallbackModels = append(o.fallbackModels, models...) })
}

// WithMaxTurns bounds the model turns per prompt (--max-turns; CLI 2.1.330 honours it although
// its --help no longer lists it). A prompt that needs more ends with a result of subtype
// "error_max_turns" (Run: a *ResultError). Default: no bound.
func WithMaxTurns(n int) Option { return setOption("WithMaxTurns", func(o *config) { o.maxTurns = n }) }

// WithMaxBudgetUSD stops the session's prompts once the API calls have cost more than usd dollars
// by the CLI's reckoning (--max-budget-usd): the turn then ends with a result of subtype
// "error_max_budget_usd", which Run returns as a *ResultError matching ErrMaxBudget. The CLI
// checks between model calls, so the call that crosses the budget completes. Default: no budget.
// It must be positive and finite.
func WithMaxBudgetUSD(usd float64) Option {
	return setOption("WithMaxBudgetUSD", func(o *config) { o.maxBudgetUSD = usd })
}

// WithTaskBudget sets the API-side task budget in tokens (--task-budget), which the model is told
// about so that it paces itself. Default: none. It must be positive.
func WithTaskBudget(tokens int) Option {
	return setOption("WithTaskBudget", func(o *config) { o.taskBudget = tokens })
}

// Effort is the model's effort level (WithEffort, AgentDefinition.Effort).
type Effort string

// Effort levels (CLI 2.1.330).
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortXHigh  Effort = "xhigh"
	EffortMax    Effort = "max"
)

// WithEffort sets the model's effort level (--effort; the request's output_config.effort): one of
// EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax. Default: the CLI's (medium with
// CLI 2.1.330).
func WithEffort(level Effort) Option {
	return setOption("WithEffort", func(o *config) { o.effort = level })
}

// ThinkingMode is the model's extended-thinking mode (WithThinking).
type ThinkingMode string

// Thinking modes.
const (
	// ThinkingAdaptive lets the model decide how much to think (the CLI's default for a model
	// that has it; CLI 2.1.330 gives a model without it a fixed budget of 31999 tokens).
	ThinkingAdaptive ThinkingMode = "adaptive"
	// ThinkingDisabled turns extended thinking off.
	ThinkingDisabled ThinkingMode = "disabled"
)

// WithThinking sets the thinking mode (--thinking): ThinkingAdaptive or ThinkingDisabled; a fixed
// budget is WithMaxThinkingTokens. Default: the CLI's. It excludes WithMaxThinkingTokens.
func WithThinking(mode ThinkingMode) Option {
	return setOption("WithThinking", func(o *config) { o.thinking = mode })
}

// WithMaxThinkingTokens gives extended thinking a budget of n tokens (--max-thinking-tokens).
// Default: the CLI's. n must be positive; it excludes WithThinking.
func WithMaxThinkingTokens(n int) Option {
	return setOption("WithMaxThinkingTokens", func(o *config) { o.maxThinking = n })
}

// ThinkingDisplay is how the model returns its thinking (WithThinkingDisplay,
// Session.SetMaxThinkingTokens).
type ThinkingDisplay string

// Thinking display modes (CLI 2.1.330).
const (
	// ThinkingDisplaySummarized returns summarized thinking text.
	ThinkingDisplaySummarized ThinkingDisplay = "summarized"
	// ThinkingDisplayOmitted returns thinking blocks without their text (the signature only).
	// CLI 2.1.330 sends it as the API's "updates", which it also sends without the option.
	ThinkingDisplayOmitted ThinkingDisplay = "omitted"
	// ThinkingDisplayHighlights returns highlights of the thinking.
	ThinkingDisplayHighlights ThinkingDisplay = "highlights"
)

// WithThinkingDisplay sets how the model returns its thinking (--thinking-display; the official
// SDKs' thinking.display; the request's thinking.display): ThinkingDisplaySummarized,
// ThinkingDisplayOmitted or ThinkingDisplayHighlights. Default: CLI 2.1.330 sends "updates". It
// excludes WithThinking(ThinkingDisabled).
func WithThinkingDisplay(mode ThinkingDisplay) Option {
	return setOption("WithThinkingDisplay", func(o *config) { o.thinkingDisplay = mode })
}

// WithBetas adds Anthropic API beta names to the CLI's requests (--betas; the anthropic-beta
// header; API-key users only). Default: none beyond the CLI's own. A name must not be empty or
// hold a comma.
func WithBetas(betas ...string) Option {
	return setOption("WithBetas", func(o *config) { o.betas = append(o.betas, betas...) })
}
