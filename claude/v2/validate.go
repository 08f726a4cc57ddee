package v2

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// validate checks every setting before anything starts; it looks at no file (checkPaths does).
// The checks run in this order, each on one concern, and the first error is returned; every
// error names the option to fix (most are an *OptionError or a *SessionIDError).
func (o *config) validate() error {
	for _, check := range []func(*config) error{
		func(o *config) error { return o.twice }, // optiononce.go: an option given twice
		(*config).checkHookRegistrations,
		(*config).checkValues,
		(*config).checkFlagsAndLimits,
		(*config).checkSettingsHooks,
		(*config).checkPermissions,
		(*config).checkGuardsCanFire, // guards.go
		(*config).checkMCPServers,
		(*config).checkSession,
		(*config).checkResume,
		(*config).checkSystemPrompt,
		(*config).checkOutputSchema,
		(*config).checkModel,
		(*config).checkThinking,
		(*config).checkAgents,
		(*config).checkSettingsSources,
		(*config).checkToolAliases,
		(*config).checkSandbox,
		(*config).checkSandboxForms, // sandbox_check.go
		(*config).checkSkills,
		(*config).checkUserInput,
		(*config).checkMCPSettings,
		(*config).checkDeclarations,
		(*config).checkSpawner, // spawn.go
	} {
		if err := check(o); err != nil {
			return err
		}
	}
	return nil
}

// checkHookRegistrations checks WithHooks's registrations (shared.Hooks.Validate) and WithPolicy's
// policy (policy.Validate).
func (o *config) checkHookRegistrations() error {
	if o.policyErr != nil {
		return &OptionError{Option: "WithPolicy", Problem: o.policyErr.Error(), Err: o.policyErr}
	}
	return hooksErr(o.hooks.Validate())
}

// checkValues catches values that are each valid but do not work as given: values the CLI would
// ignore or misread, settings that contradict each other (an *OptionError naming the option).
func (o *config) checkValues() error {
	if o.cliPath != "" && strings.TrimSpace(o.cliPath) == "" {
		return optionErr("WithCLIPath", "a blank path")
	}
	if o.storeGiven && isNil(o.store) {
		return optionErr("WithSessionStore", "a nil store (leave the option out for no mirror)")
	}
	for _, l := range []struct {
		opt   string
		names []string
	}{{"WithAllowedTools", o.allowedTools}, {"WithDisallowedTools", o.disallowedTools}} {
		for _, n := range l.names {
			if strings.TrimSpace(n) == "" {
				return optionErr(l.opt, "an empty tool rule")
			}
		}
	}
	for _, n := range o.allowedTools {
		if slices.Contains(o.disallowedTools, n) {
			return optionErr("WithAllowedTools/WithDisallowedTools", "%q is both allowed and disallowed (the CLI denies it; drop one)", n)
		}
	}
	for _, l := range []struct {
		opt string
		kvs []string
	}{{"WithEnv", o.env}, {"WithBaseEnv", o.baseEnv}} {
		for _, kv := range l.kvs {
			if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
				return optionErr(l.opt, "%q is not KEY=VALUE", kv)
			}
		}
	}
	if o.model != "" && strings.TrimSpace(o.model) != o.model {
		return optionErr("WithModel", "%q has blanks around the name", o.model)
	}
	return nil
}

