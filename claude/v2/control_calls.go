package v2

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
	"sort"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The typed control calls of the TypeScript SDK's Query that change or inspect a running session
// (its reconnectMcpServer, toggleMcpServer, readMcpResource, applyFlagSettings, updateSettings,
// reinitialize, reloadPlugins, reloadSkills, reloadOutputStyles, readFile, seedReadState,
// backgroundTasks, usage). Each sends one control request and decodes the answer; ctx bounds the
// wait for it; a refusal by the CLI is a *shared.ControlError. Every call is safe to make from
// any goroutine while a turn runs.

// request sends a control request (requests.go) and decodes its answer into out (when out is not
// nil): the one path of the session's control requests.
func (s *Session) request(ctx context.Context, req subprocess.ControlRequest, out any) error {
	raw, err := s.t.Request(ctx, req)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("v2: %s answer: %w", req.ControlSubtype(), err)
	}
	return nil
}

// ReconnectMCPServer makes the CLI reconnect the MCP server of that name (mcp_reconnect): it
// drops the connection and connects again, as /mcp does.
func (s *Session) ReconnectMCPServer(ctx context.Context, name string) error {
	return s.request(ctx, mcpReconnectRequest{ServerName: name}, nil)
}

// ToggleMCPServer disables (enabled false) or enables again the MCP server of that name
// (mcp_toggle). A disabled server's tools leave the model's tool list from the next request.
func (s *Session) ToggleMCPServer(ctx context.Context, name string, enabled bool) error {
	return s.request(ctx, mcpToggleRequest{ServerName: name, Enabled: enabled}, nil)
}

// MCPResourceContent is one content of an MCP resource: Text, or Blob (base64).
type MCPResourceContent struct {
	URI      string         `json:"uri"`
	MimeType string         `json:"mimeType,omitempty"`
	Text     string         `json:"text,omitempty"`
	Blob     string         `json:"blob,omitempty"`
	Meta     jsontext.Value `json:"_meta,omitempty"`
}

// ReadMCPResource reads the resource uri of the MCP server of that name through the CLI's
// connection to it (mcp_read_resource).
func (s *Session) ReadMCPResource(ctx context.Context, server, uri string) ([]MCPResourceContent, error) {
	var a struct {
		Contents []MCPResourceContent `json:"contents"`
	}
	err := s.request(ctx, mcpReadResourceRequest{ServerName: server, URI: uri}, &a)
	return a.Contents, err
}

// guardSettings are the settings keys ApplyFlagSettings refuses: each can switch
// off the session's hooks (its guards) or its sandbox. Set them, if at all, when the session
// starts (WithSettings, WithSandbox), where their effect is checked.
var guardSettings = []string{"allowManagedHooksOnly", "disableAllHooks", "sandbox"}

// ErrGuardSetting is the error of ApplyFlagSettings for a setting that could
// switch off the session's hooks or sandbox (disableAllHooks, allowManagedHooksOnly, sandbox).
var ErrGuardSetting = errors.New("v2: setting refused: it can switch off the session's hooks or sandbox")

