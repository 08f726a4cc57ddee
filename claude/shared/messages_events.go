package shared

import "github.com/go-json-experiment/json/jsontext"

// The typed messages whose "type" is their own (not "system"), in the shapes of the TypeScript
// SDK 0.3.332's sdk.d.ts. Raw is the whole line. A type this SDK does not know arrives as a
// *RawMessage: never dropped.

// ToolProgressMessage (tool_progress) says a tool call is still running, ElapsedTimeSeconds after
// it started. Heartbeat is set for the CLI's keep-alive lines of a long hook (ToolName is then the
// hook event, and ToolUseID "hook-<event>-<tool_use_id>-heartbeat-N").
type ToolProgressMessage struct {
	ToolUseID          string  `json:"tool_use_id"`
	ToolName           string  `json:"tool_name"`
	ParentToolUseID    *string `json:"parent_tool_use_id"`
	ElapsedTimeSeconds float64 `json:"elapsed_time_seconds"`
	TaskID             string  `json:"task_id,omitempty"`
	Heartbeat          bool    `json:"heartbeat,omitempty"`
	SubagentType       string  `json:"subagent_type,omitempty"`
	// SubagentRetry is set while a subagent's API request is being retried.
	SubagentRetry *struct {
		AgentID       string `json:"agent_id"`
		Attempt       int    `json:"attempt"`
		MaxRetries    int    `json:"max_retries"`
		RetryDelayMS  int64  `json:"retry_delay_ms"`
		ErrorStatus   *int   `json:"error_status"`
		ErrorCategory string `json:"error_category"`
	} `json:"subagent_retry,omitempty"`
	SessionID string         `json:"session_id,omitempty"`
	UUID      string         `json:"uuid,omitempty"`
	Raw       jsontext.Value `json:"-"`
}

// Type returns "tool_progress".
func (*ToolProgressMessage) Type() string { return "tool_progress" }

// ToolUseSummaryMessage (tool_use_summary) is a one-line summary of the tool calls named by
// PrecedingToolUseIDs.
type ToolUseSummaryMessage struct {
	Summary             string         `json:"summary"`
	PrecedingToolUseIDs []string       `json:"preceding_tool_use_ids"`
	SessionID           string         `json:"session_id,omitempty"`
	UUID                string         `json:"uuid,omitempty"`
	Raw                 jsontext.Value `json:"-"`
}

// Type returns "tool_use_summary".
func (*ToolUseSummaryMessage) Type() string { return "tool_use_summary" }

// RateLimitInfo is the state of the account's rate limits, as the API's rate-limit headers say it.
type RateLimitInfo struct {
	// Status is "allowed", "allowed_warning" or "rejected".
	Status string `json:"status"`
	// ResetsAt is when the limit resets, in Unix seconds.
	ResetsAt int64 `json:"resetsAt,omitempty"`
	// RateLimitType is "five_hour", "seven_day", "seven_day_opus", "seven_day_sonnet", "overage", ...
	RateLimitType         string  `json:"rateLimitType,omitempty"`
	Utilization           float64 `json:"utilization,omitempty"`
	OverageStatus         string  `json:"overageStatus,omitempty"`
	OverageResetsAt       int64   `json:"overageResetsAt,omitempty"`
	OverageDisabledReason string  `json:"overageDisabledReason,omitempty"`
	IsUsingOverage        bool    `json:"isUsingOverage,omitempty"`
	SurpassedThreshold    float64 `json:"surpassedThreshold,omitempty"`
}

// RateLimitEvent (rate_limit_event) reports the account's rate-limit state after a model request.
type RateLimitEvent struct {
	RateLimitInfo RateLimitInfo  `json:"rate_limit_info"`
	SessionID     string         `json:"session_id,omitempty"`
	UUID          string         `json:"uuid,omitempty"`
	Raw           jsontext.Value `json:"-"`
}

// Type returns "rate_limit_event".
func (*RateLimitEvent) Type() string { return "rate_limit_event" }

// AuthStatusMessage (auth_status) reports an authentication in progress (a login flow).
type AuthStatusMessage struct {
	IsAuthenticating bool           `json:"isAuthenticating"`
	Output           []string       `json:"output"`
	Error            string         `json:"error,omitempty"`
	SessionID        string         `json:"session_id,omitempty"`
	UUID             string         `json:"uuid,omitempty"`
	Raw              jsontext.Value `json:"-"`
}

// Type returns "auth_status".
func (*AuthStatusMessage) Type() string { return "auth_status" }

// PromptSuggestionMessage (prompt_suggestion) is a next prompt the CLI suggests to the user.
type PromptSuggestionMessage struct {
	Suggestion string         `json:"suggestion"`
	SessionID  string         `json:"session_id,omitempty"`
	UUID       string         `json:"uuid,omitempty"`
	Raw        jsontext.Value `json:"-"`
}

// Type returns "prompt_suggestion".
func (*PromptSuggestionMessage) Type() string { return "prompt_suggestion" }

// ConversationResetMessage (conversation_reset) says the conversation started afresh (Trigger
// "clear" for /clear, "plan_mode_exit", "fresh_session", "onboarding"), under NewConversationID.
type ConversationResetMessage struct {
	NewConversationID string         `json:"new_conversation_id"`
	Trigger           string         `json:"trigger,omitempty"`
	UserMessageUUID   string         `json:"user_message_uuid,omitempty"`
	Timestamp         string         `json:"timestamp,omitempty"`
	SessionID         string         `json:"session_id,omitempty"`
	UUID              string         `json:"uuid,omitempty"`
	Raw               jsontext.Value `json:"-"`
}

// Type returns "conversation_reset".
func (*ConversationResetMessage) Type() string { return "conversation_reset" }