// checkFlagsAndLimits checks WithExtraArgs (no flag the SDK sets), the limits (no negative
// duration or size) and the hook matchers of events that have nothing to match.
func (o *config) checkFlagsAndLimits() error {
	for _, a := range o.extraArgs {
		name, _, _ := strings.Cut(a, "=")
		owner, ok := ownedFlags[name] // optiontable.go
		switch {
		case !ok:
		case owner.options == "":
			return optionErr("WithExtraArgs", "%q: the SDK sets %s itself (it speaks stream-json); drop it", a, name)
		case owner.flag != name:
			return optionErr("WithExtraArgs", "%q: the CLI reads it as %s, which the SDK sets itself; use %s", a, owner.flag, owner.options)
		default:
			return optionErr("WithExtraArgs", "%q: the SDK sets %s itself; use %s", a, name, owner.options)
		}
	}
	if slices.Contains(o.extraArgs, "--bare") && (len(o.commandHooks) > 0 || len(o.promptHooks) > 0) && !o.allowUnenforced {
		return &OptionError{Option: "WithExtraArgs/WithCommandHooks", Problem: `"--bare" makes the CLI skip the hooks of its settings, and WithCommandHooks and WithPromptHooks reach it as settings: they would never run; drop --bare, or accept it with WithAllowUnenforcedHooks`, Err: ErrGuardCannotFire}
	}
	for _, d := range []struct {
		opt string
		neg bool
	}{
		{"WithMaxTurns", o.maxTurns < 0},
		{"WithPermissionTimeout", o.permissionTimeout < 0},
		{"WithRequestTimeout", o.requestTimeout < 0},
		{"WithCloseGrace", o.closeGrace < 0},
		{"WithMaxLineSize", o.maxLineSize < 0},
	} {
		if d.neg {
			return optionErr(d.opt, "negative (zero means the default)")
		}
	}
	if o.hookTimeout <= 0 {
		return optionErr("WithHookTimeout", "must be positive, got %v", o.hookTimeout)
	}
	for e, cfgs := range o.hooks {
		if e.IsKnown() && !e.UsesMatcher() {
			for i, c := range cfgs {
				if c.Matcher != "" && c.Matcher != "*" {
					return optionErr("WithHooks/WithHook", "hook %s[%d] has the matcher %q, but %s has nothing to match: the CLI fires it for every call (drop the matcher)", e, i, c.Matcher, e)
				}
			}
		}
	}
	return nil
}

// checkSettingsHooks checks the settings hooks: known events, a command or prompt, no negative
// timeout.
func (o *config) checkSettingsHooks() error {
	for e, hs := range o.commandHooks {
		if !e.IsKnown() {
			return fmt.Errorf("v2: WithCommandHooks: unknown hook event %q%s", e, didYouMean(string(e), shared.AllHookEvents()))
		}
		for i, h := range hs {
			if strings.TrimSpace(h.Command) == "" || h.Timeout < 0 {
				return fmt.Errorf("v2: settings command hook %s[%d]: empty command or negative timeout", e, i)
			}
		}
	}
	for e, hs := range o.promptHooks {
		if !e.IsKnown() {
			return fmt.Errorf("v2: WithPromptHooks: unknown hook event %q%s", e, didYouMean(string(e), shared.AllHookEvents()))
		}
		for i, h := range hs {
			if strings.TrimSpace(h.Prompt) == "" || h.Timeout < 0 {
				return fmt.Errorf("v2: settings prompt hook %s[%d]: empty prompt or negative timeout", e, i)
			}
		}
	}
	return nil
}

// checkPermissions checks WithPermissionMode, and who answers permission prompts: WithCanUseTool,
// WithPermissionPromptTool or nobody (WithoutPermissionPrompts), one of them.
func (o *config) checkPermissions() error {
	if o.promptTool != "" && o.canUseTool != nil {
		return errors.New("v2: WithPermissionPromptTool and WithCanUseTool exclude each other")
	}
	if o.noPrompts && (o.canUseTool != nil || o.promptTool != "") {
		return errors.New("v2: WithoutPermissionPrompts excludes WithCanUseTool and WithPermissionPromptTool")
	}
	modes := []PermissionMode{PermissionModeDefault, PermissionModeAcceptEdits, PermissionModeBypassPermissions,
		PermissionModeDontAsk, PermissionModePlan, PermissionModeAuto}
	if o.permissionMode == "" || slices.Contains(modes, o.permissionMode) {
		return nil
	}
	return optionErr("WithPermissionMode", "unknown permission mode %q%s", o.permissionMode, didYouMean(string(o.permissionMode), modes))
}

