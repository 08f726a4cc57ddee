package v2

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ErrGuardCannotFire: a guard the options set up would never run for what it guards, so the
// action would happen unguarded: a PermissionRequest hook, a WithCanUseTool callback or a
// WithPermissionPromptTool tool under a permission mode or allow rules that skip the permission
// prompt (the session's, or an agent's AgentDefinition.PermissionMode for the calls of that
// subagent), or a deny hook whose matcher names no tool of the CLI. CreateSession returns it in
// an *OptionError naming the options to fix, SetPermissionMode for a mode that would skip a
// guard, RegisterScoped for a PermissionRequest hook the session's mode or an agent's skips; a
// permission answer (WithCanUseTool's, a PermissionRequest hook's, an in-process prompt tool's)
// whose updatedPermissions switch to such a mode (setMode, as when leaving plan mode) is denied
// with it. WithAllowUnenforcedHooks accepts such a guard (with a warning) instead.
var ErrGuardCannotFire = errors.New("v2: a guard cannot fire")

// acceptEditsTools are the tools PermissionModeAcceptEdits lets through without asking (in the
// session's directories): the edit tools, and the shell for file commands (CLI 2.1.332 ran a Bash
// "touch", "rm" and "echo x > file" there without asking, and asked for curl and python;
// TestRealCLI_AcceptEditsSkipsShellGuard). PowerShell is counted with Bash without a probe.
var acceptEditsTools = []string{"Write", "Edit", "NotebookEdit", "Bash", "PowerShell"}

// promptGuard is a guard that runs only when the CLI would ask for permission.
type promptGuard struct {
	name    string          // as the message names it
	options string          // the options that set it
	m       *shared.Matcher // nil: every tool
}

// promptGuards are the session's PermissionRequest hooks, WithCanUseTool callback and
// WithPermissionPromptTool tool (the CLI asks it where it would ask the callback).
func (o *config) promptGuards() []promptGuard {
	var out []promptGuard
	for i, c := range o.hooks[shared.HookEventPermissionRequest] {
		m, err := shared.CompileMatcher(c.Matcher)
		if err != nil {
			continue // checkHookRegistrations reported it
		}
		out = append(out, promptGuard{fmt.Sprintf("the PermissionRequest hook [%d] (matcher %q)", i, c.Matcher), "WithHooks/WithHook", m})
	}
	if o.canUseTool != nil {
		out = append(out, promptGuard{"the WithCanUseTool callback", "WithCanUseTool", nil})
	}
	if o.promptTool != "" {
		out = append(out, promptGuard{fmt.Sprintf("the permission prompt tool %q", o.promptTool), "WithPermissionPromptTool", nil})
	}
	return out
}

// inlinePermissions are the permission mode and allow rules of WithSettings's inline JSON (a
// settings file the program names is the CLI's to read; issue 32's checks see it).
func (o *config) inlinePermissions() (mode PermissionMode, allow []string) {
	user := strings.TrimSpace(o.settings)
	if !strings.HasPrefix(user, "{") {
		return "", nil
	}
	var doc struct {
		Permissions struct {
			DefaultMode PermissionMode `json:"defaultMode"`
			Allow       []string       `json:"allow"`
		} `json:"permissions"`
	}
	if json.Unmarshal([]byte(user), &doc) != nil {
		return "", nil
	}
	return doc.Permissions.DefaultMode, doc.Permissions.Allow
}

// checkGuardsCanFire refuses a PermissionRequest hook or a WithCanUseTool callback that the
// options make unreachable: the CLI asks no permission under PermissionModeBypassPermissions nor
// PermissionModeAuto (its own check lets calls through: CLI 2.1.330 and 2.1.332 ran a Write and a
// Bash call there without asking), none for the edit tools and the shell's file commands under
// PermissionModeAcceptEdits, and none for a tool an allow rule allows outright (WithAllowedTools,
// WithSettings' permissions.allow). PermissionModeDontAsk is accepted: the guard does not run
// there either, but the CLI denies every call no rule allows, so nothing happens unguarded (and a
// later SetPermissionMode may let the guard decide). A guard whose matcher names such a tool, or
// that would see nothing at all, is an ErrGuardCannotFire. The same rule (skippedGuard) applies
// to each agent's PermissionMode (WithAgents) for the calls it makes as a subagent.
// WithAllowUnenforcedHooks accepts it.
func (o *config) checkGuardsCanFire() error {
	if o.allowUnenforced {
		return nil
	}
	return o.unfiredGuard()
}

// warnUnfiredGuard warns of a guard that cannot fire, accepted by WithAllowUnenforcedHooks.
func (s *Session) warnUnfiredGuard() {
	if !s.o.allowUnenforced {
		return
	}
	for _, err := range []error{s.o.unfiredGuard(), s.o.userAgentsSkipGuards()} {
		s.acceptUnfired(err)
	}
}

// acceptUnfired warns of err, a guard that cannot fire, which WithAllowUnenforcedHooks accepted
// (nil: nothing).
func (s *Session) acceptUnfired(err error) {
	if err != nil {
		s.warn(strings.TrimPrefix(err.Error(), "v2: ") + " (accepted: WithAllowUnenforcedHooks)")
	}
}

