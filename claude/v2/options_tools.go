package v2

// WithTools sets the base set of built-in tools the model is offered (--tools): only these exist
// for the session. Unlike WithAllowedTools, which only approves tools without a prompt, it
// removes the others from the model's request. WithTools() with no names offers no built-in
// tool; WithTools("default") the CLI's default set. Default: the CLI's default set. A name must
// not be empty or hold a comma.
func WithTools(tools ...string) Option {
	return setOption("WithTools", func(o *config) {
		o.tools = append(o.tools, tools...)
		o.toolsSet = true
	})
}

// WithAllowedTools sets permission rules that allow tools without a prompt (--allowedTools), e.g.
// "Bash", "Read", "Bash(git *)". Default: none.
func WithAllowedTools(tools ...string) Option {
	return setOption("WithAllowedTools", func(o *config) { o.allowedTools = append(o.allowedTools, tools...) })
}

// WithDisallowedTools sets rules that deny tools (--disallowedTools). Default: none.
func WithDisallowedTools(tools ...string) Option {
	return setOption("WithDisallowedTools", func(o *config) { o.disallowedTools = append(o.disallowedTools, tools...) })
}

// WithToolAliases maps tool names the model may call to the tools they stand for (the initialize
// request's toolAliases), e.g. {"Shell": "Bash"}: a call to an alias runs the mapped tool, under
// that tool's name for permission rules, hooks and WithCanUseTool. One hop only. Default: none.
// Names must not be empty, an alias must not map to itself, and a mapped name must not be an
// alias too (the CLI would not follow it).
func WithToolAliases(aliases map[string]string) Option {
	return setOption("WithToolAliases", func(o *config) {
		if o.toolAliases == nil {
			o.toolAliases = map[string]string{}
		}
		for k, v := range aliases {
			o.toolAliases[k] = v
		}
	})
}
