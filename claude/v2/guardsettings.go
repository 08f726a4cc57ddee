package v2

import (
	"github.com/hookwire/agent-sdk-go/claude/settings"
)

// checkSettingsMode refuses a guarded session whose CLI would take, from the settings files it
// loads, a permissions.defaultMode in which a configured guard never runs: without
// WithPermissionMode the CLI starts in that mode (CLI 2.1.332 ran a Write unasked under a user
// settings file's acceptEdits or auto, the can_use_tool callback never called:
// TestRealCLI_SettingsDefaultModeThatSkipsAGuardIsRefused). The program's WithPermissionMode
// wins over the files. WithAllowUnenforcedHooks accepts it, with a warning. It reads the
// repository's files, so it runs before the CLI starts and only after they passed their own
// checks (prepareProject: no link, no FIFO).
func (s *Session) checkSettingsMode(o *config) error {
	err := o.settingsModeSkipsGuards()
	if err != nil && o.allowUnenforced {
		s.acceptUnfired(err)
		return nil
	}
	return err
}

// settingsModeSkipsGuards is checkSettingsMode's error, whatever WithAllowUnenforcedHooks says.
// A mode set by an option (WithPermissionMode, WithSettings) is unfiredGuard's to check.
func (o *config) settingsModeSkipsGuards() error {
	guards := o.promptGuards()
	if inline, _ := o.inlinePermissions(); len(guards) == 0 || o.permissionMode != "" || inline != "" {
		return nil
	}
	const fix = "give the session its mode with WithPermissionMode(PermissionModeDefault), which wins over the settings files"
	r, err := o.resolveSettings()
	if err != nil {
		return guardErr("WithSettingSources/"+guards[0].options, "the settings files the CLI loads are unreadable (%v), so the SDK cannot tell whether their permissions.defaultMode switches %s off; fix the file, or %s", err, guards[0].name, fix)
	}
	perms, _ := settings.FilterEscalatingDefaultMode(r)["permissions"].(map[string]any)
	mode, _ := perms["defaultMode"].(string)
	g, why := skippedGuard(guards, PermissionMode(mode))
	if why == "" {
		return nil
	}
	return guardErr("WithSettingSources/"+g.options, "%s never runs%s: the settings the CLI loads (%s) set permissions.defaultMode %s, the mode the CLI starts in without WithPermissionMode: %s; %s, or leave that file's tier out (WithSettingSources), or %s",
		g.name, g.scope(PermissionMode(mode)), defaultModeFile(r), mode, why, fix, guardFix)
}

// defaultModeFile names the tier (and file) whose permissions.defaultMode the CLI applies: the
// highest that sets one.
func defaultModeFile(r *settings.Resolved) string {
	for i := len(r.Sources) - 1; i >= 0; i-- {
		s := r.Sources[i]
		if p, _ := s.Settings["permissions"].(map[string]any); p != nil {
			if _, ok := p["defaultMode"]; ok {
				if s.Path != "" {
					return string(s.Source) + " tier, " + s.Path
				}
				return string(s.Source) + " tier"
			}
		}
	}
	return "no file"
}