// unfiredGuard is checkGuardsCanFire's error, whatever WithAllowUnenforcedHooks says.
func (o *config) unfiredGuard() error {
	mode, modeOpt := o.permissionMode, "WithPermissionMode"
	if inline, _ := o.inlinePermissions(); mode == "" && inline != "" {
		mode, modeOpt = inline, "WithSettings"
	}
	return o.guardsSkipped(o.promptGuards(), mode, modeOpt)
}

// guardsSkipped is the error for the first of guards that cannot fire under mode (modeOpt names
// the option that set it), an agent's mode (WithAgents) or an allow rule, or nil.
func (o *config) guardsSkipped(guards []promptGuard, mode PermissionMode, modeOpt string) error {
	if len(guards) == 0 {
		return nil
	}
	_, inlineAllow := o.inlinePermissions()
	if err := modeSkipsGuards(guards, mode, modeOpt); err != nil {
		return err
	}
	if err := agentsSkipGuards(guards, o.agents); err != nil {
		return err
	}
	for _, g := range guards {
		names, finite := g.names()
		if !finite {
			continue // it guards the tools no rule allows
		}
		for _, l := range []struct {
			opt   string
			rules []string
		}{{"WithAllowedTools", o.allowedTools}, {"WithSettings", inlineAllow}} {
			for _, rule := range l.rules {
				if slices.Contains(names, strings.TrimSpace(rule)) {
					return guardErr(l.opt+"/"+g.options, "%s never runs for %s: the allow rule %q lets every call of it through without asking; drop the rule, %s", g.name, rule, rule, guardFix)
				}
			}
		}
	}
	return nil
}

// guardFix is how to fix a guard that cannot fire.
const guardFix = "guard with a PreToolUse hook (it runs in every permission mode), or accept it with WithAllowUnenforcedHooks"

// modeSkipsGuards is the error for guards under a permission mode in which the CLI never asks
// (modeOpt names the option that set it), or nil.
func modeSkipsGuards(guards []promptGuard, mode PermissionMode, modeOpt string) error {
	if g, why := skippedGuard(guards, mode); why != "" {
		return guardErr(modeOpt+"/"+g.options, "%s never runs%s under permission mode %s: %s; %s", g.name, g.scope(mode), mode, why, guardFix)
	}
	return nil
}

// skippedGuard is the one rule of which guard a permission mode switches off, for the session's
// mode (WithPermissionMode, WithSettings, SetPermissionMode), an agent's (AgentDefinition) and a
// mode an answer switches to (updatedPermissions' setMode): the first of guards that never runs
// under mode, and why ("" when each of them runs).
func skippedGuard(guards []promptGuard, mode PermissionMode) (promptGuard, string) {
	for _, g := range guards {
		switch {
		case mode == PermissionModeBypassPermissions:
			return g, "the CLI asks no permission and every tool call goes ahead"
		case mode == PermissionModeAuto:
			return g, "the CLI's own check lets tool calls through without asking"
		case mode == PermissionModeAcceptEdits && slices.ContainsFunc(acceptEditsTools, g.matches):
			return g, "the CLI allows them without asking"
		}
	}
	return promptGuard{}, ""
}

// scope is what of g's calls mode lets through, as the message says it: "" for all of them.
func (g promptGuard) scope(mode PermissionMode) string {
	if mode != PermissionModeAcceptEdits {
		return ""
	}
	return " for the edit tools and file commands (" + strings.Join(acceptEditsTools, ", ") + ")"
}

func (g promptGuard) matches(tool string) bool { return g.m == nil || g.m.Match(tool) }

// names are the tools g's matcher names, when it names finitely many.
func (g promptGuard) names() ([]string, bool) {
	if g.m == nil || g.m.MatchesAll() {
		return nil, false
	}
	return g.m.Names()
}

func guardErr(options, format string, args ...any) *OptionError {
	return &OptionError{Option: options, Problem: fmt.Sprintf(format, args...), Err: ErrGuardCannotFire}
}

// checkGuardToolNames refuses a hook of a tool event that guards an action (PreToolUse,
// PermissionRequest: a deny hook) whose matcher names a tool the CLI does not have, as the
// running CLI (version) would never send its name (shared.UnknownToolNames: a typo such as
// "Wirte"); WithStrictHooks refuses it for every tool event before the CLI starts, and
// WithAllowUnenforcedHooks accepts it with a warning (newExecutor's). It runs once the CLI
// reported its version, before any prompt.
func (s *Session) checkGuardToolNames(version string) error {
	if s.o.allowUnenforced {
		return nil
	}
	for _, e := range shared.AllHookEvents() {
		if !e.IsToolEvent() || !e.GuardsAction() {
			continue
		}
		for i, c := range s.o.hooks[e] {
			bad := shared.UnknownToolNames(shared.Hooks{e: {c}})
			if len(bad) == 0 {
				continue
			}
			var hints []string
			for _, n := range bad {
				hints = append(hints, n+didYouMean(n, shared.CLIToolNames()))
			}
			if version == "" {
				version = "(unknown version)"
			}
			return &OptionError{Option: "WithHooks/WithHook", Err: errors.Join(ErrGuardCannotFire, shared.ErrUnknownTool),
				Problem: fmt.Sprintf("the %s hook [%d] (matcher %q) never fires for %s: CLI %s has no tool of that name; fix the matcher, or accept it with WithAllowUnenforcedHooks",
					e, i, c.Matcher, strings.Join(hints, ", "), version)}
		}
	}
	return nil
}
