package v2

import (
	"bytes"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// The builders below walk optionTable (optiontable.go): each puts the values of the rows of its
// destination where the CLI or the transport reads them.

// protocolArgs are the arguments of the protocol the SDK speaks (stream-json both ways), first
// on every command line; WithExtraArgs may not repeat them (ownedFlags).
var protocolArgs = []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json"}

// args returns the CLI's arguments: the protocol's, then the toArgv rows' in table order. Every
// value goes in the same argument as its flag ("--model=x"), which the CLI's parser (commander.js,
// and the CLI's own pre-scan of its arguments) reads as that flag's value whatever it holds: a
// value such as "--dangerously-skip-permissions" can never be read as a flag of its own.
// WithExtraArgs are passed as given, last.
func (o *config) args() []string {
	a := slices.Clone(protocolArgs)
	for _, r := range optionTable {
		if r.argv != nil {
			a = append(a, r.argv(o)...)
		}
	}
	return a
}

// envVars returns the variables the CLI's environment gets on top of its base (the toEnv rows).
func (o *config) envVars() []string {
	var env []string
	for _, r := range optionTable {
		if r.env != nil {
			env = append(env, r.env(o)...)
		}
	}
	return env
}

// initRequest returns the initialize request with the hook registration reg (the toInitialize
// rows); first is the session's first initialize, the only one with the MCP servers.
func (o *config) initRequest(reg hooks.Registration, first bool) initRequest {
	req := initRequest{Hooks: reg}
	for _, r := range optionTable {
		if r.init != nil {
			r.init(o, &req, first)
		}
	}
	return req
}

// initRequest is the initialize request of a later initialize (Reinitialize, sendRegistration):
// the hooks, agents, skills allowlist (the CLI replaces its allowlist with each one that has it)
// and the other initialize options; not the MCP servers, which the CLI keeps.
func (s *Session) initRequest(reg hooks.Registration) initRequest {
	return s.o.initRequest(reg, false)
}

// transportConfig returns the transport's configuration (the toTransport rows) with the
// arguments and the environment; CreateSession adds the handlers it owns.
func (o *config) transportConfig() subprocess.Config {
	tc := subprocess.Config{Args: o.args(), Env: o.envVars()}
	for _, r := range optionTable {
		if r.transport != nil {
			r.transport(o, &tc)
		}
	}
	return tc
}

// findCLI returns the CLI's path: with WithWrapper, WithCLIPath as given (or "claude"), for the
// wrapper to find; else subprocess.FindCLI's.
func findCLI(o *config) (string, error) {
	if len(o.wrapper) > 0 || o.spawner != nil {
		if o.cliPath != "" {
			return o.cliPath, nil
		}
		return "claude", nil
	}
	p, err := subprocess.FindCLI(o.cliPath)
	if err != nil && o.cliPath != "" {
		return "", &OptionError{Option: "WithCLIPath", Problem: strings.TrimPrefix(err.Error(), "v2: "), Err: err}
	}
	return p, err
}

// systemPromptArg returns the --system-prompt value, if one is passed: WithSystemPrompt's, or ""
// (the official SDKs' default) unless the CLI's own prompt was asked for.
func (o *config) systemPromptArg() (string, bool) {
	switch {
	case o.systemPrompt != nil:
		return *o.systemPrompt, true
	case o.claudeCode || o.appendGiven || o.systemPromptFile != "":
		return "", false
	}
	return "", true
}

// mcpEntries returns the external servers as the CLI reads them (initialize's mcpServers).
func (o *config) mcpEntries() map[string]mcpServerEntry {
	if len(o.mcpExternal) == 0 {
		return nil
	}
	out := make(map[string]mcpServerEntry, len(o.mcpExternal))
	for n, c := range o.mcpExternal {
		e, _ := entryOf(c) // validated
		out[n] = e
	}
	return out
}

// hasSettingsHooks reports whether settings must be merged: settings hooks, or WithSandbox.
func (o *config) hasSettingsHooks() bool {
	return len(o.commandHooks) > 0 || len(o.promptHooks) > 0 || o.sandbox != nil
}

// settingsDoc is the merged settings while the toSettings rows build it.
type settingsDoc struct {
	top   map[string]jsontext.Value
	hooks map[string][]jsontext.Value // top's "hooks", decoded, for the hook rows to append to
}

// mergedSettings returns the settings JSON to pass to the CLI (the toSettings rows): WithSettings
// (a JSON object, or the path of a file holding one; "" for none) with the settings hooks
// appended to its "hooks" and WithSandbox's "sandbox". The user's keys and hooks are kept as they
// are (byte for byte, but for key order).
func (o *config) mergedSettings() ([]byte, error) {
	d := &settingsDoc{top: map[string]jsontext.Value{}, hooks: map[string][]jsontext.Value{}}
	for _, r := range optionTable {
		if r.settings == nil {
			continue
		}
		if err := r.settings(o, d); err != nil {
			return nil, err
		}
	}
	return json.Marshal(d.top, json.Deterministic(true))
}

// mergeUserSettings reads WithSettings's object as the base of the merged settings.
func (o *config) mergeUserSettings(d *settingsDoc) error {
	user := strings.TrimSpace(o.settings)
	if user == "" {
		return nil
	}
	data := []byte(user)
	if !strings.HasPrefix(user, "{") {
		path := o.settings
		if !filepath.IsAbs(path) && o.cwd != "" {
			path = filepath.Join(o.cwd, path) // where the CLI, run in o.cwd, would read it
		}
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return fmt.Errorf("v2: reading the settings to merge hooks into: %w", err)
		}
	}
	if err := json.Unmarshal(data, &d.top); err != nil || d.top == nil {
		return fmt.Errorf("v2: WithSettings is not a JSON object, hooks cannot be merged into it: %v", err)
	}
	if raw, ok := d.top["hooks"]; ok && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if err := json.Unmarshal(raw, &d.hooks); err != nil {
			return fmt.Errorf("v2: the settings' \"hooks\" must map events to lists, to merge hooks into them: %w", err)
		}
	}
	return nil
}