// checkMCPServers checks the MCP servers: names non-empty and unique, in-process servers
// non-nil, external entries complete; external servers exclude WithContinue (whose session id is
// asked of the CLI before initialize, which --await-initialize forbids).
func (o *config) checkMCPServers() error {
	seen := map[string]bool{}
	for _, n := range o.mcpOrder {
		if n == "" {
			return errors.New("v2: an MCP server needs a name")
		}
		if seen[n] {
			return fmt.Errorf("v2: MCP server %q is given twice", n)
		}
		seen[n] = true
	}
	for n, s := range o.mcpInProcess {
		if s == nil {
			return fmt.Errorf("v2: MCP server %q is nil", n)
		}
	}
	for n, c := range o.mcpExternal {
		if _, err := entryOf(c); err != nil {
			return fmt.Errorf("v2: MCP server %q: %w", n, err)
		}
	}
	if len(o.mcpExternal) > 0 && o.continueSession {
		return errors.New("v2: external MCP servers cannot be combined with WithContinue (use WithResume)")
	}
	return nil
}

// checkSession checks how the session starts: hook enforcement, and new, resumed, continued or
// forked, with ids that are UUIDs; a transcript to mirror.
func (o *config) checkSession() error {
	if o.strictHooks && o.allowUnenforced {
		return errors.New("v2: WithStrictHooks and WithAllowUnenforcedHooks exclude each other")
	}
	if o.resume != "" && o.continueSession {
		return errors.New("v2: WithResume and WithContinue exclude each other")
	}
	if o.forkSession && o.resume == "" && !o.continueSession {
		return errors.New("v2: WithForkSession needs WithResume or WithContinue")
	}
	if o.sessionID != "" && (o.resume != "" || o.continueSession) && !o.forkSession {
		return errors.New("v2: WithSessionID needs a new session (or WithForkSession)")
	}
	if o.sessionID != "" && !isUUID(o.sessionID) {
		return &SessionIDError{Option: "WithSessionID", ID: o.sessionID}
	}
	if o.noPersist && o.store != nil {
		return errors.New("v2: WithoutSessionPersistence and WithSessionStore exclude each other: no transcript is written to mirror")
	}
	return nil
}

// checkResume checks where a resumed session resumes: WithResume, WithResumeAt and
// WithResumeDropsTurn, each needing the one before, with ids that are UUIDs.
func (o *config) checkResume() error {
	if o.resume != "" && !isUUID(o.resume) {
		return &SessionIDError{Option: "WithResume", ID: o.resume}
	}
	if o.resumeAt != "" {
		if o.resume == "" {
			return errors.New("v2: WithResumeAt needs WithResume")
		}
		if !isUUID(o.resumeAt) {
			return &SessionIDError{Option: "WithResumeAt", ID: o.resumeAt}
		}
	}
	if o.dropsTurn != "" {
		if o.resumeAt == "" {
			return errors.New("v2: WithResumeDropsTurn needs WithResumeAt")
		}
		if !isUUID(o.dropsTurn) {
			return &SessionIDError{Option: "WithResumeDropsTurn", ID: o.dropsTurn}
		}
	}
	return nil
}

// checkSystemPrompt checks the system prompt's source: WithSystemPrompt, WithSystemPromptFile or
// the CLI's own (WithClaudeCodeSystemPrompt), one of them; WithExcludeDynamicSections needs the
// CLI's own.
func (o *config) checkSystemPrompt() error {
	if o.claudeCode && o.systemPrompt != nil {
		return errors.New("v2: WithClaudeCodeSystemPrompt and WithSystemPrompt exclude each other")
	}
	if o.systemPromptFile != "" && (o.systemPrompt != nil || o.claudeCode) {
		return errors.New("v2: WithSystemPromptFile excludes WithSystemPrompt and WithClaudeCodeSystemPrompt")
	}
	if o.excludeDynamic && (o.systemPrompt != nil || o.systemPromptFile != "" || !o.claudeCode && !o.appendGiven) {
		return errors.New("v2: WithExcludeDynamicSections needs the CLI's own system prompt (WithClaudeCodeSystemPrompt)")
	}
	return nil
}

