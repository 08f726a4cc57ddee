package v2_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// guardCounter is a guard that denies every call it sees and counts them.
type guardCounter struct{ fired atomic.Int32 }

// hook is a PermissionRequest deny hook of tool.
func (g *guardCounter) hook(tool string) v2.Option {
	return v2.WithHook(shared.HookEventPermissionRequest, tool, shared.OnPermissionRequest(
		func(context.Context, *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
			g.fired.Add(1)
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{
				Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "GUARD-DENIED"}}}, nil
		}))
}

// callback is a WithCanUseTool deny callback.
func (g *guardCounter) callback() v2.Option {
	return v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		g.fired.Add(1)
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "GUARD-DENIED"}, nil
	})
}

// subagentCall is a subagent's model for agentModel: it makes one tool call (a Write of
// by-agent.txt, or the Bash command cmd, %s being the project), then ends.
func subagentCall(cmd string) func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		if _, ok := r.LastToolResult(); ok {
			return claudetest.TextReply("subagent did it")
		}
		if cmd == "" {
			return claudetest.ToolReply("toolu_s1", "Write", map[string]any{"file_path": filepath.Join(p, "by-agent.txt"), "content": "x"})
		}
		return claudetest.ToolReply("toolu_s1", "Bash", bash(fmt.Sprintf(cmd, p)))
	}
}

// An agent of WithAgents whose PermissionMode would switch a guard off for its calls is refused
// at CreateSession (ErrGuardCannotFire naming the agent, its mode and the fix), by the rule the
// session's mode is checked with. With WithAllowUnenforcedHooks each case shows why: the real CLI
// runs the subagent's call in the agent's mode, whatever the session's (dontAsk included), and
// the guard never sees it. Before the fix CreateSession accepted each of them.
func TestRealCLI_AgentModeThatSkipsAGuardIsRefused(t *testing.T) {
	t.Parallel()
	const rmVictim = "rm %s/victim.txt"
	cases := []struct {
		name  string
		mode  v2.PermissionMode
		guard func(*guardCounter) v2.Option
		cmd   string      // the subagent's Bash command; "": a Write
		opts  []v2.Option // the session's
		// skipped: with WithAllowUnenforcedHooks the call runs and the guard never sees it (CLI
		// 2.1.332); else the guard still denies it.
		skipped bool
	}{
		{"acceptEdits, PermissionRequest hook of Write", v2.PermissionModeAcceptEdits, func(g *guardCounter) v2.Option { return g.hook("Write") }, "", nil, true},
		{"acceptEdits, PermissionRequest hook of Bash", v2.PermissionModeAcceptEdits, func(g *guardCounter) v2.Option { return g.hook("Bash") }, rmVictim, nil, true},
		{"auto, can_use_tool callback", v2.PermissionModeAuto, (*guardCounter).callback, rmVictim, nil, true},
		{"auto under the session's dontAsk, can_use_tool callback", v2.PermissionModeAuto, (*guardCounter).callback, "", []v2.Option{v2.WithPermissionMode(v2.PermissionModeDontAsk)}, true},
		// The CLI keeps asking under an agent's bypassPermissions the session does not have;
		// refused all the same (the definition asks for no prompts).
		{"bypassPermissions, can_use_tool callback", v2.PermissionModeBypassPermissions, (*guardCounter).callback, "", []v2.Option{asNonRootForBypass}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var g guardCounter
			env := newRealEnvHandler(t, agentModel(subagentCall(tc.cmd)))
			writeFile(t, env.path("victim.txt"), "v")
			opts := append([]v2.Option{helperAgent(v2.AgentDefinition{PermissionMode: tc.mode}), tc.guard(&g)}, tc.opts...)
			_, err := env.create(t, opts...)
			if !errors.Is(err, v2.ErrGuardCannotFire) {
				t.Fatalf("CreateSession = %v, want ErrGuardCannotFire", err)
			}
			for _, want := range []string{"v2: WithAgents/", `agent "helper"`, "PermissionMode is " + string(tc.mode), "drop the agent's PermissionMode", "WithAllowUnenforcedHooks"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q: %v", want, err)
				}
			}
			if n := len(env.api.Requests()); n != 0 {
				t.Errorf("the CLI reached the model %d time(s) before the refusal", n)
			}
			run(t, env.session(t, append(opts, v2.WithAllowUnenforcedHooks())...), "get help")
			if len(subRequests(env)) < 2 {
				t.Fatalf("the subagent made no tool call (%d requests)", len(subRequests(env)))
			}
			ran := env.exists("by-agent.txt") || !env.exists("victim.txt")
			if got := [2]bool{ran, g.fired.Load() == 0}; got != [2]bool{tc.skipped, tc.skipped} {
				t.Errorf("with WithAllowUnenforcedHooks: the call ran %v, the guard never ran %v; want %v, %v", ran, g.fired.Load() == 0, tc.skipped, tc.skipped)
			}
		})
	}
	// Modes under which the guard keeps deciding the subagent's calls, or the CLI denies them
	// without asking (dontAsk), are accepted.
	for _, mode := range []v2.PermissionMode{"", v2.PermissionModeDefault, v2.PermissionModePlan, v2.PermissionModeDontAsk} {
		t.Run(fmt.Sprintf("accepted %q", mode), func(t *testing.T) {
			t.Parallel()
			var g guardCounter
			env := newRealEnvHandler(t, agentModel(subagentCall("")))
			run(t, env.session(t, helperAgent(v2.AgentDefinition{PermissionMode: mode}), g.callback()), "get help")
			if env.exists("by-agent.txt") {
				t.Errorf("mode %q: the subagent's write happened (guard ran %d time(s))", mode, g.fired.Load())
			}
		})
	}
}