// addHook appends one settings hook to the event's list.
func (d *settingsDoc) addHook(e shared.HookEvent, matcher string, h settingsHook) error {
	b, err := json.Marshal(settingsMatcher{Matcher: matcher, Hooks: []settingsHook{h}})
	if err != nil {
		return err
	}
	d.hooks[string(e)] = append(d.hooks[string(e)], b)
	return nil
}

// mergeCommandHooks appends WithCommandHooks's hooks.
func (o *config) mergeCommandHooks(d *settingsDoc) error {
	for _, e := range sortedEvents(o.commandHooks) {
		for _, h := range o.commandHooks[e] {
			if err := d.addHook(e, h.Matcher, settingsHook{Type: "command", Command: h.Command, Timeout: seconds(h.Timeout)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergePromptHooks appends WithPromptHooks's hooks.
func (o *config) mergePromptHooks(d *settingsDoc) error {
	for _, e := range sortedEvents(o.promptHooks) {
		for _, h := range o.promptHooks[e] {
			if err := d.addHook(e, h.Matcher, settingsHook{Type: "prompt", Prompt: h.Prompt, Timeout: seconds(h.Timeout)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeHooks writes the hooks back into top, with "disableAllHooks": false when there are any.
func (d *settingsDoc) closeHooks() error {
	raw, err := json.Marshal(d.hooks, json.Deterministic(true))
	if err != nil {
		return err
	}
	d.top["hooks"] = raw
	if len(d.hooks) > 0 {
		// A settings file the program does not own (the user's, the project's, the local one) may
		// set "disableAllHooks": true; the flag tier outranks them (docs/HOOKS.md), so the
		// program's hooks hold. WithSettings's own true contradicts its hooks: refuse it.
		if v, ok := d.top["disableAllHooks"]; ok && !bytes.Equal(bytes.TrimSpace(v), []byte("false")) {
			return fmt.Errorf("v2: WithSettings sets \"disableAllHooks\": %s, which would switch off the settings hooks (WithCommandHooks, WithPromptHooks, its own \"hooks\"): remove the key, or the hooks", v)
		}
		d.top["disableAllHooks"] = jsontext.Value("false")
	}
	return nil
}

// mergeSandbox adds WithSandbox's settings, refusing to replace a "sandbox" key of WithSettings.
func (o *config) mergeSandbox(d *settingsDoc) error {
	sb := o.sandbox
	if sb == nil {
		return nil
	}
	if _, ok := d.top["sandbox"]; ok {
		return errSandboxSettings
	}
	raw, err := json.Marshal(sandboxSettings{
		Enabled: true, FailIfUnavailable: !sb.AllowUnavailable, AutoAllowBashIfSandboxed: sb.AutoAllowBash,
		AllowUnsandboxedCommands: sb.AllowUnsandboxedCommands, Sandbox: *sb,
	}, json.Deterministic(true))
	if err != nil {
		return fmt.Errorf("v2: WithSandbox: %w", err)
	}
	d.top["sandbox"] = raw
	return nil
}
