package v2

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// initRequest is the initialize control request.
type initRequest struct {
	Hooks hooks.Registration `json:"hooks,omitempty"`
	// The MCP servers (mcp.go): the in-process servers' names, and the external servers' entries
	// (read by a CLI started with --await-initialize). Sent in the first initialize only: CLI
	// 2.1.330 keeps both kinds through a later initialize without them (scoped.go's
	// sendRegistration; TestE2EMCPServersSurviveReinitialize).
	SDKMCPServers         []string                  `json:"sdkMcpServers,omitempty"`
	SDKMCPServerManifests map[string]mcpManifest    `json:"sdkMcpServerManifests,omitempty"`
	MCPServers            map[string]mcpServerEntry `json:"mcpServers,omitempty"`
	// Agents are WithAgents's subagents (options_agents.go), sent with every initialize.
	Agents map[string]AgentDefinition `json:"agents,omitempty"`
	// Skills is WithSkills's allowlist (skills.go): nil is none, empty hides every skill.
	Skills []string `json:"skills,omitzero"`
	// Smaller options of several topics (prompt, tools, session, agents), sent with every initialize.
	PlanModeInstructions   string            `json:"planModeInstructions,omitzero"`
	ToolAliases            map[string]string `json:"toolAliases,omitzero"`
	Title                  string            `json:"title,omitzero"`
	ForwardSubagentText    bool              `json:"forwardSubagentText,omitzero"`
	ExcludeDynamicSections bool              `json:"excludeDynamicSections,omitzero"`
	// The user-input and display options (dialog.go, declarations.go) and the in-process MCP
	// servers' settings (mcpsettings.go), sent with every initialize.
	SupportedDialogKinds   []string                    `json:"supportedDialogKinds,omitzero"`
	PerTaskStopAffordance  bool                        `json:"perTaskStopAffordance,omitzero"`
	AgentProgressSummaries bool                        `json:"agentProgressSummaries,omitzero"`
	PromptSuggestions      bool                        `json:"promptSuggestions,omitzero"`
	SDKMCPServerConfigs    map[string]mcpSettingsEntry `json:"sdkMcpServerConfigs,omitzero"`
}

type initAnswer struct {
	ClaudeCodeVersion      string `json:"claude_code_version"`
	PID                    int    `json:"pid"`
	HooksApplied           bool   `json:"hooks_applied"`
	HookOnFailureSupported bool   `json:"hook_on_failure_supported"`
}

func (s *Session) initialize(ctx context.Context) error {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	reg := s.registration()
	req := s.o.initRequest(reg, true)
	req.SDKMCPServerManifests = s.mcp.manifests
	raw, err := s.t.Request(ctx, req)
	if err != nil {
		var ce *shared.ControlError
		if errors.As(err, &ce) && len(reg) > 0 {
			return s.hooksNotApplied(reg, "the CLI refused the hook registration: "+ce.Message)
		}
		return fmt.Errorf("v2: initialize: %w", err)
	}
	return s.applyInitAnswer(raw, reg)
}

// takeRegistration reads the answer raw to a later initialize (RegisterScoped's, Reinitialize's)
// that sent the hook registration reg: reg is what the CLI knows from now on, unless it did not
// apply it (ErrHooksNotEnforced). regMu must be held.
func (s *Session) takeRegistration(raw []byte, reg hooks.Registration) error {
	var a initAnswer
	_ = json.Unmarshal(raw, &a)
	if len(reg) > 0 && !a.HooksApplied {
		return fmt.Errorf("%w: the CLI did not apply the hooks of the new initialize", ErrHooksNotEnforced)
	}
	s.sent = reg
	return nil
}

