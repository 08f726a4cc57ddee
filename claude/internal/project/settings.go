package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// settingsKeys are the top-level keys of a repository's settings file that can neither run code,
// nor redirect the API, nor grant a permission, nor switch off a hook: the allowlist. "permissions",
// "env" and "hooks" are allowed with the checks of checkPermissions, checkEnv and checkHooks.
// Everything else is refused: hooks, credential and header helpers (apiKeyHelper,
// awsCredentialExport, awsAuthRefresh, gcpAuthRefresh, otelHeadersHelper, proxyAuthHelper),
// commands the CLI runs (statusLine, fileSuggestion), plugins and marketplaces (enabledPlugins,
// extraKnownMarketplaces), the sandbox's settings, disableAllHooks, and keys this list does not
// know yet.
var settingsKeys = []string{
	"$schema", "model", "effortLevel", "outputStyle", "language", "alwaysThinkingEnabled",
	"includeCoAuthoredBy", "includeGitInstructions", "spinnerTipsEnabled", "respectGitignore",
	// The SDK passes --strict-mcp-config: .mcp.json is not read, so these choose nothing.
	"enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers",
	"permissions", "env", "hooks",
}

// envKeys are the environment variables a repository's settings may set: limits and switches
// that turn something off. Anything else is refused: ANTHROPIC_BASE_URL and the proxy variables
// send the key and every request elsewhere, the Bedrock and Vertex variables choose another
// provider, BASH_ENV and CLAUDE_CODE_SHELL_PREFIX run code in the CLI's shells, NODE_OPTIONS,
// PATH and their kind run code in whatever starts next.
var envKeys = []string{
	"BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS", "BASH_MAX_OUTPUT_LENGTH",
	"CLAUDE_CODE_MAX_OUTPUT_TOKENS", "MAX_THINKING_TOKENS", "MAX_MCP_OUTPUT_TOKENS",
	"MCP_TIMEOUT", "MCP_TOOL_TIMEOUT",
	"DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER", "DISABLE_BUG_COMMAND",
	"DISABLE_COST_WARNINGS", "DISABLE_NON_ESSENTIAL_MODEL_CALLS",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "CLAUDE_CODE_DISABLE_TERMINAL_TITLE",
	"CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR",
}

// permissionKeys are the keys of "permissions" a repository may set. "allow" only empty (a
// repository grants nothing: the program does, with v2.WithAllowedTools); "defaultMode" only a
// mode that asks as much or more (defaultModes). "additionalDirectories" is refused: it widens
// what the tools may touch beyond the project.
var permissionKeys = []string{"allow", "deny", "ask", "defaultMode", "disableBypassPermissionsMode", "disableAutoMode"}

// defaultModes are the permission modes that grant nothing beyond the default.
var defaultModes = []string{"default", "plan", "dontAsk"}

// fixSettings is the fix for a refused settings key.
const fixSettings = "remove the key from the file, or leave the project's settings out (drop v2.WithTrustedProject, or name only v2.SettingSourceUser in v2.WithSettingSources); what the program needs it sets itself (v2.WithSettings, v2.WithEnv, v2.WithAllowedTools, v2.WithCommandHooks)"

// checkSettingsFile checks one settings file of the repository; a missing file is no refusal.
func checkSettingsFile(path string) []error {
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []error{err}
	}
	refuse := func(key, reason string) error {
		return &Error{File: path, Key: key, Reason: reason, Fix: fixSettings}
	}
	var top map[string]jsontext.Value
	if err := json.Unmarshal(data, &top); err != nil {
		return []error{refuse("", fmt.Sprintf("the SDK cannot read it as one JSON object, so it cannot check what the CLI would take from it (%v)", err))}
	}
	var errs []error
	for _, k := range sortedKeys(top) {
		v := top[k]
		switch {
		case !slices.Contains(settingsKeys, k):
			errs = append(errs, refuse(k, whyKey(k)))
		case k == "permissions":
			errs = append(errs, checkPermissions(v, refuse)...)
		case k == "env":
			errs = append(errs, checkEnv(v, refuse)...)
		case k == "hooks":
			errs = append(errs, checkHooks(v, refuse)...)
		}
	}
	return errs
}

