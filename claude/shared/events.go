package shared

// HookEvent names a point in the CLI's lifecycle at which hooks run. The values are the CLI's own
// event names as they appear in hook_event_name.
type HookEvent string

// The hook events of the design spec.
const (
	HookEventPreToolUse         HookEvent = "PreToolUse"
	HookEventPostToolUse        HookEvent = "PostToolUse"
	HookEventPostToolUseFailure HookEvent = "PostToolUseFailure"
	HookEventUserPromptSubmit   HookEvent = "UserPromptSubmit"
	HookEventStop               HookEvent = "Stop"
	HookEventSubagentStart      HookEvent = "SubagentStart"
	HookEventSubagentStop       HookEvent = "SubagentStop"
	HookEventPreCompact         HookEvent = "PreCompact"
	HookEventNotification       HookEvent = "Notification"
	HookEventSessionStart       HookEvent = "SessionStart"
	HookEventSessionEnd         HookEvent = "SessionEnd"
	HookEventPermissionRequest  HookEvent = "PermissionRequest"
)

// The other events the real CLI (2.1.330) accepts. See docs/HOOKS.md for which of them it actually
// sends to SDK callbacks.
const (
	HookEventPostToolBatch       HookEvent = "PostToolBatch"
	HookEventUserPromptExpansion HookEvent = "UserPromptExpansion"
	HookEventStopFailure         HookEvent = "StopFailure"
	HookEventPostCompact         HookEvent = "PostCompact"
	HookEventPreModelSwitch      HookEvent = "PreModelSwitch"
	HookEventPostModelSwitch     HookEvent = "PostModelSwitch"
	HookEventPermissionDenied    HookEvent = "PermissionDenied"
	HookEventSetup               HookEvent = "Setup"
	HookEventTeammateIdle        HookEvent = "TeammateIdle"
	HookEventTaskCreated         HookEvent = "TaskCreated"
	HookEventTaskCompleted       HookEvent = "TaskCompleted"
	HookEventElicitation         HookEvent = "Elicitation"
	HookEventElicitationResult   HookEvent = "ElicitationResult"
	HookEventConfigChange        HookEvent = "ConfigChange"
	HookEventWorktreeCreate      HookEvent = "WorktreeCreate"
	HookEventWorktreeRemove      HookEvent = "WorktreeRemove"
	HookEventInstructionsLoaded  HookEvent = "InstructionsLoaded"
	HookEventCwdChanged          HookEvent = "CwdChanged"
	HookEventFileChanged         HookEvent = "FileChanged"
	HookEventDirectoryAdded      HookEvent = "DirectoryAdded"
	HookEventMessageDisplay      HookEvent = "MessageDisplay"
)

// HookEventPreSkillShellCommand (CLI 2.1.332 and later; TypeScript SDK 0.3.332's 34th event) runs
// before a shell command that a skill or slash command embeds (!`command`) runs. Its input has
// tool_name ("Bash" or "PowerShell"), tool_input.command, command_name and invoked_by; it guards
// the command: shared.Deny or shared.Block keeps it from running, shared.Allow adds nothing (the
// command runs unless a hook refuses it). Only the top-level decision is read: any other answer
// (ask, a rewrite, an event-specific output) denies, as the CLI itself does for ask and a
// rewrite. Its input decodes as *PreSkillShellCommandHookInput.
const HookEventPreSkillShellCommand HookEvent = "PreSkillShellCommand"

// allEvents lists every known event in a stable order (the CLI's schema order).
var allEvents = []HookEvent{
	HookEventPreToolUse, HookEventPostToolUse, HookEventPostToolUseFailure, HookEventPostToolBatch,
	HookEventNotification, HookEventUserPromptSubmit, HookEventUserPromptExpansion,
	HookEventSessionStart, HookEventSessionEnd, HookEventStop, HookEventStopFailure,
	HookEventSubagentStart, HookEventSubagentStop, HookEventPreCompact, HookEventPostCompact,
	HookEventPreModelSwitch, HookEventPostModelSwitch, HookEventPermissionRequest,
	HookEventPermissionDenied, HookEventSetup, HookEventTeammateIdle, HookEventTaskCreated,
	HookEventTaskCompleted, HookEventElicitation, HookEventElicitationResult, HookEventConfigChange,
	HookEventWorktreeCreate, HookEventWorktreeRemove, HookEventInstructionsLoaded,
	HookEventCwdChanged, HookEventFileChanged, HookEventDirectoryAdded, HookEventMessageDisplay,
	HookEventPreSkillShellCommand,
}

var knownEvents = func() map[HookEvent]bool {
	m := make(map[HookEvent]bool, len(allEvents))
	for _, e := range allEvents {
		m[e] = true
	}
	return m
}()

// AllHookEvents returns every event this SDK knows, in a stable order. The slice is a fresh copy.
func AllHookEvents() []HookEvent { return append([]HookEvent(nil), allEvents...) }

// IsKnown reports whether e is an event this SDK knows.
func (e HookEvent) IsKnown() bool { return knownEvents[e] }

// String returns the event name.
func (e HookEvent) String() string { return string(e) }

// IsToolEvent reports whether the event is about one tool call and carries tool_name, so that its
// matcher is tested against the tool name.
func (e HookEvent) IsToolEvent() bool {
	switch e {
	case HookEventPreToolUse, HookEventPostToolUse, HookEventPostToolUseFailure,
		HookEventPermissionRequest, HookEventPermissionDenied:
		return true
	}
	return false
}

// GuardsAction reports whether the event decides whether something may happen (a tool call, a
// permission, a prompt, a model switch). For these events every failure of a handler (an error, a
// panic, a timeout, a nonsense output) is answered with the event's own denial: they fail closed.
// All other events fail open: the failure is reported and the agent goes on.
func (e HookEvent) GuardsAction() bool {
	switch e {
	case HookEventPreToolUse, HookEventPermissionRequest, HookEventUserPromptSubmit,
		HookEventUserPromptExpansion, HookEventPreModelSwitch, HookEventPreSkillShellCommand:
		return true
	}
	return false
}

// UsesMatcher reports whether the CLI tests a matcher for this event. UserPromptSubmit, Stop,
// PostToolBatch, TeammateIdle, TaskCreated and TaskCompleted have no match value: their hooks always
// fire, whatever the matcher says.
func (e HookEvent) UsesMatcher() bool {
	switch e {
	case HookEventUserPromptSubmit, HookEventStop, HookEventPostToolBatch, HookEventTeammateIdle,
		HookEventTaskCreated, HookEventTaskCompleted:
		return false
	}
	return true
}

// FirstCLIVersion returns the first CLI version that sends e, for an event newer than the oldest
// CLI the SDK supports (v2.MinCLIVersion, 2.1.330), and "" for the others. An older CLI accepts the
// registration of such an event and never sends it, so that a guard there would never run: the
// session refuses it (v2.ErrHooksNotEnforced). A new event records its first CLI here, beside its
// declaration.
func (e HookEvent) FirstCLIVersion() string {
	if e == HookEventPreSkillShellCommand {
		return "2.1.332"
	}
	return ""
}