// applyInitAnswer reads the CLI's initialize answer into Info and decides on the hook
// registration reg. Whatever the answer holds, it does not panic (FuzzInitAnswer).
func (s *Session) applyInitAnswer(raw []byte, reg hooks.Registration) error {
	var a initAnswer
	_ = json.Unmarshal(raw, &a)
	s.info.Raw = raw
	s.info.CLIVersion = a.ClaudeCodeVersion
	s.info.PID = a.PID
	s.info.HooksApplied = a.HooksApplied
	s.info.HookOnFailureSupported = a.HookOnFailureSupported
	if a.ClaudeCodeVersion == "" || versionLess(a.ClaudeCodeVersion, MinCLIVersion) {
		s.warn(fmt.Sprintf("CLI %q is older than %s, the oldest this SDK supports (or did not report its version): it runs degraded; upgrade it (npm install -g @anthropic-ai/claude-code@%s)", a.ClaudeCodeVersion, MinCLIVersion, MaxTestedCLIVersion))
	}
	if len(reg) > 0 && !a.HooksApplied {
		if err := s.hooksNotApplied(reg, "the CLI did not report the hook registration applied (hooks_applied)"); err != nil {
			return err
		}
	}
	if err := s.eventsTooNew(reg, a.ClaudeCodeVersion); err != nil {
		return err
	}
	if len(reg) > 0 && !a.HookOnFailureSupported {
		s.warn("the CLI does not support onFailure:block; a failed answer may let a tool run")
	}
	s.sent = reg
	if s.sent == nil {
		s.sent = hooks.Registration{}
	}
	return nil
}

// hooksNotApplied decides what a hook registration the CLI did not apply means: an
// ErrHooksNotEnforced when a registered event guards an action (or with WithStrictHooks), unless
// WithAllowUnenforcedHooks; else a warning, and the session goes on without its Go hooks.
func (s *Session) hooksNotApplied(reg hooks.Registration, why string) error {
	var guards []string
	for e := range reg {
		if shared.HookEvent(e).GuardsAction() {
			guards = append(guards, e)
		}
	}
	slices.Sort(guards)
	switch {
	case s.o.strictHooks:
		return fmt.Errorf("%w: %s (strict hooks are on)", ErrHooksNotEnforced, why)
	case len(guards) > 0 && !s.o.allowUnenforced:
		return fmt.Errorf("%w: %s, and hooks of %s guard actions (WithAllowUnenforcedHooks starts without them)", ErrHooksNotEnforced, why, strings.Join(guards, ", "))
	}
	s.warn(why + "; Go hooks will not run")
	return nil
}

// eventsTooNew decides on the events of reg that the CLI version cannot send
// (shared.HookEvent.FirstCLIVersion), as hooksNotApplied does for a registration the CLI did not
// apply: a guard there is an ErrHooksNotEnforced (unless WithAllowUnenforcedHooks), another event
// a warning. A PreSkillShellCommand guard that only WithPolicy registered is the exception: the
// session refuses skills and slash commands instead (skillsOffHooks), with a warning in Info,
// whatever WithAllowUnenforcedHooks says.
func (s *Session) eventsTooNew(reg hooks.Registration, version string) error {
	for _, e := range slices.Sorted(maps.Keys(reg)) {
		since := shared.HookEvent(e).FirstCLIVersion() // "": every supported CLI sends it
		if since == "" || (version != "" && !versionLess(version, since)) {
			continue
		}
		if shared.HookEvent(e) == shared.HookEventPreSkillShellCommand && s.o.skillsOff != nil && !s.o.ownSkillShellHooks {
			// Only WithPolicy guards skills' shell commands: the policy session refuses skills
			// instead (policy.go's skillsOffHooks), and starts.
			v := strconv.Quote(version)
			s.o.skillsOff.Store(&v)
			s.warn(fmt.Sprintf(skillsOffReason, v, MaxTestedCLIVersion))
			continue
		}
		why := fmt.Sprintf("CLI %q predates the %s hook event (CLI %s sends it), so the hook would never run; upgrade the CLI (npm install -g @anthropic-ai/claude-code@%s)", version, e, since, MaxTestedCLIVersion)
		if shared.HookEvent(e).GuardsAction() && !s.o.allowUnenforced {
			return fmt.Errorf("%w: %s", ErrHooksNotEnforced, why)
		}
		s.warn(why)
	}
	return nil
}

func (s *Session) warn(msg string) {
	s.info.Warnings = append(s.info.Warnings, msg)
	s.logger.Warn("v2: " + msg)
}

// versionLess compares dotted versions numerically ("2.1.330" < "2.2.0"); text after the first
// blank ("2.1.330 (Claude Code)") is ignored, and a blank or non-numeric part counts as 0, so
// that whatever the CLI reports, nothing panics.
func versionLess(a, b string) bool {
	if f := strings.Fields(a); len(f) > 0 {
		a = f[0]
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}
