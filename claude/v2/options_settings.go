package v2

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// WithSettings passes settings to the CLI at the flag tier (--settings): a JSON object, or the
// path of a file holding one (relative to WithCwd's directory). The SDK always copies them,
// merged with its own settings hooks (WithCommandHooks, WithPromptHooks, WithSandbox), into a
// temporary file (mode 0600, removed by Close) and passes its path, so that the JSON, secrets
// included, never shows on the command line (/proc/PID/cmdline). Settings that are not a JSON
// object are a CreateSession error. Default: none.
func WithSettings(fileOrJSON string) Option {
	return setOption("WithSettings", func(o *config) { o.settings = fileOrJSON })
}

// SettingSource is a settings file the CLI may load (WithSettingSources), or writes
// (Session.UpdateSettings), and the scope of an agent's memory (AgentDefinition.Memory).
type SettingSource string

// The setting sources of WithSettingSources.
const (
	// SettingSourceUser is ~/.claude/settings.json.
	SettingSourceUser SettingSource = "user"
	// SettingSourceProject is <project>/.claude/settings.json.
	SettingSourceProject SettingSource = "project"
	// SettingSourceLocal is <project>/.claude/settings.local.json.
	SettingSourceLocal SettingSource = "local"
)

// WithSettingSources loads only these settings files (--setting-sources); WithSettingSources()
// with none loads no settings file (managed settings and WithSettings still apply). Naming
// SettingSourceProject or SettingSourceLocal loads the repository's files as WithTrustedProject
// does, checked by the SDK before the CLI starts (ErrUntrustedProject). Default: the user's
// settings only (SettingSourceUser), so that nothing of the repository reaches the CLI; all three
// with WithTrustedProject or WithProjectConfigRoot.
func WithSettingSources(sources ...SettingSource) Option {
	return setOption("WithSettingSources", func(o *config) {
		o.settingSources = append(o.settingSources, sources...)
		o.sourcesSet = true
	})
}

// WithManagedSettings passes restrictive settings at the policy tier (--managed-settings; the
// TypeScript SDK's managedSettings), which user, project, local and WithSettings settings cannot
// loosen: a deny rule there holds whatever the others allow. settingsJSON must be a JSON object
// of restrictive keys only: "permissions" with "deny", "ask", "disableBypassPermissionsMode" or
// "disableAutoMode"; "allowManaged..." true; "disable..." true or "disable"; "enable..." false.
// Any other key is an error: CLI 2.1.330 applies what it is given at that tier, an allow rule
// too (TestRealCLI_ManagedSettings), where the TypeScript SDK drops non-restrictive keys
// silently. "disableAllHooks", "allowManagedHooksOnly" and "strictPluginOnlyCustomization" are
// errors too, whatever their value: at the policy tier they would switch off the session's own
// settings hooks (WithCommandHooks), which nothing can outrank. Default: none beyond the
// machine's managed settings.
func WithManagedSettings(settingsJSON string) Option {
	return setOption("WithManagedSettings", func(o *config) { o.managed = settingsJSON })
}

// checkManagedSettings checks that settings is a JSON object of restrictive keys only (see
// WithManagedSettings).
func checkManagedSettings(settings string) error {
	var top map[string]jsontext.Value
	if err := json.Unmarshal([]byte(settings), &top); err != nil || top == nil {
		return fmt.Errorf("not a JSON object: %.100s", settings)
	}
	for k, v := range top {
		var b any
		_ = json.Unmarshal(v, &b)
		switch {
		case k == "disableAllHooks" || k == "allowManagedHooksOnly" || k == "strictPluginOnlyCustomization":
			// CLI 2.1.330 reads any value but false of disableAllHooks as true on some paths.
			return fmt.Errorf("%s: it would switch off the session's own settings hooks (WithCommandHooks, WithPromptHooks, WithSettings's hooks), which the policy tier outranks; to keep a repository's hooks out, use WithSettingSources without SettingSourceProject and SettingSourceLocal, or WithProjectConfigRoot; Go hooks (WithHooks) are never switched off", k)
		case k == "permissions":
			var p map[string]jsontext.Value
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("permissions: not an object: %w", err)
			}
			for pk := range p {
				switch pk {
				case "deny", "ask", "disableBypassPermissionsMode", "disableAutoMode":
				default:
					return fmt.Errorf("permissions.%s: not a restrictive key (deny, ask, disableBypassPermissionsMode, disableAutoMode)", pk)
				}
			}
		case strings.HasPrefix(k, "allowManaged") && b == true:
		case strings.HasPrefix(k, "disable") && (b == true || b == "disable"):
		case strings.HasPrefix(k, "enable") && b == false:
		default:
			return fmt.Errorf("%s: not a restrictive setting: the CLI would apply it at the policy tier", k)
		}
	}
	return nil
}

// WithProjectConfigRoot reads the project's settings (permissions, hooks), .mcp.json and .claude
// trees (commands, agents, skills, output styles) from dir, an absolute path, instead of the
// working directory (--project-config-root; the TypeScript SDK's projectConfigRoot): for a
// session run in a worktree or checkout whose own .claude must not decide, dir being the trusted
// checkout. It loads the project's settings (the setting sources default to all three, as with
// WithTrustedProject), and the SDK checks the files of dir and of the working directory before
// the CLI starts (ErrUntrustedProject): the CLI still reads memory files (CLAUDE.md) from the
// working directory. Default: the working directory's, when the project is loaded at all.
func WithProjectConfigRoot(dir string) Option {
	return setOption("WithProjectConfigRoot", func(o *config) { o.configRoot = dir })
}

// WithPluginDirs loads Claude Code plugins from these directories (or .zip files) for this
// session only (--plugin-dir, once each): their commands, agents, skills and hooks, which run
// with the program's trust, unchecked. A plugin inside the working directory or the project
// config root (as given, or through a symbolic link) is the repository's, not the program's:
// CreateSession refuses it with ErrUntrustedProject, even with WithTrustedProject. Default: none
// beyond the installed ones.
func WithPluginDirs(dirs ...string) Option {
	return setOption("WithPluginDirs", func(o *config) { o.pluginDirs = append(o.pluginDirs, dirs...) })
}
