package shared

// PermissionUpdateType names what a PermissionUpdate changes.
type PermissionUpdateType string

// The permission update types (the official SDKs' PermissionUpdate union).
const (
	// PermissionAddRules adds Rules with Behavior at Destination.
	PermissionAddRules PermissionUpdateType = "addRules"
	// PermissionReplaceRules replaces the rules of Behavior at Destination by Rules.
	PermissionReplaceRules PermissionUpdateType = "replaceRules"
	// PermissionRemoveRules removes Rules with Behavior from Destination.
	PermissionRemoveRules PermissionUpdateType = "removeRules"
	// PermissionSetMode switches the permission mode to Mode.
	PermissionSetMode PermissionUpdateType = "setMode"
	// PermissionAddDirectories adds Directories to those the tools may reach.
	PermissionAddDirectories PermissionUpdateType = "addDirectories"
	// PermissionRemoveDirectories removes Directories from those the tools may reach.
	PermissionRemoveDirectories PermissionUpdateType = "removeDirectories"
)

// PermissionUpdateDestination says where a PermissionUpdate is kept.
type PermissionUpdateDestination string

// The destinations. Only PermissionToSession ends with the session; the settings destinations
// write the CLI's settings files, so a rule stays for later sessions (of that project, or of the
// user for PermissionToUserSettings).
const (
	// PermissionToSession keeps the update for this session only.
	PermissionToSession PermissionUpdateDestination = "session"
	// PermissionToUserSettings writes it to the user's settings (~/.claude/settings.json).
	PermissionToUserSettings PermissionUpdateDestination = "userSettings"
	// PermissionToProjectSettings writes it to the project's .claude/settings.json.
	PermissionToProjectSettings PermissionUpdateDestination = "projectSettings"
	// PermissionToLocalSettings writes it to the project's .claude/settings.local.json.
	PermissionToLocalSettings PermissionUpdateDestination = "localSettings"
	// PermissionToCLIArg applies it as if given on the CLI's command line (this process only).
	PermissionToCLIArg PermissionUpdateDestination = "cliArg"
)

// PermissionAsk is a rule's behaviour in a PermissionUpdate: ask each time. It is no verdict: a
// PermissionResult's Behavior is PermissionAllow or PermissionDeny.
const PermissionAsk PermissionBehavior = "ask"

// PermissionRuleValue is one permission rule: a tool and, optionally, what of its input the rule
// covers (for Bash a command or a prefix such as "npm test:*"; for Read/Edit a path pattern).
type PermissionRuleValue struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// PermissionUpdate is a change to the CLI's permissions, as the official SDKs' PermissionUpdate:
// the CLI offers some as a permission request's suggestions (CanUseTool.PermissionSuggestions,
// PermissionRequestHookInput.PermissionSuggestions), and an allowing answer applies those in its
// PermissionResult.UpdatedPermissions ("always allow"). Which fields count depends on Type:
// Rules and Behavior for the rule types, Mode for PermissionSetMode, Directories for the
// directory types; Destination for all.
type PermissionUpdate struct {
	Type     PermissionUpdateType  `json:"type"`
	Rules    []PermissionRuleValue `json:"rules,omitempty"`
	Behavior PermissionBehavior    `json:"behavior,omitempty"`
	// Mode is a permission mode's name (a v2.PermissionMode's value).
	Mode        string                      `json:"mode,omitempty"`
	Directories []string                    `json:"directories,omitempty"`
	Destination PermissionUpdateDestination `json:"destination"`
}
