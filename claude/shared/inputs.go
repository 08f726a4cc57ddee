package shared

import (
	"github.com/go-json-experiment/json/jsontext"
)

// HookInput is the typed input of one hook event. Every concrete type is a pointer to a struct that
// embeds BaseHookInput, such as *PreToolUseHookInput. Use a type switch, or the typed adapters
// (OnPreToolUse, ...) to get the concrete type without assertions.
type HookInput interface {
	// Base returns the fields common to every event.
	Base() *BaseHookInput
	// MatchValue returns the value a matcher is tested against: the tool name for tool events, the
	// source, reason, trigger, notification type or agent type for others, "" where the event has
	// none (see HookEvent.UsesMatcher).
	MatchValue() string
}

// Effort is the model effort setting the CLI reports on tool and stop events.
type Effort struct {
	Level string `json:"level,omitempty"`
}

// BaseHookInput holds the fields every event carries, and what the SDK keeps of the rest.
type BaseHookInput struct {
	SessionID      string    `json:"session_id"`
	TranscriptPath string    `json:"transcript_path,omitempty"`
	Cwd            string    `json:"cwd"`
	PermissionMode string    `json:"permission_mode,omitempty"`
	HookEventName  HookEvent `json:"hook_event_name"`
	PromptID       string    `json:"prompt_id,omitempty"`
	// AgentID and AgentType are set inside a subagent.
	AgentID   string  `json:"agent_id,omitempty"`
	AgentType string  `json:"agent_type,omitempty"`
	Effort    *Effort `json:"effort,omitempty"`

	// Extra holds every field of the input that this SDK version has no struct field for, so that
	// a newer CLI's additions are kept, not dropped. Nil when there are none.
	Extra map[string]jsontext.Value `json:"-"`
	// Raw is the input exactly as the CLI sent it. Handlers must not modify it.
	Raw jsontext.Value `json:"-"`
}

// Base returns b itself; it makes every event type a HookInput.
func (b *BaseHookInput) Base() *BaseHookInput { return b }

// MatchValue returns "": events without a match value fire whatever the matcher.
func (b *BaseHookInput) MatchValue() string { return "" }

// ToolInput is a tool call's input as the model wrote it, e.g. {"command":"ls"} for Bash or
// {"file_path":"/x","content":"..."} for Write.
type ToolInput map[string]any

// String returns the input field key if it is a string, else "".
func (t ToolInput) String(key string) string {
	s, _ := t[key].(string)
	return s
}

// Clone returns a shallow copy of t, so that a rewrite does not change what an earlier handler saw.
func (t ToolInput) Clone() ToolInput {
	if t == nil {
		return nil
	}
	c := make(ToolInput, len(t))
	for k, v := range t {
		c[k] = v
	}
	return c
}

// MCPServer names the MCP server a tool belongs to.
type MCPServer struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"`
}

// ToolCallFields are the fields of every event about one tool call.
type ToolCallFields struct {
	ToolName  string     `json:"tool_name"`
	ToolInput ToolInput  `json:"tool_input"`
	ToolUseID string     `json:"tool_use_id,omitempty"`
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
}

// PreToolUseHookInput is sent before a tool runs, and before the permission check. The call is in
// the embedded ToolCallFields: in.ToolName ("Bash"), in.ToolInput (in.ToolInput.String("command")),
// in.ToolUseID and in.MCPServer; the session's fields (in.Cwd, in.SessionID, ...) in BaseHookInput.
type PreToolUseHookInput struct {
	BaseHookInput  // SessionID, Cwd, PermissionMode, HookEventName, AgentID, ... (every event's fields)
	ToolCallFields // ToolName, ToolInput, ToolUseID, MCPServer: the tool call
}

// MatchValue returns the tool name.
func (in *PreToolUseHookInput) MatchValue() string { return in.ToolName }

// PostToolUseHookInput is sent after a tool ran successfully, before its result reaches the model.
type PostToolUseHookInput struct {
	BaseHookInput  // SessionID, Cwd, PermissionMode, HookEventName, AgentID, ... (every event's fields)
	ToolCallFields // ToolName, ToolInput, ToolUseID, MCPServer: the tool call
	// ToolResponse is the tool's structured output (for Bash: stdout, stderr, interrupted, ...).
	ToolResponse jsontext.Value `json:"tool_response,omitempty"`
	DurationMS   int64          `json:"duration_ms,omitempty"`
}

// MatchValue returns the tool name.
func (in *PostToolUseHookInput) MatchValue() string { return in.ToolName }

// PostToolUseFailureHookInput is sent after a tool failed.
type PostToolUseFailureHookInput struct {
	BaseHookInput         // SessionID, Cwd, PermissionMode, HookEventName, AgentID, ... (every event's fields)
	ToolCallFields        // ToolName, ToolInput, ToolUseID, MCPServer: the tool call
	Error          string `json:"error"`
	IsInterrupt    bool   `json:"is_interrupt,omitempty"`
	DurationMS     int64  `json:"duration_ms,omitempty"`
}

