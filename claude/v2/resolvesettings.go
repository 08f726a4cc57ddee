package v2

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/settings"
)

// ResolveSettings returns what the CLI of a session made with opts would apply from its settings,
// tier by tier, without starting it (the TypeScript SDK's resolveSettings, for a session's
// options): the user's settings of the session's environment (CLAUDE_CONFIG_DIR, else HOME's
// .claude; WithBaseEnv, WithEnv), the project's and local files of WithCwd (or
// WithProjectConfigRoot) when the session's setting sources load them (WithSettingSources,
// WithTrustedProject), the --settings document the SDK would pass (WithSettings, WithSandbox,
// the settings hooks), and the managed tier (this machine's managed settings, else
// WithManagedSettings). The options are validated as CreateSession validates them.
//
// It is a report: pass the result through settings.FilterEscalatingDefaultMode before acting on
// permissions.defaultMode. A session confined by WithPolicy reads its user settings from a private
// directory instead (docs/CONFINEMENT.md). Session.Settings asks a running CLI.
func ResolveSettings(opts ...Option) (*settings.Resolved, error) {
	o := newConfig(opts)
	if err := o.validate(); err != nil {
		return nil, callErr("ResolveSettings", err)
	}
	if err := o.checkPaths(); err != nil {
		return nil, callErr("ResolveSettings", err)
	}
	r, err := o.resolveSettings()
	return r, callErr("ResolveSettings", err)
}

// resolveSettings is ResolveSettings for validated options.
func (o *config) resolveSettings() (*settings.Resolved, error) {
	flag, err := o.mergedSettings()
	if err != nil {
		return nil, err
	}
	so := settings.Options{Cwd: o.cwd, ProjectConfigRoot: o.configRoot, ConfigDir: string(cliConfigDir(o.baseEnv, o.env)), Managed: []byte(o.managed)}
	if string(flag) != "{}" {
		so.Flag = flag
	}
	so.Sources = []settings.Source{}
	for _, s := range o.effectiveSources() {
		so.Sources = append(so.Sources, settings.Source(s))
	}
	return settings.Resolve(so)
}

// CLISettings is what a running CLI answers Session.Settings.
type CLISettings struct {
	// Resolved is the CLI's merged settings and its tiers, in settings.Resolve's form (its
	// Provenance computed from the tiers; Skipped is empty: the CLI reports a file it skipped
	// elsewhere).
	Resolved *settings.Resolved
	// Applied are values the CLI applies after the settings: the model and effort of the next
	// turn, and switches of CLI 2.1.332's own (the get_settings answer's "applied").
	Applied map[string]any
}

// cliSources maps the CLI's names of its tiers to settings.Source.
var cliSources = map[string]settings.Source{
	"userSettings": settings.User, "projectSettings": settings.Project, "localSettings": settings.Local,
	"flagSettings": settings.Flag, "policySettings": settings.Managed,
}

// Settings asks the CLI which settings it applies (the control request get_settings): the merged
// settings, each tier as it read it, and the values it applies on top. ResolveSettings answers
// the same question before a session starts.
func (s *Session) Settings(ctx context.Context) (*CLISettings, error) {
	v, err := s.t.Request(ctx, anyRequest{subtype: "get_settings"})
	if err != nil {
		return nil, callErr("Settings", err)
	}
	var a struct {
		Effective map[string]any `json:"effective"`
		Sources   []struct {
			Source   string         `json:"source"`
			Path     string         `json:"path"`
			Settings map[string]any `json:"settings"`
		} `json:"sources"`
		Applied map[string]any `json:"applied"`
	}
	if err := json.Unmarshal(v, &a); err != nil {
		return nil, callErr("Settings", fmt.Errorf("v2: the CLI's get_settings answer: %w", err))
	}
	r := &settings.Resolved{Effective: a.Effective, Provenance: map[string]settings.Provenance{}}
	if r.Effective == nil {
		r.Effective = map[string]any{}
	}
	for _, src := range a.Sources {
		name, ok := cliSources[src.Source]
		if !ok {
			name = settings.Source(src.Source) // a tier of a newer CLI, under its own name
		}
		r.Sources = append(r.Sources, settings.SourceSettings{Source: name, Path: src.Path, Settings: src.Settings})
		for k := range src.Settings {
			r.Provenance[k] = settings.Provenance{Source: name, Path: src.Path}
		}
	}
	return &CLISettings{Resolved: r, Applied: a.Applied}, nil
}
