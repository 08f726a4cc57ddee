package v2

import (
	"maps"
	"path/filepath"
	"slices"

	"github.com/hookwire/agent-sdk-go/claude/internal/project"
)

// agentsSkipGuards is the error for an agent of WithAgents whose PermissionMode switches a guard
// off for the calls it makes as a subagent, or nil. CLI 2.1.332 runs a subagent with acceptEdits
// or auto in that mode whatever the session's, dontAsk included, and asks neither guard
// (TestRealCLI_AgentModeThatSkipsAGuardIsRefused); it kept asking under an agent's
// bypassPermissions, a mode the session did not have, which is refused all the same: the
// definition asks for no prompts, and a CLI that grants it would skip the guard.
func agentsSkipGuards(guards []promptGuard, agents map[string]AgentDefinition) error {
	for _, name := range slices.Sorted(maps.Keys(agents)) {
		mode := agents[name].PermissionMode
		if g, why := skippedGuard(guards, mode); why != "" {
			return guardErr("WithAgents/"+g.options, "%s never runs%s for the tool calls of agent %q, whose PermissionMode is %s: %s; drop the agent's PermissionMode (it then runs in the session's mode) or set it to %s or %s, or %s",
				g.name, g.scope(mode), name, mode, why, PermissionModeDefault, PermissionModeDontAsk, guardFix)
		}
	}
	return nil
}

// checkUserAgents refuses an agent of the user's settings (the CLI's config directory's agents,
// ~/.claude/agents, which the CLI loads with SettingSourceUser, the default) whose permissionMode
// would switch a guard off for the calls it makes as a subagent, by the rule an agent of
// WithAgents is refused with: CLI 2.1.332 ran such an agent's Write in its own mode, unasked
// (TestRealCLI_UserAgentModeThatSkipsAGuardIsRefused). WithAllowUnenforcedHooks accepts it. It
// reads files, so it runs after checkPaths, before the CLI starts.
func (o *config) checkUserAgents() error {
	if o.allowUnenforced {
		return nil
	}
	return o.userAgentsSkipGuards()
}

// userAgentsSkipGuards is checkUserAgents's error, whatever WithAllowUnenforcedHooks says.
func (o *config) userAgentsSkipGuards() error { return o.userAgentsSkip(o.promptGuards()) }

// userAgentsSkip is the error for the first of guards an agent of the user's settings switches
// off, or nil.
func (o *config) userAgentsSkip(guards []promptGuard) error {
	dir := cliConfigDir(o.baseEnv, o.env)
	if len(guards) == 0 || dir == "" || !slices.Contains(o.effectiveSources(), SettingSourceUser) {
		return nil
	}
	const leaveOut = "leave the user's settings out (WithSettingSources without SettingSourceUser)"
	agents, err := project.AgentModes(filepath.Join(string(dir), "agents"))
	if err != nil {
		return guardErr("WithSettingSources/"+guards[0].options, "the user's agents are unreadable (%v), so the SDK cannot tell whether one runs its tool calls without asking %s; fix the file, %s, or accept it with WithAllowUnenforcedHooks", err, guards[0].name, leaveOut)
	}
	for _, a := range agents {
		mode := PermissionMode(a.Mode)
		if g, why := skippedGuard(guards, mode); why != "" {
			return guardErr("WithSettingSources/"+g.options, "%s never runs%s for the tool calls of agent %q of the user's settings (%s), whose permissionMode is %s: %s; remove its permissionMode, %s, or %s",
				g.name, g.scope(mode), a.Name, a.File, mode, why, leaveOut, guardFix)
		}
	}
	return nil
}