// MatchValue returns the tool name.
func (in *PostToolUseFailureHookInput) MatchValue() string { return in.ToolName }

// BatchToolCall is one call of a PostToolBatch.
type BatchToolCall struct {
	ToolName  string    `json:"tool_name"`
	ToolInput ToolInput `json:"tool_input"`
	ToolUseID string    `json:"tool_use_id"`
	// ToolResponse is the model-facing result (often a JSON string).
	ToolResponse jsontext.Value `json:"tool_response,omitempty"`
}

// PostToolBatchHookInput is sent once all tool calls of one model message have resolved.
type PostToolBatchHookInput struct {
	BaseHookInput
	ToolCalls []BatchToolCall `json:"tool_calls"`
}

// PermissionRequestHookInput is sent when a permission prompt is about to be shown. ToolUseID is not
// in the CLI's input; the SDK fills it from the request.
type PermissionRequestHookInput struct {
	BaseHookInput                            // SessionID, Cwd, PermissionMode, HookEventName, AgentID, ... (every event's fields)
	ToolCallFields                           // ToolName, ToolInput, ToolUseID, MCPServer: the tool call
	PermissionSuggestions []PermissionUpdate `json:"permission_suggestions,omitempty"`
}

// MatchValue returns the tool name.
func (in *PermissionRequestHookInput) MatchValue() string { return in.ToolName }

// PermissionDeniedHookInput is sent when the auto-mode classifier denied a tool call.
type PermissionDeniedHookInput struct {
	BaseHookInput         // SessionID, Cwd, PermissionMode, HookEventName, AgentID, ... (every event's fields)
	ToolCallFields        // ToolName, ToolInput, ToolUseID, MCPServer: the tool call
	Reason         string `json:"reason,omitempty"`
}

// MatchValue returns the tool name.
func (in *PermissionDeniedHookInput) MatchValue() string { return in.ToolName }

