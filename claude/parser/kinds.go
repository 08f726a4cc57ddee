package parser

import "github.com/hookwire/agent-sdk-go/claude/shared"

// systemKinds maps the system subtypes that have their own type to a constructor of it. The
// subtypes not here (init, informational, hook_started, hook_progress, hook_response, and any a
// newer CLI adds) decode into *shared.SystemMessage.
var systemKinds = map[string]func(line []byte) shared.Message{
	"api_retry":                 func(l []byte) shared.Message { return &shared.APIRetryMessage{SystemHeader: headerOf(l)} },
	"background_tasks_changed":  func(l []byte) shared.Message { return &shared.BackgroundTasksChangedMessage{SystemHeader: headerOf(l)} },
	"commands_changed":          func(l []byte) shared.Message { return &shared.CommandsChangedMessage{SystemHeader: headerOf(l)} },
	"compact_boundary":          func(l []byte) shared.Message { return &shared.CompactBoundaryMessage{SystemHeader: headerOf(l)} },
	"control_request_progress":  func(l []byte) shared.Message { return &shared.ControlRequestProgressMessage{SystemHeader: headerOf(l)} },
	"elicitation_complete":      func(l []byte) shared.Message { return &shared.ElicitationCompleteMessage{SystemHeader: headerOf(l)} },
	"files_persisted":           func(l []byte) shared.Message { return &shared.FilesPersistedEvent{SystemHeader: headerOf(l)} },
	"local_command_output":      func(l []byte) shared.Message { return &shared.LocalCommandOutputMessage{SystemHeader: headerOf(l)} },
	"memory_recall":             func(l []byte) shared.Message { return &shared.MemoryRecallMessage{SystemHeader: headerOf(l)} },
	"mirror_error":              func(l []byte) shared.Message { return &shared.MirrorErrorMessage{SystemHeader: headerOf(l)} },
	"model_refusal_fallback":    func(l []byte) shared.Message { return &shared.ModelRefusalFallbackMessage{SystemHeader: headerOf(l)} },
	"model_refusal_no_fallback": func(l []byte) shared.Message { return &shared.ModelRefusalNoFallbackMessage{SystemHeader: headerOf(l)} },
	"notification":              func(l []byte) shared.Message { return &shared.NotificationMessage{SystemHeader: headerOf(l)} },
	"permission_denied":         func(l []byte) shared.Message { return &shared.PermissionDeniedMessage{SystemHeader: headerOf(l)} },
	"plugin_install":            func(l []byte) shared.Message { return &shared.PluginInstallMessage{SystemHeader: headerOf(l)} },
	"session_state_changed":     func(l []byte) shared.Message { return &shared.SessionStateChangedMessage{SystemHeader: headerOf(l)} },
	"session_writes_lost":       func(l []byte) shared.Message { return &shared.SessionWritesLostMessage{SystemHeader: headerOf(l)} },
	"status":                    func(l []byte) shared.Message { return &shared.StatusMessage{SystemHeader: headerOf(l)} },
	"task_notification":         func(l []byte) shared.Message { return &shared.TaskNotificationMessage{SystemHeader: headerOf(l)} },
	"task_progress":             func(l []byte) shared.Message { return &shared.TaskProgressMessage{SystemHeader: headerOf(l)} },
	"task_started":              func(l []byte) shared.Message { return &shared.TaskStartedMessage{SystemHeader: headerOf(l)} },
	"task_updated":              func(l []byte) shared.Message { return &shared.TaskUpdatedMessage{SystemHeader: headerOf(l)} },
	"thinking_tokens":           func(l []byte) shared.Message { return &shared.ThinkingTokensMessage{SystemHeader: headerOf(l)} },
	"worker_shutting_down":      func(l []byte) shared.Message { return &shared.WorkerShuttingDownMessage{SystemHeader: headerOf(l)} },
}

// eventKinds maps the message types (other than system and those decode handles itself) that
// have their own type to a constructor of it.
var eventKinds = map[string]func(line []byte) shared.Message{
	"auth_status":        func(l []byte) shared.Message { return &shared.AuthStatusMessage{Raw: l} },
	"conversation_reset": func(l []byte) shared.Message { return &shared.ConversationResetMessage{Raw: l} },
	"prompt_suggestion":  func(l []byte) shared.Message { return &shared.PromptSuggestionMessage{Raw: l} },
	"rate_limit_event":   func(l []byte) shared.Message { return &shared.RateLimitEvent{Raw: l} },
	"tool_progress":      func(l []byte) shared.Message { return &shared.ToolProgressMessage{Raw: l} },
	"tool_use_summary":   func(l []byte) shared.Message { return &shared.ToolUseSummaryMessage{Raw: l} },
}

// decodeSystem decodes a system line by its subtype. A line of a typed subtype whose shape does
// not fit its type (a newer CLI changed a field's type) decodes as a *shared.SystemMessage instead,
// so that it is passed on, not dropped; a line that is not valid JSON for the codec (duplicate
// names, invalid UTF-8) fails both.
func decodeSystem(subtype string, line []byte) (shared.Message, error) {
	if k, ok := systemKinds[subtype]; ok {
		if m, err := unmarshal(line, k(line)); err == nil {
			return m, nil
		}
	}
	return unmarshal(line, &shared.SystemMessage{SystemHeader: shared.SystemHeader{Raw: line}})
}

// headerOf is the header of a system message decoded from l: its Raw, the rest filled by the decode.
func headerOf(l []byte) shared.SystemHeader { return shared.SystemHeader{Raw: l} }
