package v2

// Declarations a host makes in initialize about what it renders: the CLI changes its behaviour
// for hosts that do.

// WithPerTaskStopAffordance declares that the program stops background tasks one by one with
// Session.StopTask (initialize's perTaskStopAffordance): an Interrupt then ends only the turn and
// spares running background agents and workflows. Default: off, and an Interrupt also ends the
// background tasks (the CLI's fail-closed default: a runaway task cannot outlive an interrupt).
func WithPerTaskStopAffordance() Option {
	return setOption("WithPerTaskStopAffordance", func(o *config) { o.perTaskStop = true })
}

// WithAgentProgressSummaries asks the CLI for periodic summaries of running subagents
// (initialize's agentProgressSummaries), for a UI. Default: off.
func WithAgentProgressSummaries() Option {
	return setOption("WithAgentProgressSummaries", func(o *config) { o.progressSummaries = true })
}

// WithPromptSuggestions asks the CLI for a predicted next prompt after each result
// (initialize's promptSuggestions; a *shared.PromptSuggestionMessage), for a UI. Default: off.
// The CLI also gates the feature on its own flags and usage limits.
func WithPromptSuggestions() Option {
	return setOption("WithPromptSuggestions", func(o *config) { o.promptSuggestions = true })
}

// Question preview formats for WithQuestionPreviewFormat.
const (
	QuestionPreviewMarkdown = "markdown"
	QuestionPreviewHTML     = "html"
)

// WithQuestionPreviewFormat sets the format of the preview field of the AskUserQuestion tool's
// options (the TypeScript SDK's toolConfig.askUserQuestion.previewFormat): QuestionPreviewHTML
// for a web UI, QuestionPreviewMarkdown. Default: the CLI's, markdown.
func WithQuestionPreviewFormat(format string) Option {
	return setOption("WithQuestionPreviewFormat", func(o *config) { o.previewFormat = format })
}

// checkDeclarations checks WithQuestionPreviewFormat.
func (o *config) checkDeclarations() error {
	switch o.previewFormat {
	case "", QuestionPreviewMarkdown, QuestionPreviewHTML:
		return nil
	}
	return optionErr("WithQuestionPreviewFormat", "unknown format %q (want %q or %q)", o.previewFormat, QuestionPreviewMarkdown, QuestionPreviewHTML)
}