// checkOutputSchema checks WithJSONSchema and WithOutputSchemaFor.
func (o *config) checkOutputSchema() error {
	if o.jsonSchemaErr != nil {
		return fmt.Errorf("v2: output schema: %w", o.jsonSchemaErr)
	}
	if o.jsonSchema == nil {
		return nil
	}
	if !o.jsonSchema.IsValid() || o.jsonSchema.Kind() != '{' {
		return fmt.Errorf("v2: WithJSONSchema: not a JSON object: %.100s", o.jsonSchema)
	}
	// The schema becomes the input schema of the CLI's StructuredOutput tool, which the
	// Messages API takes only of type object.
	var top struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(o.jsonSchema, &top); err != nil || top.Type != "object" {
		return fmt.Errorf("v2: WithJSONSchema: the schema's type must be \"object\" (a Go struct or map), not %v", top.Type)
	}
	return nil
}

// checkModel checks the budget, the lists of names, the fallback models and effort.
func (o *config) checkModel() error {
	if o.maxBudgetUSD < 0 || math.IsNaN(o.maxBudgetUSD) || math.IsInf(o.maxBudgetUSD, 0) {
		return fmt.Errorf("v2: WithMaxBudgetUSD(%v): must be positive and finite", o.maxBudgetUSD)
	}
	for _, l := range []struct {
		opt   string
		names []string
	}{{"WithFallbackModels", o.fallbackModels}, {"WithBetas", o.betas}, {"WithTools", o.tools}} {
		for _, n := range l.names {
			if n == "" || strings.Contains(n, ",") {
				return fmt.Errorf("v2: %s(%q): a name must not be empty or hold a comma", l.opt, n)
			}
		}
	}
	for i, f := range o.fallbackModels {
		if f == o.model || slices.Contains(o.fallbackModels[:i], f) {
			return fmt.Errorf("v2: WithFallbackModels(%q): the same model as WithModel or an earlier fallback", f)
		}
	}
	if efforts := []Effort{EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax}; o.effort != "" && !slices.Contains(efforts, o.effort) {
		return fmt.Errorf("v2: WithEffort(%q): unknown effort level%s", o.effort, didYouMean(string(o.effort), efforts))
	}
	if o.taskBudget < 0 {
		return errors.New("v2: WithTaskBudget must be positive")
	}
	return nil
}

// checkThinking checks extended thinking: WithThinking or WithMaxThinkingTokens, one of them, and
// WithThinkingDisplay.
func (o *config) checkThinking() error {
	if modes := []ThinkingMode{ThinkingAdaptive, ThinkingDisabled}; o.thinking != "" && !slices.Contains(modes, o.thinking) {
		return fmt.Errorf("v2: WithThinking(%q): unknown thinking mode%s", o.thinking, didYouMean(string(o.thinking), modes))
	}
	if o.maxThinking < 0 {
		return errors.New("v2: WithMaxThinkingTokens must be positive")
	}
	if o.thinking != "" && o.maxThinking > 0 {
		return errors.New("v2: WithThinking and WithMaxThinkingTokens exclude each other")
	}
	if modes := []ThinkingDisplay{ThinkingDisplaySummarized, ThinkingDisplayOmitted, ThinkingDisplayHighlights}; o.thinkingDisplay != "" && !slices.Contains(modes, o.thinkingDisplay) {
		return fmt.Errorf("v2: WithThinkingDisplay(%q): unknown display mode%s", o.thinkingDisplay, didYouMean(string(o.thinkingDisplay), modes))
	}
	if o.thinkingDisplay != "" && o.thinking == ThinkingDisabled {
		return errors.New("v2: WithThinkingDisplay and WithThinking(ThinkingDisabled) exclude each other")
	}
	return nil
}

// checkAgents checks WithAgents's definitions.
func (o *config) checkAgents() error {
	for name, a := range o.agents {
		if name == "" || a.Description == "" || a.Prompt == "" {
			return fmt.Errorf("v2: WithAgents: agent %q needs a name, a Description and a Prompt", name)
		}
		if a.MaxTurns < 0 {
			return fmt.Errorf("v2: WithAgents: agent %q: negative MaxTurns", name)
		}
		for _, n := range a.Skills {
			if why := badSkillName(n); why != "" {
				return fmt.Errorf("v2: WithAgents: agent %q: skill %q: %s", name, n, why)
			}
		}
		if err := a.validate(); err != nil {
			return fmt.Errorf("v2: WithAgents: agent %q: %w", name, err)
		}
	}
	return nil
}

