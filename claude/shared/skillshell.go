package shared

// PreSkillShellCommandHookInput is sent before a shell command that a skill or slash command
// embeds runs (CLI 2.1.332 and later). Its matcher is tested against ToolName.
type PreSkillShellCommandHookInput struct {
	BaseHookInput
	// ToolName is the shell tool that runs the command: "Bash" or "PowerShell".
	ToolName string `json:"tool_name"`
	// ToolInput holds "command": the command as it would run, arguments filled in.
	ToolInput ToolInput `json:"tool_input"`
	// ToolUseID identifies the command; it names no tool call of the transcript.
	ToolUseID string `json:"tool_use_id,omitempty"`
	// CommandName is the skill or slash command, CommandSource where it comes from.
	CommandName   string `json:"command_name"`
	CommandSource string `json:"command_source,omitempty"`
	// InvokedBy is "user", "claude" or "other".
	InvokedBy string `json:"invoked_by,omitempty"`
}

// MatchValue returns the shell tool's name.
func (in *PreSkillShellCommandHookInput) MatchValue() string { return in.ToolName }
