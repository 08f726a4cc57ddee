package v2

import (
	"time"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// The options of the official SDKs' remaining surface (issue 26): user input callbacks
// (elicitation.go, dialog.go), display declarations (declarations.go), MCP server settings
// (mcpsettings.go). They live in one struct, one field of config; surfaceValidate checks them,
// their rows in optionTable say where they go, and hostRequests are the control requests they
// answer.

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

// surfaceValidate checks the options of surfaceOptions.
func (o *config) surfaceValidate() error {
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

// hostRequests are the CLI's control requests the session answers besides hooks, permissions and
// MCP messages: an elicitation is always answered (declined without WithOnElicitation), a dialog
// only when WithOnUserDialog declared its kind.
func (s *Session) hostRequests() map[string]subprocess.HostRequestHandler {
	return map[string]subprocess.HostRequestHandler{
		"elicitation":         s.answerElicitation,
		"request_user_dialog": s.answerUserDialog,
	}
}
