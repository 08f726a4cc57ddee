package shared

import "github.com/go-json-experiment/json/jsontext"

// The typed "system" messages other than init, informational and the hook_* progress lines (which
// stay *SystemMessage). Each has the shape of the TypeScript SDK's SDK<Name> type of the same
// subtype (@anthropic-ai/claude-agent-sdk 0.3.332, sdk.d.ts) and embeds SystemHeader: its subtype,
// session and message ids, and the whole line (Raw), in which every field not decoded is. All of
// them return "system" from Type (SystemHeader's); Subtype tells them apart as it does on the wire.
// A system subtype this SDK does not know arrives as a *SystemMessage with its Subtype and Raw:
// never dropped.

// SystemHeader is what every system message has, typed or not: its subtype, the session it belongs
// to, its own id, and the whole line. Each system message type (*SystemMessage and the typed
// subtypes) embeds it, so that m.SessionID, m.UUID and m.Raw read the same on all of them, and
// its Type method is theirs. The SDK never sends a bare *SystemHeader.
type SystemHeader struct {
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id,omitempty"`
	UUID      string `json:"uuid,omitempty"`
	// Raw is the whole line, as the CLI wrote it (for a message the SDK made itself, nil); every
	// field the message's type does not decode is there.
	Raw jsontext.Value `json:"-"`
}

// Type returns "system".
func (*SystemHeader) Type() string { return "system" }

// APIRetryMessage (system/api_retry) says a request to the model API failed with a retryable error
// and the CLI will retry it after RetryDelayMS.
type APIRetryMessage struct {
	SystemHeader
	Attempt      int   `json:"attempt"`
	MaxRetries   int   `json:"max_retries"`
	RetryDelayMS int64 `json:"retry_delay_ms"`
	// ErrorStatus is the HTTP status, nil when there was no response (a connection error).
	ErrorStatus *int `json:"error_status"`
	// Error is the CLI's class of error: "rate_limit", "overloaded", "server_error", "unknown", ...
	Error string `json:"error"`
	// NoResponse is set when the CLI gave up waiting for a response.
	NoResponse *struct {
		WaitedMS    int64 `json:"waited_ms"`
		RetryWaitMS int64 `json:"retry_wait_ms"`
	} `json:"no_response,omitempty"`
}

// CompactBoundaryMessage (system/compact_boundary) marks where the conversation was compacted:
// the messages before it were replaced by a summary.
type CompactBoundaryMessage struct {
	SystemHeader
	CompactMetadata struct {
		// Trigger is "manual" (/compact) or "auto".
		Trigger    string `json:"trigger"`
		PreTokens  int    `json:"pre_tokens"`
		PostTokens int    `json:"post_tokens,omitempty"`
		DurationMS int64  `json:"duration_ms,omitempty"`
	} `json:"compact_metadata"`
}

// StatusMessage (system/status) says what the session is doing: Status "requesting" (waiting for
// the model), "compacting", or "" (null: idle again). PermissionMode is set when it changed.
type StatusMessage struct {
	SystemHeader
	Status         string `json:"status"`
	PermissionMode string `json:"permissionMode,omitempty"`
	// CompactResult ("success" or "failed") and CompactError report the end of a compaction.
	CompactResult string `json:"compact_result,omitempty"`
	CompactError  string `json:"compact_error,omitempty"`
}

// ControlRequestProgressMessage (system/control_request_progress) reports the progress of a
// long control request the SDK sent (RequestID): "started", or "api_retry" with the retry's figures.
type ControlRequestProgressMessage struct {
	SystemHeader
	RequestID    string `json:"request_id"`
	Status       string `json:"status"`
	Attempt      int    `json:"attempt,omitempty"`
	MaxRetries   int    `json:"max_retries,omitempty"`
	RetryDelayMS int64  `json:"retry_delay_ms,omitempty"`
	ErrorStatus  *int   `json:"error_status,omitempty"`
}

// ModelRefusalFallbackMessage (system/model_refusal_fallback) says the model refused and the CLI
// switched to FallbackModel (Direction "retry", "revert" or "sticky").
type ModelRefusalFallbackMessage struct {
	SystemHeader
	Trigger                string   `json:"trigger"`
	Direction              string   `json:"direction"`
	Scope                  string   `json:"scope,omitempty"`
	OriginalModel          string   `json:"original_model"`
	FallbackModel          string   `json:"fallback_model"`
	RequestID              string   `json:"request_id"`
	APIRefusalCategory     string   `json:"api_refusal_category,omitempty"`
	APIRefusalExplanation  string   `json:"api_refusal_explanation,omitempty"`
	RetractedMessageUUIDs  []string `json:"retracted_message_uuids,omitempty"`
	RefusedUserMessageUUID string   `json:"refused_user_message_uuid,omitempty"`
	Content                string   `json:"content"`
}

