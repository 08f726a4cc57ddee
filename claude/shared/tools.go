package shared

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// cliToolNames are the names of the tools CLI 2.1.330 has, as it sends them in tool_name. They were
// read from the CLI's bundle (node_modules/@anthropic-ai/claude-code/bin/claude.exe, which embeds
// the JavaScript): the list the CLI keeps of its built-in tools (`var t_n=["Agent","Artifact",...]`,
// module chunk-mqa362p8.js), plus the names of the tools it defines with a registryToolId
// (`En({registryToolId:"...",name:X,...})`, some only behind feature flags), plus StructuredOutput
// (the output tool of a JSON schema), REPL and Eval, which that list leaves out. Tools of MCP
// servers are named mcp__<server>__<tool> and are not listed.
var cliToolNames = []string{
	"Agent", "AppifactRepl", "Artifact", "AskUserQuestion", "Bash", "ClaudeDesign", "CronCreate",
	"CronDelete", "CronList", "DesignSync", "Edit", "EndConversation", "EnterPlanMode",
	"EnterWorktree", "Eval", "ExitPlanMode", "ExitWorktree", "FetchInboxMessage", "GetGoal",
	"GetTask", "Glob", "Grep", "LSP", "ListAgents", "ListConnectors", "ListMcpResourcesTool",
	"McpTaskResumePolling", "Monitor", "NotebookEdit", "ObserverReport", "OfferChromeSetup",
	"PauseGoal", "Poll", "PowerShell", "Projects", "PublishPlugin", "PushNotification", "REPL",
	"Read", "ReadMcpResourceDirTool", "ReadMcpResourceTool", "ReadNotifications",
	"ReadWidgetContext", "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SearchMcpRegistry",
	"SendFeedback", "SendFile", "SendMessage", "SendToProject", "SendToProjectContext",
	"SendUserFile", "SendUserMessage", "SetGoal", "ShareOnboardingGuide", "ShowOnboardingRolePicker",
	"Skill", "StructuredOutput", "SubagentHandback", "SuggestConnectors", "SuggestPluginInstall",
	"SuggestSkills", "TaskCreate", "TaskGet", "TaskList", "TaskStop", "TaskUpdate", "TodoWrite",
	"ToolSearch", "WaitForMcpServers", "WebFetch", "WebSearch", "Workflow", "WrapUp", "Write",
	"memory_list", "memory_read", "memory_write", "propose_skills",
	"self_hosted_runner_get_pool", "self_hosted_runner_list_runners",
	"self_hosted_runner_list_secrets", "self_hosted_runner_list_sessions",
	"self_hosted_runner_read_health", "self_hosted_runner_read_metrics",
	"self_hosted_runner_requeue_session", "self_hosted_runner_spawn_local",
	"self_hosted_runner_tail_log",
}

// cliToolAliases maps the legacy names of CLI 2.1.330's tools to their current names. It is the
// CLI's own table (`sDo={Task:"Agent",KillShell:"TaskStop",...}`, chunk-mqa362p8.js), which its
// hook matcher applies both ways: a matcher naming "Task" fires for the Agent tool (the CLI sends
// tool_name "Agent"), and a regular expression is also tested against a tool's legacy names.
var cliToolAliases = map[string]string{
	"Task":               "Agent",
	"KillShell":          "TaskStop",
	"KillBash":           "TaskStop",
	"ListPeers":          "ListAgents",
	"Brief":              "SendUserMessage",
	"ListMcpResources":   "ListMcpResourcesTool",
	"ReadMcpResource":    "ReadMcpResourceTool",
	"ReadMcpResourceDir": "ReadMcpResourceDirTool",
	"ProposeGoal":        "SetGoal",
}

// toolNameGroups maps every name that takes part in an alias (current or legacy) to all the names
// of its tool: "Agent" and "Task" both to ["Agent", "Task"].
var toolNameGroups = func() map[string][]string {
	g := map[string][]string{}
	for legacy, current := range cliToolAliases {
		if g[current] == nil {
			g[current] = []string{current}
		}
		g[current] = append(g[current], legacy)
	}
	for legacy, current := range cliToolAliases {
		g[legacy] = g[current]
	}
	for _, names := range g {
		slices.Sort(names[1:]) // a stable order; the current name stays first
	}
	return g
}()

// CLIToolNames returns the names of the CLI's tools the SDK knows (see UnknownToolNames), sorted:
// for a message that suggests the name a misspelt one was meant to be.
func CLIToolNames() []string { return slices.Clone(cliToolNames) }

// isCLIToolName reports whether CLI 2.1.330 has a tool of this name (current or legacy).
func isCLIToolName(name string) bool {
	_, legacy := cliToolAliases[name]
	return legacy || slices.Contains(cliToolNames, name)
}

// ErrUnknownTool says a tool event's matcher names a tool the CLI does not have: the hook would
// never fire for it (a typo such as "Bsh", or a tool the CLI dropped such as "MultiEdit").
var ErrUnknownTool = errors.New("shared: the matcher names a tool the CLI does not have")

// unknownTools returns what matcher, registered for a tool event, names that CLI 2.1.330 has no
// tool for: each name of a finite matcher (a list, or a regular expression of finitely many names)
// that is neither a tool name nor an mcp__ name; for any other matcher, the pattern itself if it
// matches no tool name and does not mention mcp__. A matcher that matches everything names nothing.
func unknownTools(m *Matcher) []string {
	if m.MatchesAll() {
		return nil
	}
	if names, ok := m.Names(); ok {
		var bad []string
		for _, n := range names {
			if !strings.HasPrefix(n, "mcp__") && !isCLIToolName(n) && !slices.Contains(bad, n) {
				bad = append(bad, n)
			}
		}
		return bad
	}
	if strings.Contains(m.pattern, "mcp__") || slices.ContainsFunc(cliToolNames, m.Match) {
		return nil
	}
	return []string{m.pattern}
}

// UnknownToolNames returns, each once and sorted, what the matchers of h's tool events
// (HookEvent.IsToolEvent) name that CLI 2.1.330 has no tool for (see ErrUnknownTool): a name of a
// list such as "Bsh|Edit", or the pattern of a glob or regular expression that matches no tool
// name. Names starting with "mcp__" (MCP tools) are never reported, nor are the CLI's legacy names
// ("Task" for Agent). Invalid matchers are skipped (Validate reports them). The result is meant
// for a warning; CheckToolNames makes it an error.
func UnknownToolNames(h Hooks) []string {
	var out []string
	for e, cfgs := range h {
		if !e.IsToolEvent() {
			continue
		}
		for _, c := range cfgs {
			m, err := cachedMatcher(c.Matcher)
			if err != nil {
				continue
			}
			for _, n := range unknownTools(m) {
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// CheckToolNames returns a *RegistrationError wrapping ErrUnknownTool for the first registration of
// h (in Validate's order) whose matcher names a tool CLI 2.1.330 does not have (see
// UnknownToolNames), or nil.
func CheckToolNames(h Hooks) error {
	for _, e := range allEvents {
		if !e.IsToolEvent() {
			continue
		}
		for i, c := range h[e] {
			m, err := cachedMatcher(c.Matcher)
			if err != nil {
				continue
			}
			if bad := unknownTools(m); len(bad) > 0 {
				return &RegistrationError{Event: e, Index: i, Err: ErrUnknownTool,
					Reason: fmt.Sprintf("matcher %q names no tool the CLI has: %s", c.Matcher, strings.Join(bad, ", "))}
			}
		}
	}
	return nil
}
