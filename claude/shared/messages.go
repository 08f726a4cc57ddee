package shared

import (
	"github.com/go-json-experiment/json/jsontext"

	jsonv2 "github.com/go-json-experiment/json"
)

// Message is one message of a session's stream: a line the CLI wrote, decoded, or an event the SDK
// produced itself (hook progress). Use a type switch on the concrete pointer types.
type Message interface {
	// Type returns the message's type, e.g. "assistant", "result", "system".
	Type() string
}

// SystemMessage is a "system" message of subtype init (at the start of each turn), informational
// (a notice), hook_started / hook_progress / hook_response (the CLI's command hooks), or of a
// subtype this SDK does not know (a newer CLI's: its fields are in Raw). The other system subtypes
// have their own types (messages_system.go: *APIRetryMessage, *TaskStartedMessage, ...).
type SystemMessage struct {
	SystemHeader
	// Init fields (subtype "init").
	Cwd            string   `json:"cwd,omitempty"`
	Model          string   `json:"model,omitempty"`
	PermissionMode string   `json:"permissionMode,omitempty"`
	Tools          []string `json:"tools,omitempty"`
	// MCPServers are the session's MCP servers and whether each connected (init).
	MCPServers []InitMCPServer `json:"mcp_servers,omitempty"`
	// Agents are the subagent names, SlashCommands the slash commands (TerminalSlashCommands those
	// that only a terminal runs), Skills the skills, Plugins the plugins loaded (init).
	Agents                []string     `json:"agents,omitempty"`
	SlashCommands         []string     `json:"slash_commands,omitempty"`
	TerminalSlashCommands []string     `json:"terminal_slash_commands,omitempty"`
	Skills                []string     `json:"skills,omitempty"`
	Plugins               []InitPlugin `json:"plugins,omitempty"`
	// APIKeySource says where the API key came from ("ANTHROPIC_API_KEY", "apiKeyHelper", "none",
	// ...); ClaudeCodeVersion is the CLI's version; OutputStyle the output style in use (init).
	APIKeySource      string   `json:"apiKeySource,omitempty"`
	ClaudeCodeVersion string   `json:"claude_code_version,omitempty"`
	OutputStyle       string   `json:"output_style,omitempty"`
	Betas             []string `json:"betas,omitempty"`
	// Capabilities are the protocol capabilities the CLI announces (init).
	Capabilities  []string `json:"capabilities,omitempty"`
	FastModeState string   `json:"fast_mode_state,omitempty"`
	// Informational fields (subtype "informational": Level "info", "notice", "suggestion" or
	// "warning").
	Content             string `json:"content,omitempty"`
	Level               string `json:"level,omitempty"`
	Tag                 string `json:"tag,omitempty"`
	ToolUseID           string `json:"tool_use_id,omitempty"`
	PreventContinuation bool   `json:"prevent_continuation,omitempty"`
	// Command-hook progress fields (hook_started, hook_response).
	HookID    string `json:"hook_id,omitempty"`
	HookName  string `json:"hook_name,omitempty"`
	HookEvent string `json:"hook_event,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	Stdout    string `json:"stdout,omitempty"`
	Stderr    string `json:"stderr,omitempty"`
}

// InitMCPServer is an MCP server as system/init lists it: Status is "connected", "failed",
// "needs-auth", "pending" or "disabled".
type InitMCPServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Source string `json:"source,omitempty"`
}

// InitPlugin is a plugin as system/init lists it.
type InitPlugin struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
	Source  string `json:"source,omitempty"`
}

// ContentBlock is one content block, the SDK's only type of one: of a model message (text,
// thinking, tool_use, tool_result, server_tool_use or web_search_tool_result: the Block*
// constants; fields of other blocks are not decoded, the message's Raw has them), and of a prompt
// (text, image, document: made with v2.TextBlock, v2.ImageBlock, v2.ImageURLBlock,
// v2.DocumentBlock or v2.TextDocumentBlock). It marshals as the Messages API shapes it.
type ContentBlock struct {
	Type string `json:"type"`
	// Text of a text block, and its Citations (web search hits it cites) when it has any.
	Text      string         `json:"text,omitempty"`
	Citations jsontext.Value `json:"citations,omitempty"`
	// Thinking of a thinking block.
	Thinking string `json:"thinking,omitempty"`
	// ID, Name and Input of a tool_use or server_tool_use block.
	ID    string         `json:"id,omitempty"`
	Name  string         `json:"name,omitempty"`
	Input jsontext.Value `json:"input,omitempty"`
	// ToolUseID, Content and IsError of a tool_result block. Content is a string or an array. A
	// web_search_tool_result block has ToolUseID and Content (WebSearchResults).
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Content   jsontext.Value `json:"content,omitempty"`
	IsError   bool           `json:"is_error,omitempty"`
	// Source is where an image's or a document's data comes from, and Title a document's title.
	Source *BlockSource `json:"source,omitempty"`
	Title  string       `json:"title,omitempty"`
}

// BlockSource is where an image's or a document's data comes from.
type BlockSource struct {
	// Type is "base64", "url" or "text".
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// ContentText returns a tool_result's content as text: the string itself, or its text blocks
// joined.
func (b ContentBlock) ContentText() string {
	if len(b.Content) == 0 {
		return ""
	}
	var s string
	if jsonv2.Unmarshal(b.Content, &s) == nil {
		return s
	}
	var blocks []ContentBlock
	if jsonv2.Unmarshal(b.Content, &blocks) == nil {
		out := ""
		for _, c := range blocks {
			out += c.Text
		}
		return out
	}
	return string(b.Content)
}

// APIMessage is a model message as the Messages API shapes it.
type APIMessage struct {
	ID         string         `json:"id,omitempty"`
	Role       string         `json:"role"`
	Model      string         `json:"model,omitempty"`
	Content    []ContentBlock `json:"content"`
	StopReason string         `json:"stop_reason,omitempty"`
	Usage      jsontext.Value `json:"usage,omitempty"`
}

// AssistantMessage is one completed block (or message) from the model.
type AssistantMessage struct {
	Message         APIMessage     `json:"message"`
	ParentToolUseID *string        `json:"parent_tool_use_id"`
	SessionID       string         `json:"session_id,omitempty"`
	UUID            string         `json:"uuid,omitempty"`
	Raw             jsontext.Value `json:"-"`
}

// Type returns "assistant".
func (*AssistantMessage) Type() string { return "assistant" }

// Text returns the text of the message's text blocks, joined.
func (m *AssistantMessage) Text() string {
	s := ""
	for _, b := range m.Message.Content {
		if b.Type == "text" {
			s += b.Text
		}
	}
	return s
}

// UserMessage is a user turn on the stream: tool results, hook feedback, slash-command output, or
// a replayed prompt. Content is a string or an array of blocks; Blocks holds the array form.
type UserMessage struct {
	Message struct {
		Role    string         `json:"role"`
		Content jsontext.Value `json:"content"`
	} `json:"message"`
	Blocks          []ContentBlock `json:"-"`
	ParentToolUseID *string        `json:"parent_tool_use_id"`
	SessionID       string         `json:"session_id,omitempty"`
	UUID            string         `json:"uuid,omitempty"`
	ToolUseResult   jsontext.Value `json:"tool_use_result,omitempty"`
	IsReplay        bool           `json:"isReplay,omitempty"`
	Raw             jsontext.Value `json:"-"`
}

// Type returns "user".
func (*UserMessage) Type() string { return "user" }

// Text returns the message's text: its content when that is a string (a prompt), else the text of
// its text blocks, joined. Tool results are not text blocks: see Blocks.
func (m *UserMessage) Text() string {
	if c := m.Message.Content; c.Kind() == '"' {
		var s string
		if jsonv2.Unmarshal(c, &s) == nil {
			return s
		}
	}
	s := ""
	for _, b := range m.Blocks {
		if b.Type == "text" {
			s += b.Text
		}
	}
	return s
}

// ResultMessage ends a turn. A prompt can produce more than one (a background subagent finishing
// starts a turn by itself). An API error is Subtype "success" with IsError true.
type ResultMessage struct {
	Subtype        string         `json:"subtype"`
	IsError        bool           `json:"is_error"`
	Result         string         `json:"result"`
	StopReason     string         `json:"stop_reason,omitempty"`
	TerminalReason string         `json:"terminal_reason,omitempty"`
	NumTurns       int            `json:"num_turns"`
	DurationMS     int64          `json:"duration_ms"`
	DurationAPIMS  int64          `json:"duration_api_ms"`
	TotalCostUSD   float64        `json:"total_cost_usd"`
	SessionID      string         `json:"session_id"`
	UUID           string         `json:"uuid,omitempty"`
	Usage          jsontext.Value `json:"usage,omitempty"`
	// ModelUsage is per model (by the model string the CLI used): every call of the session so
	// far, subagents' included, cumulative across turns (read the latest result; do not add
	// results up). Usage is the main loop's calls of this turn only. A shape a newer CLI changed
	// is left out (nil) rather than failing the result; Raw has it.
	ModelUsage map[string]ModelUsage `json:"modelUsage,omitempty"`
	// APIErrorStatus is the HTTP status of the API error that ended the turn; nil when none did.
	APIErrorStatus *int `json:"api_error_status,omitempty"`
	// Origin is where the turn came from: nil or Kind "human" for a prompt of the session's, Kind
	// "task-notification" for a turn the CLI started by itself (v2.StartedByCLI).
	Origin            *MessageOrigin `json:"origin,omitempty"`
	PermissionDenials jsontext.Value `json:"permission_denials,omitempty"`
	DeferredToolUse   jsontext.Value `json:"deferred_tool_use,omitempty"`
	Errors            []string       `json:"errors,omitempty"`
	// StructuredOutput is the value the model gave for the session's JSON schema (v2
	// WithJSONSchema), already checked against it by the CLI; absent without a schema.
	StructuredOutput jsontext.Value `json:"structured_output,omitempty"`
	// Refusals is what stopped the turn from doing what its prompt asked: a prompt a hook
	// blocked, every requested tool call refused, a guard that failed closed. The SDK (v2) fills it
	// from the turn's messages and hook runs; it is not on the wire. Empty when nothing was refused.
	// Session.Run returns an error for a result with refusals (v2.ErrPromptBlocked, ...).
	Refusals []Refusal      `json:"-"`
	Raw      jsontext.Value `json:"-"`
}

// Type returns "result".
func (*ResultMessage) Type() string { return "result" }

// StreamEvent is a raw Messages API stream event (with include-partial-messages).
type StreamEvent struct {
	Event           jsontext.Value `json:"event"`
	SessionID       string         `json:"session_id,omitempty"`
	ParentToolUseID *string        `json:"parent_tool_use_id"`
	UUID            string         `json:"uuid,omitempty"`
	Raw             jsontext.Value `json:"-"`
}

// Type returns "stream_event".
func (*StreamEvent) Type() string { return "stream_event" }

// CanUseTool is the payload of a can_use_tool control request: a permission prompt.
type CanUseTool struct {
	ToolName              string             `json:"tool_name"`
	DisplayName           string             `json:"display_name,omitempty"`
	Input                 ToolInput          `json:"input"`
	Description           string             `json:"description,omitempty"`
	ToolUseID             string             `json:"tool_use_id,omitempty"`
	BlockedPath           string             `json:"blocked_path,omitempty"`
	DecisionReason        string             `json:"decision_reason,omitempty"`
	DecisionReasonType    string             `json:"decision_reason_type,omitempty"`
	PermissionSuggestions []PermissionUpdate `json:"permission_suggestions,omitempty"`
	AgentID               string             `json:"agent_id,omitempty"`
}

// RawMessage is a line of a type this SDK does not decode: a newer CLI's additions come through as
// RawMessage instead of an error.
type RawMessage struct {
	MessageType string
	Subtype     string
	Raw         jsontext.Value
}

// Type returns the line's type.
func (m *RawMessage) Type() string { return m.MessageType }