// ModelRefusalNoFallbackMessage (system/model_refusal_no_fallback) says the model refused and no
// fallback model was configured.
type ModelRefusalNoFallbackMessage struct {
	SystemHeader
	OriginalModel          string `json:"original_model"`
	RequestID              string `json:"request_id"`
	APIRefusalCategory     string `json:"api_refusal_category,omitempty"`
	APIRefusalExplanation  string `json:"api_refusal_explanation,omitempty"`
	RefusedUserMessageUUID string `json:"refused_user_message_uuid,omitempty"`
	Content                string `json:"content"`
}

// LocalCommandOutputMessage (system/local_command_output) is the output of a local slash command
// (one that runs in the CLI without the model, like /cost).
type LocalCommandOutputMessage struct {
	SystemHeader
	Content string `json:"content"`
}

// PluginInstallMessage (system/plugin_install) reports a plugin install: Status "started",
// "installed", "failed" (Error says why) or "completed".
type PluginInstallMessage struct {
	SystemHeader
	Status string `json:"status"`
	Name   string `json:"name,omitempty"`
	Error  string `json:"error,omitempty"`
}

// TaskUsage is what a background task (a subagent, a background command) has used so far.
type TaskUsage struct {
	TotalTokens int   `json:"total_tokens"`
	ToolUses    int   `json:"tool_uses"`
	DurationMS  int64 `json:"duration_ms"`
}

