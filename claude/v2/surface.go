package v2

import (
	"time"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// The options of the official SDKs' remaining surface (issue 26): user input callbacks
// (elicitation.go, dialog.go), display declarations (declarations.go), MCP server settings
// (mcpsettings.go). They live in one struct, one field of options; surfaceValidate checks them,
// surfaceEnv and surfaceInit are what they add to the CLI's environment and initialize request,
// and hostRequests the control requests they answer.

// surfaceOptions holds the settings of the options named above.
type surfaceOptions struct {
	onElicitation ElicitationFunc
	onUserDialog  UserDialogFunc
	dialogKinds   []string
	dialogGiven   bool
	inputTimeout  time.Duration

	perTaskStop       bool
	progressSummaries bool
	promptSuggestions bool
	previewFormat     string // toolConfig.askUserQuestion.previewFormat

	mcpSettings map[string]MCPServerSettings // in-process servers' (mcpsettings.go)
}

// surfaceInitFields are what surfaceOptions add to every initialize request.
type surfaceInitFields struct {
	SupportedDialogKinds   []string `json:"supportedDialogKinds,omitzero"`
	PerTaskStopAffordance  bool     `json:"perTaskStopAffordance,omitzero"`
	AgentProgressSummaries bool     `json:"agentProgressSummaries,omitzero"`
	PromptSuggestions      bool     `json:"promptSuggestions,omitzero"`
	// SDKMCPServerConfigs are the in-process servers' settings (mcpsettings.go).
	SDKMCPServerConfigs map[string]mcpSettingsEntry `json:"sdkMcpServerConfigs,omitzero"`
}

// surfaceValidate checks the options of surfaceOptions.
func (o *options) surfaceValidate() error {
	x := &o.surface
	if x.inputTimeout < 0 {
		return optionErr("WithUserInputTimeout", "negative duration %v", x.inputTimeout)
	}
	if err := x.validateDialog(); err != nil {
		return err
	}
	if err := o.validateMCPSettings(); err != nil {
		return err
	}
	return x.validateDeclarations()
}

// surfaceEnv is what the options add to the CLI's environment.
func (o *options) surfaceEnv() []string {
	if f := o.surface.previewFormat; f != "" {
		return []string{"CLAUDE_CODE_QUESTION_PREVIEW_FORMAT=" + f}
	}
	return nil
}

// surfaceInit is what the options add to the initialize request.
func (o *options) surfaceInit() surfaceInitFields {
	x := &o.surface
	return surfaceInitFields{
		SupportedDialogKinds:   x.dialogKinds,
		PerTaskStopAffordance:  x.perTaskStop,
		AgentProgressSummaries: x.progressSummaries,
		PromptSuggestions:      x.promptSuggestions,
		SDKMCPServerConfigs:    o.sdkServerConfigs(),
	}
}

// hostRequests are the CLI's control requests the session answers besides hooks, permissions and
// MCP messages: an elicitation is always answered (declined without WithOnElicitation), a dialog
// only when WithOnUserDialog declared its kind.
func (s *Session) hostRequests() map[string]subprocess.HostRequestHandler {
	return map[string]subprocess.HostRequestHandler{
		"elicitation":         s.answerElicitation,
		"request_user_dialog": s.answerUserDialog,
	}
}