// NotificationHookInput is sent when the CLI notifies the user (e.g. a permission prompt waiting).
type NotificationHookInput struct {
	BaseHookInput
	Message          string `json:"message"`
	Title            string `json:"title,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
}

// MatchValue returns the notification type.
func (in *NotificationHookInput) MatchValue() string { return in.NotificationType }

// UserPromptSubmitHookInput is sent for each prompt, before the model sees it.
type UserPromptSubmitHookInput struct {
	BaseHookInput
	Prompt string `json:"prompt"`
	Source string `json:"source,omitempty"`
}

// UserPromptExpansionHookInput is sent when a slash command expands into a prompt.
type UserPromptExpansionHookInput struct {
	BaseHookInput
	ExpansionType string `json:"expansion_type,omitempty"`
	CommandName   string `json:"command_name,omitempty"`
	CommandArgs   string `json:"command_args,omitempty"`
	CommandSource string `json:"command_source,omitempty"`
	Prompt        string `json:"prompt,omitempty"`
}

// MatchValue returns the command name.
func (in *UserPromptExpansionHookInput) MatchValue() string { return in.CommandName }

// SessionStartHookInput is sent when a session starts: source is startup, resume, clear or compact.
// The CLI sends no callback for startup; the SDK produces that one itself (see docs/HOOKS.md).
type SessionStartHookInput struct {
	BaseHookInput
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
}

// MatchValue returns the source.
func (in *SessionStartHookInput) MatchValue() string { return in.Source }

// SessionEndHookInput is sent when a session ends: reason is clear, logout, other, ... The CLI sends
// no callback at exit; the SDK produces that one itself at Close (see docs/HOOKS.md).
type SessionEndHookInput struct {
	BaseHookInput
	Reason string `json:"reason"`
}

// MatchValue returns the reason.
func (in *SessionEndHookInput) MatchValue() string { return in.Reason }

// StopHookInput is sent when the main agent is about to end its turn.
type StopHookInput struct {
	BaseHookInput
	// StopHookActive is true on a turn that a Stop hook forced by blocking the previous stop.
	StopHookActive       bool           `json:"stop_hook_active"`
	LastAssistantMessage string         `json:"last_assistant_message,omitempty"`
	BackgroundTasks      jsontext.Value `json:"background_tasks,omitempty"`
	SessionCrons         jsontext.Value `json:"session_crons,omitempty"`
}

// StopFailureHookInput is sent when a turn ended through an API error.
type StopFailureHookInput struct {
	BaseHookInput
	Error                string         `json:"error"`
	ErrorDetails         jsontext.Value `json:"error_details,omitempty"`
	LastAssistantMessage string         `json:"last_assistant_message,omitempty"`
}

// MatchValue returns the error kind.
func (in *StopFailureHookInput) MatchValue() string { return in.Error }

// SubagentStartHookInput is sent when a subagent starts (AgentID and AgentType are in the base).
type SubagentStartHookInput struct {
	BaseHookInput
}

// MatchValue returns the agent type.
func (in *SubagentStartHookInput) MatchValue() string { return in.AgentType }

// SubagentStopHookInput is sent when a subagent is about to finish.
type SubagentStopHookInput struct {
	BaseHookInput
	StopHookActive       bool           `json:"stop_hook_active"`
	AgentTranscriptPath  string         `json:"agent_transcript_path,omitempty"`
	LastAssistantMessage string         `json:"last_assistant_message,omitempty"`
	BackgroundTasks      jsontext.Value `json:"background_tasks,omitempty"`
	SessionCrons         jsontext.Value `json:"session_crons,omitempty"`
}

// MatchValue returns the agent type.
func (in *SubagentStopHookInput) MatchValue() string { return in.AgentType }

// PreCompactHookInput is sent before the conversation is compacted (trigger manual or auto).
type PreCompactHookInput struct {
	BaseHookInput
	Trigger            string `json:"trigger"`
	CustomInstructions string `json:"custom_instructions,omitempty"`
}

// MatchValue returns the trigger.
func (in *PreCompactHookInput) MatchValue() string { return in.Trigger }

// PostCompactHookInput is sent after compaction.
type PostCompactHookInput struct {
	BaseHookInput
	Trigger        string `json:"trigger"`
	CompactSummary string `json:"compact_summary,omitempty"`
}

// MatchValue returns the trigger.
func (in *PostCompactHookInput) MatchValue() string { return in.Trigger }

// ModelSwitchFields are the fields of PreModelSwitch and PostModelSwitch.
type ModelSwitchFields struct {
	FromModel      string `json:"from_model,omitempty"`
	ToModel        string `json:"to_model,omitempty"`
	RequestedModel string `json:"requested_model,omitempty"`
	Source         string `json:"source,omitempty"`
	ContextTokens  int64  `json:"context_tokens,omitempty"`
}

// PreModelSwitchHookInput is sent before a model switch; a deny refuses it.
type PreModelSwitchHookInput struct {
	BaseHookInput
	ModelSwitchFields
}

// MatchValue returns the model switched to.
func (in *PreModelSwitchHookInput) MatchValue() string { return in.ToModel }

// PostModelSwitchHookInput is sent after a model switch.
type PostModelSwitchHookInput struct {
	BaseHookInput
	ModelSwitchFields
}

// MatchValue returns the model switched to.
func (in *PostModelSwitchHookInput) MatchValue() string { return in.ToModel }

// MessageDisplayHookInput is sent for each flush of assistant text.
type MessageDisplayHookInput struct {
	BaseHookInput
	TurnID    string `json:"turn_id,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	Index     int    `json:"index"`
	Final     bool   `json:"final"`
	Delta     string `json:"delta"`
}

// InstructionsLoadedHookInput is sent when a CLAUDE.md or similar file is loaded.
type InstructionsLoadedHookInput struct {
	BaseHookInput
	FilePath        string `json:"file_path"`
	MemoryType      string `json:"memory_type,omitempty"`
	LoadReason      string `json:"load_reason,omitempty"`
	TriggerFilePath string `json:"trigger_file_path,omitempty"`
}

// MatchValue returns the load reason.
func (in *InstructionsLoadedHookInput) MatchValue() string { return in.LoadReason }

// ConfigChangeHookInput is sent when a settings file changes during the session.
type ConfigChangeHookInput struct {
	BaseHookInput
	Source   string `json:"source,omitempty"`
	FilePath string `json:"file_path,omitempty"`
}

// MatchValue returns the source.
func (in *ConfigChangeHookInput) MatchValue() string { return in.Source }

// FileChangedHookInput is sent when a watched file changes.
type FileChangedHookInput struct {
	BaseHookInput
	FilePath string `json:"file_path"`
	Event    string `json:"event,omitempty"`
}