// ResourceLink is an MCP resource a task's result points at.
type ResourceLink struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// TaskStartedMessage (system/task_started) says a task began: a subagent (SubagentType), a
// background Bash command, a workflow. TaskID is the id Session.StopTask takes.
type TaskStartedMessage struct {
	SystemHeader
	TaskID         string `json:"task_id"`
	RunID          string `json:"run_id,omitempty"`
	ToolUseID      string `json:"tool_use_id,omitempty"`
	Description    string `json:"description"`
	SubagentType   string `json:"subagent_type,omitempty"`
	IsBackgrounded bool   `json:"is_backgrounded,omitempty"`
	SpawnDepth     int    `json:"spawn_depth,omitempty"`
	ParentTaskID   string `json:"parent_task_id,omitempty"`
	TaskType       string `json:"task_type,omitempty"`
	WorkflowName   string `json:"workflow_name,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	SkipTranscript bool   `json:"skip_transcript,omitempty"`
	Ambient        bool   `json:"ambient,omitempty"`
}

// TaskProgressMessage (system/task_progress) reports a running task's usage and last tool.
type TaskProgressMessage struct {
	SystemHeader
	TaskID       string    `json:"task_id"`
	RunID        string    `json:"run_id,omitempty"`
	ToolUseID    string    `json:"tool_use_id,omitempty"`
	Description  string    `json:"description"`
	SubagentType string    `json:"subagent_type,omitempty"`
	Usage        TaskUsage `json:"usage"`
	LastToolName string    `json:"last_tool_name,omitempty"`
	Summary      string    `json:"summary,omitempty"`
}

// TaskUpdatedMessage (system/task_updated) carries the fields of a task that changed (Patch).
type TaskUpdatedMessage struct {
	SystemHeader
	TaskID string `json:"task_id"`
	RunID  string `json:"run_id,omitempty"`
	Patch  struct {
		// Status is "pending", "running", "completed", "failed", "killed" or "paused"; "" when
		// unchanged.
		Status         string `json:"status,omitempty"`
		Description    string `json:"description,omitempty"`
		EndTime        int64  `json:"end_time,omitempty"`
		TotalPausedMS  int64  `json:"total_paused_ms,omitempty"`
		Error          string `json:"error,omitempty"`
		IsBackgrounded *bool  `json:"is_backgrounded,omitempty"`
	} `json:"patch"`
}

// TaskNotificationMessage (system/task_notification) says a task ended: Status "completed",
// "failed" or "stopped", with its Summary and the file holding its output.
type TaskNotificationMessage struct {
	SystemHeader
	TaskID         string         `json:"task_id"`
	RunID          string         `json:"run_id,omitempty"`
	ToolUseID      string         `json:"tool_use_id,omitempty"`
	Status         string         `json:"status"`
	Reason         string         `json:"reason,omitempty"`
	OutputFile     string         `json:"output_file"`
	Summary        string         `json:"summary"`
	Usage          *TaskUsage     `json:"usage,omitempty"`
	ResourceLinks  []ResourceLink `json:"resource_links,omitempty"`
	SkipTranscript bool           `json:"skip_transcript,omitempty"`
	Ambient        bool           `json:"ambient,omitempty"`
}

// BackgroundTask is one running background task, as BackgroundTasksChangedMessage and
// v2.Session.BackgroundTasks list it.
type BackgroundTask struct {
	TaskID       string `json:"task_id"`
	RunID        string `json:"run_id,omitempty"`
	TaskType     string `json:"task_type"`
	SubagentType string `json:"subagent_type,omitempty"`
	Description  string `json:"description"`
	ParentTaskID string `json:"parent_task_id,omitempty"`
	Ambient      bool   `json:"ambient,omitempty"`
}

// BackgroundTasksChangedMessage (system/background_tasks_changed) lists the background tasks
// running now, after one started or ended.
type BackgroundTasksChangedMessage struct {
	SystemHeader
	Tasks []BackgroundTask `json:"tasks"`
}

// ThinkingTokensMessage (system/thinking_tokens) estimates the thinking tokens of the running turn.
type ThinkingTokensMessage struct {
	SystemHeader
	EstimatedTokens      int    `json:"estimated_tokens"`
	EstimatedTokensDelta int    `json:"estimated_tokens_delta"`
	UserMessageUUID      string `json:"user_message_uuid,omitempty"`
}

// SessionStateChangedMessage (system/session_state_changed) says the session became "idle",
// "running" or "requires_action" (waiting for a permission answer or a dialog).
type SessionStateChangedMessage struct {
	SystemHeader
	State string `json:"state"`
}

// WorkerShuttingDownMessage (system/worker_shutting_down) says the CLI is shutting down, and why.
type WorkerShuttingDownMessage struct {
	SystemHeader
	Reason string `json:"reason"`
}

// Command is a slash command or skill the CLI offers, as system/commands_changed lists it.
type Command struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	ArgumentHint string   `json:"argumentHint"`
	Aliases      []string `json:"aliases,omitempty"`
	Builtin      bool     `json:"builtin,omitempty"`
}

// CommandsChangedMessage (system/commands_changed) lists the slash commands after they changed
// (a plugin or skill reloaded).
type CommandsChangedMessage struct {
	SystemHeader
	Commands []Command `json:"commands"`
}

// NotificationMessage (system/notification) is a notice for the user's screen, with a Priority
// ("low", "medium", "high", "immediate").
type NotificationMessage struct {
	SystemHeader
	Key       string `json:"key"`
	Text      string `json:"text"`
	Priority  string `json:"priority"`
	Color     string `json:"color,omitempty"`
	TimeoutMS int64  `json:"timeout_ms,omitempty"`
}

// FilesPersistedEvent (system/files_persisted) reports files uploaded to the Files API.
type FilesPersistedEvent struct {
	SystemHeader
	Files []struct {
		Filename string `json:"filename"`
		FileID   string `json:"file_id"`
	} `json:"files"`
	Failed []struct {
		Filename string `json:"filename"`
		Error    string `json:"error"`
	} `json:"failed"`
	ProcessedAt string `json:"processed_at"`
}

// MemoryRecallMessage (system/memory_recall) lists the memories the CLI recalled into the context.
type MemoryRecallMessage struct {
	SystemHeader
	Mode     string `json:"mode"`
	Memories []struct {
		Path    string `json:"path"`
		Scope   string `json:"scope"`
		Content string `json:"content,omitempty"`
	} `json:"memories"`
}

// ElicitationCompleteMessage (system/elicitation_complete) says an MCP server's URL elicitation
// finished.
type ElicitationCompleteMessage struct {
	SystemHeader
	MCPServerName string `json:"mcp_server_name"`
	ElicitationID string `json:"elicitation_id"`
}

// PermissionDeniedMessage (system/permission_denied) says a tool call was denied: by a hook, a
// rule, the permission mode or a permission callback (DecisionReasonType).
type PermissionDeniedMessage struct {
	SystemHeader
	ToolName           string `json:"tool_name"`
	ToolUseID          string `json:"tool_use_id"`
	AgentID            string `json:"agent_id,omitempty"`
	DecisionReasonType string `json:"decision_reason_type,omitempty"`
	DecisionReason     string `json:"decision_reason,omitempty"`
	Message            string `json:"message"`
}

// MirrorErrorMessage (system/mirror_error) says the CLI could not mirror a transcript entry to
// the session store (v2.WithSessionStore).
type MirrorErrorMessage struct {
	SystemHeader
	Error string `json:"error"`
	Key   struct {
		ProjectKey string `json:"projectKey"`
		SessionID  string `json:"sessionId"`
		Subpath    string `json:"subpath,omitempty"`
	} `json:"key"`
}

// SessionWritesLostMessage (system/session_writes_lost) says the disk was full (ErrorCode
// "ENOSPC" or "EDQUOT") and the CLI lost writes: Lost names what ("transcript", "global_config").
type SessionWritesLostMessage struct {
	SystemHeader
	ErrorCode            string   `json:"error_code"`
	Lost                 []string `json:"lost"`
	TranscriptSessionIDs []string `json:"transcript_session_ids,omitempty"`
}
