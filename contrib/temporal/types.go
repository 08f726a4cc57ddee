package temporalagent

import (
	"encoding/json"
	"time"
)

// ActivityName is the name RunTurn's activity is registered under.
const ActivityName = "agent.RunTurn"

// SessionOptions is the serializable part of a session's options, chosen by the workflow. The
// worker's own options (NewActivities' WithSessionOptions: the CLI, hooks, policy) come after
// these, so that a workflow input cannot outrank what the worker registered.
type SessionOptions struct {
	// Model is the model (v2.WithModel); "" is the CLI's default.
	Model string `json:",omitempty"`
	// Tools restricts the built-in tools (v2.WithTools); nil leaves them all.
	Tools []string `json:",omitempty"`
	// AllowedTools are permission rules that allow without asking (v2.WithAllowedTools).
	AllowedTools []string `json:",omitempty"`
	// DisallowedTools are permission rules that deny (v2.WithDisallowedTools).
	DisallowedTools []string `json:",omitempty"`
	// PermissionMode is the CLI's permission mode (v2.WithPermissionMode); "" is "default".
	PermissionMode string `json:",omitempty"`
	// SystemPrompt replaces the system prompt (v2.WithSystemPrompt).
	SystemPrompt string `json:",omitempty"`
	// AppendSystemPrompt is added to the system prompt (v2.WithAppendSystemPrompt).
	AppendSystemPrompt string `json:",omitempty"`
	// Cwd is the session's working directory (v2.WithCwd); with the worker's WithWorkspaceRoot it
	// must lie inside that root.
	Cwd string `json:",omitempty"`
	// Resume is the id of a session to go on with (v2.WithResume); "" starts a new one.
	Resume string `json:",omitempty"`
	// ResumeAt resumes Resume at this message (v2.WithResumeAt): pass the LastMessage of the
	// previous turn's result.
	ResumeAt string `json:",omitempty"`
	// MaxBudgetUSD caps the session's cost (v2.WithMaxBudgetUSD); 0 is no cap.
	MaxBudgetUSD float64 `json:",omitempty"`
	// MaxTurns caps the turn's model round trips (v2.WithMaxTurns); 0 is no cap.
	MaxTurns int `json:",omitempty"`
}

// TurnInput is the activity's input: one prompt to one session.
type TurnInput struct {
	// Prompt is the user's message.
	Prompt string
	// Options are the session's options.
	Options SessionOptions
	// Decisions are the approvals decided so far (RunTurn fills them from its Approvals): a tool
	// call that matches one is allowed or denied without asking again.
	Decisions []Decision `json:",omitempty"`
}

// TurnResult is the activity's output: the turn's typed result.
type TurnResult struct {
	// SessionID is the session's id: pass it as SessionOptions.Resume for the next turn.
	SessionID string
	// LastMessage is the uuid of the turn's last completed message: pass it as
	// SessionOptions.ResumeAt for the next turn.
	LastMessage string `json:",omitempty"`
	// Result is the turn's final text.
	Result string
	// StructuredOutput is the value for the session's JSON schema, if it had one.
	StructuredOutput json.RawMessage `json:",omitempty"`
	// Subtype is the result's subtype: "success", "error_max_turns", "error_max_budget_usd", ...
	Subtype string
	// IsError reports a turn that ended in error.
	IsError bool `json:",omitempty"`
	// StopReason is the model's last stop reason.
	StopReason string `json:",omitempty"`
	// NumTurns is the number of model round trips.
	NumTurns int
	// TotalCostUSD is the session's cost so far, as the CLI counts it.
	TotalCostUSD float64
	// Usage is the result's token usage, as the CLI reports it.
	Usage json.RawMessage `json:",omitempty"`
	// DurationMS is the turn's duration as the CLI measured it (the last attempt only).
	DurationMS int64
	// Resumes counts how many times the turn was resumed after its worker died or it got stuck.
	Resumes int `json:",omitempty"`
	// Pending is set when the turn stopped to wait for an approval longer than the worker keeps
	// a CLI alive: RunTurn waits for the decision, then runs Next.
	Pending *Approval `json:",omitempty"`
	// Next is the input that resumes the turn once Pending is decided (with Pending only).
	Next *TurnInput `json:",omitempty"`
}

// Progress is the activity's heartbeat detail: how far the turn got. A retry of the activity
// reads it to resume the session instead of starting the turn over.
type Progress struct {
	// SessionID is the session the turn runs in ("" before the CLI reported it).
	SessionID string `json:",omitempty"`
	// ResumeAt is the uuid of the last completed message of the session: a message after which no
	// tool call is left without its result.
	ResumeAt string `json:",omitempty"`
	// InTurn reports that ResumeAt is a message of this turn: a retry resumes there and sends the
	// worker's continue prompt instead of the turn's prompt.
	InTurn bool `json:",omitempty"`
	// CompletedToolUses are the ids of the turn's tool calls completed up to ResumeAt, in order: the
	// calls a resume does not run again.
	CompletedToolUses []string `json:",omitempty"`
	// Resumes counts the retries that resumed the turn.
	Resumes int `json:",omitempty"`
}

// Approval is a tool call waiting for a decision.
type Approval struct {
	// ID names the call by what it does (the tool and its input): the same call asked again, after a
	// resume, has the same ID.
	ID string
	// ToolName and Input are the call's tool and input (JSON).
	ToolName string
	Input    json.RawMessage
	// SessionID is the session that asked.
	SessionID string
	// RequestedAt is when the worker asked.
	RequestedAt time.Time
}

// Decision is a person's or the workflow's answer to an Approval.
type Decision struct {
	// ApprovalID is the Approval's ID.
	ApprovalID string
	// Approve lets the call run; false denies it, and Reason reaches the model.
	Approve bool
	// Reason explains the decision.
	Reason string `json:",omitempty"`
	// By names who decided.
	By string `json:",omitempty"`
}