// Under acceptEdits the real CLI runs the shell's file commands (touch, rm, a redirection) without
// asking, as it does the edit tools: a PermissionRequest guard of Bash never sees them, so it is
// refused as an edit tool's guard is. Before the fix CreateSession accepted it, and the rm ran.
func TestRealCLI_AcceptEditsSkipsShellGuard(t *testing.T) {
	t.Parallel()
	var g guardCounter
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_b", "Bash", bash("rm "+filepath.Join(p, "victim.txt"))), claudetest.TextReply("done")}
	})
	writeFile(t, env.path("victim.txt"), "v")
	opts := []v2.Option{g.hook("Bash"), v2.WithPermissionMode(v2.PermissionModeAcceptEdits)}
	_, err := env.create(t, opts...)
	if !errors.Is(err, v2.ErrGuardCannotFire) || !strings.Contains(err.Error(), "v2: WithPermissionMode/WithHooks/WithHook: ") || !strings.Contains(err.Error(), "Bash") {
		t.Fatalf("CreateSession = %v, want ErrGuardCannotFire naming WithPermissionMode and Bash", err)
	}
	run(t, env.session(t, append(opts, v2.WithAllowUnenforcedHooks())...), "remove victim.txt")
	if _, err := os.Stat(env.path("victim.txt")); err == nil || g.fired.Load() != 0 {
		t.Errorf("with WithAllowUnenforcedHooks: victim.txt removed %v, guard ran %d time(s); want removed, never ran", err != nil, g.fired.Load())
	}
}

// An agent of the user's settings (~/.claude/agents, loaded by default) whose permissionMode
// would skip a guard is refused as one of WithAgents is: the real CLI runs it as a subagent in
// that mode. Leaving the user's settings out, the CLI does not load it, and the session starts.
// Before the fix CreateSession accepted it, and the subagent's write ran unguarded.
func TestRealCLI_UserAgentModeThatSkipsAGuardIsRefused(t *testing.T) {
	t.Parallel()
	var g guardCounter
	env := newRealEnvHandler(t, agentModel(subagentCall("")))
	file := filepath.Join(env.home, ".claude", "agents", "helper.md")
	writeFile(t, file, "---\nname: helper\ndescription: Helps\npermissionMode: auto\n---\n"+subagentPrompt+"\n")
	_, err := env.create(t, g.callback())
	if !errors.Is(err, v2.ErrGuardCannotFire) {
		t.Fatalf("CreateSession = %v, want ErrGuardCannotFire", err)
	}
	for _, want := range []string{"v2: WithSettingSources/WithCanUseTool: ", `agent "helper" of the user's settings (` + file + ")", "permissionMode is auto", "WithAllowUnenforcedHooks"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	env.session(t, g.callback(), v2.WithSettingSources()).Close() // the CLI does not load it
	s := env.session(t, g.callback(), v2.WithAllowUnenforcedHooks())
	if !strings.Contains(strings.Join(s.Info().Warnings, "\n"), `agent "helper" of the user's settings`) {
		t.Errorf("no warning of the accepted agent: %q", s.Info().Warnings)
	}
	run(t, s, "get help")
	if !env.exists("by-agent.txt") || g.fired.Load() != 0 {
		t.Errorf("with WithAllowUnenforcedHooks: written %v, guard ran %d time(s); want written, never ran", env.exists("by-agent.txt"), g.fired.Load())
	}
}