// whyKey says what a refused top-level settings key would do.
func whyKey(k string) string {
	switch k {
	case "apiKeyHelper", "awsCredentialExport", "awsAuthRefresh", "gcpAuthRefresh", "otelHeadersHelper", "proxyAuthHelper":
		return "a credential or header helper: the CLI runs it on the host and takes the credential it prints"
	case "statusLine", "fileSuggestion":
		return "a command the CLI runs on the host"
	case "enabledPlugins", "extraKnownMarketplaces":
		return "plugins bring hooks, MCP servers and skills of their own"
	case "sandbox":
		return "the repository would configure the sandbox that confines it; the program sets it (v2.WithSandbox)"
	case "disableAllHooks", "allowManagedHooksOnly", "strictPluginOnlyCustomization":
		return "it would switch off or limit the user's own settings hooks"
	case "apiKey", "forceLoginMethod", "forceLoginOrgUUID":
		return "it would choose the account or the credential"
	}
	return "not a key the SDK knows to be harmless (the allowlist is in claude/internal/project/settings.go)"
}

// checkPermissions checks the "permissions" object.
func checkPermissions(v jsontext.Value, refuse func(key, reason string) error) []error {
	var p map[string]jsontext.Value
	if err := json.Unmarshal(v, &p); err != nil {
		return []error{refuse("permissions", "not a JSON object the SDK can read")}
	}
	var errs []error
	for _, k := range sortedKeys(p) {
		key := "permissions." + k
		switch k {
		case "allow":
			var rules []string
			if err := json.Unmarshal(p[k], &rules); err != nil || len(rules) > 0 {
				errs = append(errs, refuse(key, fmt.Sprintf("allow rules %s let the CLI run those tools without asking the program's permission callback (v2.WithCanUseTool) or prompting; a repository grants nothing, the program does (v2.WithAllowedTools)", p[k])))
			}
		case "defaultMode":
			var mode string
			if err := json.Unmarshal(p[k], &mode); err != nil || !slices.Contains(defaultModes, mode) {
				errs = append(errs, refuse(key, fmt.Sprintf("permission mode %s runs tools without asking the program's permission callback (v2.WithCanUseTool); only %s are taken from a repository", p[k], strings.Join(defaultModes, ", "))))
			}
		case "additionalDirectories":
			errs = append(errs, refuse(key, "it widens what the tools may read and write beyond the project (v2.WithAdditionalDirs is the program's)"))
		default:
			if !slices.Contains(permissionKeys, k) {
				errs = append(errs, refuse(key, "not a permissions key the SDK knows to be harmless"))
			}
		}
	}
	return errs
}

// checkEnv checks the "env" object against envKeys.
func checkEnv(v jsontext.Value, refuse func(key, reason string) error) []error {
	var env map[string]jsontext.Value
	if err := json.Unmarshal(v, &env); err != nil {
		return []error{refuse("env", "not a JSON object the SDK can read")}
	}
	var errs []error
	for _, k := range sortedKeys(env) {
		if !slices.Contains(envKeys, k) {
			errs = append(errs, refuse("env."+k, "an environment variable the CLI would set for itself and every process it starts: it can redirect the API and its key (ANTHROPIC_BASE_URL, HTTPS_PROXY), choose another provider, or run code (BASH_ENV, CLAUDE_CODE_SHELL_PREFIX, NODE_OPTIONS); only limits and switches that turn something off are taken from a repository"))
		}
	}
	return errs
}

// checkHooks refuses every hook of every event and type: a repository's command hook runs on the
// host, an http hook posts the session's data where the repository chose, a prompt or agent hook
// decides a tool call in the program's place.
func checkHooks(v jsontext.Value, refuse func(key, reason string) error) []error {
	var events map[string][]struct {
		Hooks []struct {
			Type string `json:"type"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(v, &events, json.RejectUnknownMembers(false)); err != nil {
		return []error{refuse("hooks", "not a hooks object the SDK can read")}
	}
	var errs []error
	for _, e := range sortedKeys(events) {
		for i, m := range events[e] {
			for j, h := range m.Hooks {
				errs = append(errs, refuse(fmt.Sprintf("hooks.%s[%d].hooks[%d]", e, i, j),
					fmt.Sprintf("a %q hook of the repository: the CLI would run it (a command on the host, a request to a URL, a model or agent deciding in the program's place)", h.Type)))
			}
		}
	}
	return errs
}

// readRegular reads path if it is a regular file, not a link; a link or another kind of file is
// an *Error (so that nothing outside the project is read through it).
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, linkError(path, fi)
	}
	return os.ReadFile(path)
}

// linkError refuses a file that is a link or not a regular file.
func linkError(path string, fi fs.FileInfo) error {
	what := "not a regular file"
	if fi.Mode()&fs.ModeSymlink != 0 {
		what = "a symbolic link"
		if to, err := os.Readlink(path); err == nil {
			what += " (to " + to + ")"
		}
	}
	return &Error{File: path, Reason: what + ": the CLI would follow it and send what it points to (a key, a secret, another repository's file) to the model",
		Fix: "replace it with a regular file inside the project, or leave the project's files out (drop v2.WithTrustedProject; v2.WithTrustedProjectMemory reads memory files safely)"}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