// checkSettingsSources checks where settings come from: WithSettingSources, WithProjectConfigRoot,
// WithManagedSettings, WithPluginDirs; and WithWrapper.
func (o *config) checkSettingsSources() error {
	sources := []SettingSource{SettingSourceUser, SettingSourceProject, SettingSourceLocal}
	for _, s := range o.settingSources {
		if !slices.Contains(sources, s) {
			return fmt.Errorf("v2: WithSettingSources: unknown source %q%s", s, didYouMean(string(s), sources))
		}
	}
	for _, d := range o.pluginDirs {
		if d == "" {
			return errors.New("v2: WithPluginDirs: empty path")
		}
	}
	if o.configRoot != "" && !filepath.IsAbs(o.configRoot) {
		return fmt.Errorf("v2: WithProjectConfigRoot(%q): not an absolute path", o.configRoot)
	}
	if o.managed != "" {
		if err := checkManagedSettings(o.managed); err != nil {
			return fmt.Errorf("v2: WithManagedSettings: %w", err)
		}
	}
	if len(o.wrapper) > 0 && o.wrapper[0] == "" {
		return errors.New("v2: WithWrapper: empty command")
	}
	return nil
}

// checkToolAliases checks WithToolAliases: names not empty, no alias of itself, one hop only.
func (o *config) checkToolAliases() error {
	for k, v := range o.toolAliases {
		switch {
		case strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "":
			return fmt.Errorf("v2: WithToolAliases(%q: %q): empty name", k, v)
		case k == v:
			return fmt.Errorf("v2: WithToolAliases(%q): an alias of itself", k)
		}
		if _, chained := o.toolAliases[v]; chained {
			return fmt.Errorf("v2: WithToolAliases(%q: %q): %q is an alias too, the CLI follows one hop only", k, v, v)
		}
	}
	return nil
}

// checkSandbox checks WithSandbox: no empty pattern, path or domain, ports in range, no
// "sandbox" key in WithSettings's inline JSON (a settings file is checked when it is merged).
func (o *config) checkSandbox() error {
	sb := o.sandbox
	if sb == nil {
		return nil
	}
	lists := map[string][]string{
		"ExcludedCommands": sb.ExcludedCommands, "Network.AllowedDomains": sb.Network.AllowedDomains,
		"Network.DeniedDomains": sb.Network.DeniedDomains, "Network.AllowUnixSockets": sb.Network.AllowUnixSockets,
		"Filesystem.AllowWrite": sb.Filesystem.AllowWrite, "Filesystem.DenyWrite": sb.Filesystem.DenyWrite,
		"Filesystem.DenyRead": sb.Filesystem.DenyRead, "Filesystem.AllowRead": sb.Filesystem.AllowRead,
		"Credentials.DenyEnv": sb.Credentials.DenyEnv, "Credentials.DenyFiles": sb.Credentials.DenyFiles,
	}
	for k, paths := range sb.IgnoreViolations {
		if strings.TrimSpace(k) == "" {
			return errors.New("v2: WithSandbox: IgnoreViolations: empty command pattern")
		}
		lists["IgnoreViolations["+k+"]"] = paths
	}
	for name, l := range lists {
		for _, v := range l {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("v2: WithSandbox: %s: empty entry", name)
			}
		}
	}
	if user := strings.TrimSpace(o.settings); strings.HasPrefix(user, "{") {
		var top map[string]jsontext.Value
		if json.Unmarshal([]byte(user), &top) == nil {
			if _, ok := top["sandbox"]; ok {
				return errSandboxSettings
			}
		}
	}
	for _, p := range []int{sb.Network.HTTPProxyPort, sb.Network.SOCKSProxyPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("v2: WithSandbox: proxy port %d out of range", p)
		}
	}
	return nil
}

// checkSkills checks WithSkills and WithAllSkills.
func (o *config) checkSkills() error {
	if o.allSkills && o.skillsSet {
		return errors.New("v2: WithSkills and WithAllSkills exclude each other")
	}
	for _, n := range o.skillNames {
		if why := badSkillName(n); why != "" {
			return fmt.Errorf("v2: WithSkills(%q): %s", n, why)
		}
	}
	return nil
}
