package v2

import "github.com/hookwire/agent-sdk-go/claude/subprocess"

// hostRequests are the CLI's control requests the session answers besides hooks, permissions and
// MCP messages: an elicitation is always answered (declined without WithElicitation), a dialog
// only when WithUserDialog declared its kind.
func (s *Session) hostRequests() map[string]subprocess.HostRequestHandler {
	return map[string]subprocess.HostRequestHandler{
		"elicitation":         s.answerElicitation,
		"request_user_dialog": s.answerUserDialog,
	}
}