// MatchValue returns the base name of the file.
func (in *FileChangedHookInput) MatchValue() string {
	p := in.FilePath
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// DirectoryAddedHookInput is sent when a working directory is added. Not seen on the wire yet.
type DirectoryAddedHookInput struct {
	BaseHookInput
	Source string `json:"source,omitempty"`
}

// MatchValue returns the source.
func (in *DirectoryAddedHookInput) MatchValue() string { return in.Source }

// SetupHookInput is sent by the CLI's setup phase. Not seen on the wire yet.
type SetupHookInput struct {
	BaseHookInput
	Trigger string `json:"trigger,omitempty"`
}

// MatchValue returns the trigger.
func (in *SetupHookInput) MatchValue() string { return in.Trigger }

// ElicitationHookInput is sent when an MCP server asks the user for input. Not seen on the wire yet;
// its fields are in Extra.
type ElicitationHookInput struct {
	BaseHookInput
	MCPServerName string `json:"mcp_server_name,omitempty"`
}

// MatchValue returns the MCP server name.
func (in *ElicitationHookInput) MatchValue() string { return in.MCPServerName }

// ElicitationResultHookInput is sent with the user's answer to an elicitation. Not seen on the wire
// yet; its fields are in Extra.
type ElicitationResultHookInput struct {
	BaseHookInput
	MCPServerName string `json:"mcp_server_name,omitempty"`
}

// MatchValue returns the MCP server name.
func (in *ElicitationResultHookInput) MatchValue() string { return in.MCPServerName }

// GenericHookInput is the input of an event that has no richer type: TeammateIdle, TaskCreated,
// TaskCompleted, WorktreeCreate, WorktreeRemove, CwdChanged, and any event name this SDK does not
// know. Its event fields are in Extra.
type GenericHookInput struct {
	BaseHookInput
}

// NewHookInput returns a new, empty input of the type that event e decodes into: for example a
// *PreToolUseHookInput for PreToolUse, and a *GenericHookInput for an unknown event.
func NewHookInput(e HookEvent) HookInput {
	if f, ok := hookInputTypes[e]; ok {
		return f()
	}
	return new(GenericHookInput)
}

// hookInputTypes makes a new input of each event's type.
var hookInputTypes = map[HookEvent]func() HookInput{
	HookEventPreToolUse:           func() HookInput { return new(PreToolUseHookInput) },
	HookEventPostToolUse:          func() HookInput { return new(PostToolUseHookInput) },
	HookEventPostToolUseFailure:   func() HookInput { return new(PostToolUseFailureHookInput) },
	HookEventPostToolBatch:        func() HookInput { return new(PostToolBatchHookInput) },
	HookEventPermissionRequest:    func() HookInput { return new(PermissionRequestHookInput) },
	HookEventPermissionDenied:     func() HookInput { return new(PermissionDeniedHookInput) },
	HookEventNotification:         func() HookInput { return new(NotificationHookInput) },
	HookEventUserPromptSubmit:     func() HookInput { return new(UserPromptSubmitHookInput) },
	HookEventUserPromptExpansion:  func() HookInput { return new(UserPromptExpansionHookInput) },
	HookEventSessionStart:         func() HookInput { return new(SessionStartHookInput) },
	HookEventSessionEnd:           func() HookInput { return new(SessionEndHookInput) },
	HookEventStop:                 func() HookInput { return new(StopHookInput) },
	HookEventStopFailure:          func() HookInput { return new(StopFailureHookInput) },
	HookEventSubagentStart:        func() HookInput { return new(SubagentStartHookInput) },
	HookEventSubagentStop:         func() HookInput { return new(SubagentStopHookInput) },
	HookEventPreCompact:           func() HookInput { return new(PreCompactHookInput) },
	HookEventPostCompact:          func() HookInput { return new(PostCompactHookInput) },
	HookEventPreModelSwitch:       func() HookInput { return new(PreModelSwitchHookInput) },
	HookEventPostModelSwitch:      func() HookInput { return new(PostModelSwitchHookInput) },
	HookEventMessageDisplay:       func() HookInput { return new(MessageDisplayHookInput) },
	HookEventPreSkillShellCommand: func() HookInput { return new(PreSkillShellCommandHookInput) },
	HookEventInstructionsLoaded:   func() HookInput { return new(InstructionsLoadedHookInput) },
	HookEventConfigChange:         func() HookInput { return new(ConfigChangeHookInput) },
	HookEventFileChanged:          func() HookInput { return new(FileChangedHookInput) },
	HookEventDirectoryAdded:       func() HookInput { return new(DirectoryAddedHookInput) },
	HookEventSetup:                func() HookInput { return new(SetupHookInput) },
	HookEventElicitation:          func() HookInput { return new(ElicitationHookInput) },
	HookEventElicitationResult:    func() HookInput { return new(ElicitationResultHookInput) },
}

// ToolCall returns the tool-call fields of in, or nil if in is not about one tool call.
func ToolCall(in HookInput) *ToolCallFields {
	switch v := in.(type) {
	case *PreToolUseHookInput:
		return &v.ToolCallFields
	case *PostToolUseHookInput:
		return &v.ToolCallFields
	case *PostToolUseFailureHookInput:
		return &v.ToolCallFields
	case *PermissionRequestHookInput:
		return &v.ToolCallFields
	case *PermissionDeniedHookInput:
		return &v.ToolCallFields
	}
	return nil
}