func checkSettings(call string, settings map[string]any) error {
	var bad []string
	for _, k := range guardSettings {
		if _, ok := settings[k]; ok {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%w: %s(%v); set it at start (WithSettings, WithSandbox) instead", ErrGuardSetting, call, bad)
	}
	return nil
}

// ApplyFlagSettings merges settings into the running session's flag settings (apply_flag_settings,
// the layer --settings sets): e.g. {"permissions": {"deny": ["Bash"]}} makes the CLI refuse the
// model's next Bash calls.
// They last for the session and are not written anywhere. A key that can switch off the session's
// hooks or sandbox is refused with ErrGuardSetting before anything is sent.
func (s *Session) ApplyFlagSettings(ctx context.Context, settings map[string]any) error {
	if err := checkSettings("ApplyFlagSettings", settings); err != nil {
		return err
	}
	return s.request(ctx, applyFlagSettingsRequest{Settings: settings}, nil)
}

// UpdateSettings sets keys of a settings file on disk (update_settings): unlike ApplyFlagSettings
// the change outlives the session and applies to every later session that reads the file. source
// is SettingSourceLocal (the project's .claude/settings.local.json) or SettingSourceUser (the
// user's ~/.claude/settings.json, under the session's CLAUDE_CONFIG_DIR). CLI 2.1.330 takes
// string values only, and only the keys outputStyle (SettingSourceLocal) and effortLevel
// (SettingSourceUser); it refuses any other key with a *shared.ControlError.
func (s *Session) UpdateSettings(ctx context.Context, source SettingSource, settings map[string]string) error {
	wire := map[SettingSource]string{SettingSourceLocal: "localSettings", SettingSourceUser: "userSettings"}[source]
	if wire == "" {
		return fmt.Errorf("v2: UpdateSettings: source %q (want SettingSourceLocal or SettingSourceUser)", source)
	}
	return s.request(ctx, updateSettingsRequest{Source: wire, Settings: settings}, nil)
}

// Reinitialize sends the CLI the session's initialize request again (the same hooks, agents and
// MCP servers) and returns its fresh answer: the commands, agents and models as they are now.
// CLI 2.1.330 cancels every hook request it is waiting for when it reads a second initialize
// (docs/HOOKS.md): a tool call whose PreToolUse hook is pending is denied and retried. If the CLI
// does not apply the hooks again, the error wraps ErrHooksNotEnforced.
func (s *Session) Reinitialize(ctx context.Context) (ServerInfo, error) {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	reg := s.registration()
	raw, err := s.t.Request(ctx, s.initRequest(reg))
	if err != nil {
		return ServerInfo{}, err
	}
	si := ServerInfo{Raw: raw}
	if err := json.Unmarshal(raw, &si); err != nil {
		return si, fmt.Errorf("v2: initialize answer: %w", err)
	}
	return si, s.takeRegistration(raw, reg)
}

// ReloadPluginsResult is what the CLI has after ReloadPlugins.
type ReloadPluginsResult struct {
	Commands []shared.Command `json:"commands"`
	Agents   []AgentInfo      `json:"agents"`
	Plugins  []struct {
		Name    string `json:"name"`
		Path    string `json:"path"`
		Source  string `json:"source,omitempty"`
		Version string `json:"version,omitempty"`
	} `json:"plugins"`
	MCPServers []MCPServerStatus `json:"mcpServers"`
	// ErrorCount is how many plugins failed to load.
	ErrorCount int `json:"error_count"`
	// Held says ReloadPluginsOptions.HoldOnCacheImpact kept the current plugins; CacheImpact is
	// the CLI's account of why, as it sent it.
	Held        bool           `json:"held,omitempty"`
	CacheImpact jsontext.Value `json:"cache_impact,omitempty"`
}

// ReloadPluginsOptions are ReloadPlugins's arguments; the zero value reloads unconditionally.
// The TypeScript SDK's add_plugins is not offered: the SDK checks a plugin's hooks before the CLI
// starts (WithPluginDirs), and a plugin added mid-session would skip that check.
type ReloadPluginsOptions struct {
	// HoldOnCacheImpact keeps the current plugins when the reload would change the tool list the
	// conversation's prompt cache depends on; the result then says Held and CacheImpact.
	HoldOnCacheImpact bool
	// RefuseIfBusy makes a reload asked during a turn (or other running work) an error
	// (error_code reload_plugins_busy) instead of changing what runs under that turn.
	RefuseIfBusy bool
}

// ReloadPlugins makes the CLI load its plugins again (reload_plugins), as /reload-plugins does.
func (s *Session) ReloadPlugins(ctx context.Context, opts ReloadPluginsOptions) (*ReloadPluginsResult, error) {
	r := &ReloadPluginsResult{}
	err := s.request(ctx, reloadPluginsRequest(opts), r)
	return r, err
}

// ReloadSkills makes the CLI read its skills again (reload_skills) and returns them.
func (s *Session) ReloadSkills(ctx context.Context) ([]shared.Command, error) {
	var a struct {
		Skills []shared.Command `json:"skills"`
	}
	err := s.request(ctx, reloadSkillsRequest{}, &a)
	return a.Skills, err
}

// ReloadOutputStyles makes the CLI read its output styles again (reload_output_styles) and
// returns their names.
func (s *Session) ReloadOutputStyles(ctx context.Context) ([]string, error) {
	var a struct {
		Styles []string `json:"available_output_styles"`
	}
	err := s.request(ctx, reloadOutputStylesRequest{}, &a)
	return a.Styles, err
}

// FileContents is a file as ReadFile read it.
type FileContents struct {
	// Contents is the text (UTF-8), or base64 when Encoding is "base64".
	Contents string `json:"contents"`
	// AbsPath is the file's absolute path as the CLI resolved it.
	AbsPath   string `json:"absPath"`
	Truncated bool   `json:"truncated,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	// Lossy says invalid UTF-8 was replaced.
	Lossy bool `json:"lossy,omitempty"`
}

// ReadFileOptions are ReadFile's arguments; the zero value reads the file as text up to the CLI's
// limit.
type ReadFileOptions struct {
	// MaxBytes is the most to read (0: the CLI's limit).
	MaxBytes int
	// Base64 reads the bytes as they are (FileContents.Encoding "base64"; Bytes decodes them), for
	// an image or any binary file; without it the CLI decodes UTF-8, replacing what is invalid.
	Base64 bool
}

// ReadFile reads a file through the CLI (read_file), relative to the session's directory. The CLI
// reads it under the Read tool's permission rules, but outside hooks: nothing the model sees
// changes.
func (s *Session) ReadFile(ctx context.Context, path string, opts ReadFileOptions) (*FileContents, error) {
	if opts.MaxBytes < 0 {
		return nil, fmt.Errorf("v2: ReadFile(%q): negative MaxBytes", path)
	}
	req := readFileRequest{Path: path, MaxBytes: opts.MaxBytes}
	if opts.Base64 {
		req.Encoding = "base64"
	}
	f := &FileContents{}
	err := s.request(ctx, req, f)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Bytes returns the file's bytes: Contents decoded when Encoding is "base64", else its text.
func (f *FileContents) Bytes() ([]byte, error) {
	if f.Encoding != "base64" {
		return []byte(f.Contents), nil
	}
	b, err := base64.StdEncoding.DecodeString(f.Contents)
	if err != nil {
		return nil, fmt.Errorf("v2: ReadFile %s: base64 contents: %w", f.AbsPath, err)
	}
	return b, nil
}

// SeedReadState tells the CLI that the model has seen path as it was at mtime (seed_read_state),
// so that an Edit of it is not refused with "file not read yet": for a session that resumes work
// on files read in another process.
func (s *Session) SeedReadState(ctx context.Context, path string, mtime time.Time) error {
	return s.request(ctx, seedReadStateRequest{Path: path, MTime: mtime.UnixMilli()}, nil)
}

// BackgroundTasks moves running foreground tasks (Bash commands, subagents) to the background
// (background_tasks), as Ctrl+B does: their tool calls return at once and the turn goes on; each
// task reports a *shared.TaskNotificationMessage when it ends. toolUseID "" moves every one;
// otherwise only the task of that tool_use. It reports whether a task was moved.
func (s *Session) BackgroundTasks(ctx context.Context, toolUseID string) (bool, error) {
	var a struct {
		Backgrounded *bool `json:"backgrounded"`
	}
	err := s.request(ctx, backgroundTasksRequest{ToolUseID: toolUseID}, &a)
	if err != nil {
		return false, err
	}
	return a.Backgrounded == nil || *a.Backgrounded, nil // the TypeScript SDK reads a missing field as true
}

// Usage is the session's cost and the account's rate limits (get_usage, the CLI's /usage).
type Usage struct {
	Session struct {
		TotalCostUSD       float64 `json:"total_cost_usd"`
		TotalAPIDurationMS int64   `json:"total_api_duration_ms"`
		TotalDurationMS    int64   `json:"total_duration_ms"`
		TotalLinesAdded    int     `json:"total_lines_added"`
		TotalLinesRemoved  int     `json:"total_lines_removed"`
		// ModelUsage is per model: tokens in and out, cache, cost.
		ModelUsage map[string]shared.ModelUsage `json:"model_usage"`
	} `json:"session"`
	SubscriptionType    string `json:"subscription_type"`
	RateLimitsAvailable bool   `json:"rate_limits_available"`
	// RateLimits and Behaviors are as the CLI sends them. RateLimits is null without a
	// subscription. Behaviors is null unless UsageOptions.Behaviors asked for it.
	RateLimits jsontext.Value `json:"rate_limits"`
	Behaviors  jsontext.Value `json:"behaviors"`
	Raw        jsontext.Value `json:"-"`
}

// UsageOptions are Usage's arguments; the zero value skips the behaviours.
type UsageOptions struct {
	// Behaviors asks for Usage.Behaviors, which the CLI builds by reading every transcript touched
	// in the last seven days; without it (the default, as a usage meter wants) it is null.
	Behaviors bool
}

// Usage asks the CLI for the session's cost and the account's limits (get_usage; the TypeScript
// SDK marks it experimental).
func (s *Session) Usage(ctx context.Context, opts UsageOptions) (*Usage, error) {
	raw, err := s.t.Request(ctx, getUsageRequest{SkipBehaviors: !opts.Behaviors})
	if err != nil {
		return nil, err
	}
	u := &Usage{Raw: raw}
	if err := json.Unmarshal(raw, u); err != nil {
		return u, fmt.Errorf("v2: get_usage answer: %w", err)
	}
	return u, nil
}

// TaskOutput is a background task's output so far (TaskOutput).
type TaskOutput struct {
	Output     string `json:"output"`
	TotalBytes int64  `json:"total_bytes"`
	Truncated  bool   `json:"truncated"`
}

// TaskOutput returns the output of the background task taskID so far (get_task_output).
func (s *Session) TaskOutput(ctx context.Context, taskID string) (*TaskOutput, error) {
	o := &TaskOutput{}
	err := s.request(ctx, getTaskOutputRequest{TaskID: taskID}, o)
	return o, err
}

// RenameSession sets the session's title (rename_session), as /rename does.
func (s *Session) RenameSession(ctx context.Context, title string) error {
	return s.request(ctx, renameSessionRequest{Title: title}, nil)
}
