package v2_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// scopedHook is g's PermissionRequest deny hook of tool, as hooks for RegisterScoped.
func (g *guardCounter) scopedHook(tool string) shared.Hooks {
	return shared.Hooks{shared.HookEventPermissionRequest: {{Matcher: tool, Handler: shared.OnPermissionRequest(
		func(context.Context, *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
			g.fired.Add(1)
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{
				Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "GUARD-DENIED"}}}, nil
		})}}}
}

// writeW is a fake model that writes w.txt in the project, then ends.
func writeW(p string) []claudetest.Reply {
	return []claudetest.Reply{claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}), claudetest.TextReply("done")}
}

// A PermissionRequest hook added to a running session (RegisterScoped) that the session's mode
// would skip is refused (ErrGuardCannotFire naming RegisterScoped, the scope, the mode and the
// fix), by the rule CreateSession checks the options' hooks with: the session's mode from its
// options or a SetPermissionMode, or an agent's mode. With WithAllowUnenforcedHooks each case
// shows why: the registration is taken, and the Write it should guard runs without the hook
// being asked. Before the fix RegisterScoped took each of them without a word.
func TestRealCLI_ScopedGuardThatCannotFireIsRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		agent   bool        // the Write is a subagent's, of helper in acceptEdits
		opts    []v2.Option // the session's
		setMode v2.PermissionMode
		want    []string // in the error
	}{
		{"the session's WithPermissionMode", false, []v2.Option{v2.WithPermissionMode(v2.PermissionModeAcceptEdits)}, "",
			[]string{"v2: WithPermissionMode/RegisterScoped: ", "under permission mode acceptEdits"}},
		{"a SetPermissionMode before", false, nil, v2.PermissionModeAcceptEdits,
			[]string{"v2: SetPermissionMode/RegisterScoped: ", "under permission mode acceptEdits"}},
		{"an agent's PermissionMode", true, []v2.Option{helperAgent(v2.AgentDefinition{PermissionMode: v2.PermissionModeAcceptEdits})}, "",
			[]string{"v2: WithAgents/RegisterScoped: ", `agent "helper"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var g guardCounter
			var env *realEnv
			if tc.agent {
				env = newRealEnvHandler(t, agentModel(subagentCall("")))
			} else {
				env = newRealEnv(t, writeW)
			}
			start := func(opts ...v2.Option) (*v2.Session, error) {
				s := env.session(t, opts...)
				if tc.setMode != "" {
					if err := s.SetPermissionMode(testCtx(t), tc.setMode); err != nil {
						t.Fatalf("SetPermissionMode(%s) with no guard yet: %v", tc.setMode, err)
					}
				}
				return s, s.RegisterScoped(testCtx(t), "late", g.scopedHook("Write"))
			}
			s, err := start(tc.opts...)
			if !errors.Is(err, v2.ErrGuardCannotFire) {
				t.Fatalf("RegisterScoped = %v, want ErrGuardCannotFire", err)
			}
			for _, want := range append(tc.want, `of scope "late"`, "WithAllowUnenforcedHooks") {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q: %v", want, err)
				}
			}
			if len(s.Scopes()) != 0 {
				t.Errorf("the refused scope is registered: %q", s.Scopes())
			}
			s.Close()
			s, err = start(append(tc.opts, v2.WithAllowUnenforcedHooks())...)
			if err != nil {
				t.Fatalf("RegisterScoped with WithAllowUnenforcedHooks: %v", err)
			}
			run(t, s, "write w.txt")
			written := env.exists("w.txt") || env.exists("by-agent.txt")
			if !written || g.fired.Load() != 0 {
				t.Errorf("with WithAllowUnenforcedHooks: written %v, the scoped guard asked %d time(s); want written, never asked", written, g.fired.Load())
			}
		})
	}
	t.Run("accepted in default mode", func(t *testing.T) {
		t.Parallel()
		var g guardCounter
		env := newRealEnv(t, writeW)
		s := env.session(t)
		if err := s.RegisterScoped(testCtx(t), "late", g.scopedHook("Write")); err != nil {
			t.Fatalf("RegisterScoped: %v", err)
		}
		run(t, s, "write w.txt")
		if env.exists("w.txt") || g.fired.Load() != 1 {
			t.Errorf("written %v, the scoped guard asked %d time(s); want denied by it", env.exists("w.txt"), g.fired.Load())
		}
	})
}

// A mode switch after a PermissionRequest hook was added (RegisterScoped) is checked against it
// as against the options' hooks: SetPermissionMode(acceptEdits) is refused, and the scoped guard
// keeps deciding the Write. Before the fix the switch was taken and the Write ran unasked.
func TestRealCLI_ModeSwitchSkippingAScopedGuardIsRefused(t *testing.T) {
	t.Parallel()
	var g guardCounter
	env := newRealEnv(t, writeW)
	s := env.session(t)
	if err := s.RegisterScoped(testCtx(t), "late", g.scopedHook("Write")); err != nil {
		t.Fatalf("RegisterScoped: %v", err)
	}
	err := s.SetPermissionMode(testCtx(t), v2.PermissionModeAcceptEdits)
	if !errors.Is(err, v2.ErrGuardCannotFire) || !strings.Contains(err.Error(), `of scope "late"`) {
		t.Fatalf("SetPermissionMode(acceptEdits) = %v, want ErrGuardCannotFire naming the scope", err)
	}
	run(t, s, "write w.txt")
	if env.exists("w.txt") || g.fired.Load() != 1 {
		t.Errorf("written %v, the scoped guard asked %d time(s); want denied by it", env.exists("w.txt"), g.fired.Load())
	}
	if !s.UnregisterScoped("late") {
		t.Fatal("UnregisterScoped: not registered")
	}
	if err := s.SetPermissionMode(testCtx(t), v2.PermissionModeAcceptEdits); err != nil {
		t.Errorf("SetPermissionMode(acceptEdits) once the scope is gone: %v", err)
	}
}

// fetchThenWrite is a fake model: a prompt holding FETCH-IT fetches a loopback URL nothing
// listens on (WebFetch), one holding WRITE-IT writes w.txt in the project; a tool result ends the
// turn.
func fetchThenWrite() func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		answered := func(id string) bool {
			return slices.ContainsFunc(r.ToolResults(), func(b claudetest.Block) bool { return b.ToolUseID == id })
		}
		switch {
		case r.Contains("WRITE-IT") && !answered("toolu_w"):
			return claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"})
		case r.Contains("FETCH-IT") && !r.Contains("WRITE-IT") && !answered("toolu_f"):
			return claudetest.ToolReply("toolu_f", "WebFetch", map[string]any{"url": "http://127.0.0.1:9/x", "prompt": "summarise"})
		}
		return claudetest.TextReply("done")
	}
}

// The mode a running session is in is the one the CLI reports, whoever switched it: here a
// PermissionRequest hook of WebFetch answers its prompt with setMode acceptEdits (accepted: that
// mode does not skip a guard of WebFetch), the CLI switches, and a PermissionRequest hook of Write added
// afterwards (RegisterScoped) is refused, as it would never run. With WithAllowUnenforcedHooks
// it is taken, and the next Write runs without it being asked. Before the fix RegisterScoped took
// it, checking nothing.
func TestRealCLI_ScopedGuardUnderASwitchedModeIsRefused(t *testing.T) {
	t.Parallel()
	for _, loosened := range []bool{false, true} {
		var g guardCounter
		var reads atomic.Int32
		env := newRealEnvHandler(t, fetchThenWrite())
		opts := []v2.Option{v2.WithHook(shared.HookEventPermissionRequest, "WebFetch", shared.OnPermissionRequest(
			func(context.Context, *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
				reads.Add(1)
				return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionAllow,
					UpdatedPermissions: []shared.PermissionUpdate{{Type: shared.PermissionSetMode, Mode: string(v2.PermissionModeAcceptEdits), Destination: shared.PermissionToSession}}}}}, nil
			}))}
		if loosened {
			opts = append(opts, v2.WithAllowUnenforcedHooks())
		}
		s := env.session(t, opts...)
		run(t, s, "FETCH-IT")
		if reads.Load() != 1 {
			t.Fatalf("the WebFetch hook was asked %d time(s), want once; the test shows no switch", reads.Load())
		}
		err := s.RegisterScoped(testCtx(t), "late", g.scopedHook("Write"))
		if !loosened {
			if !errors.Is(err, v2.ErrGuardCannotFire) || !containsAll(err.Error(), "v2: SetPermissionMode/RegisterScoped: ", `of scope "late"`, "under permission mode acceptEdits") {
				t.Fatalf("RegisterScoped after the switch = %v, want ErrGuardCannotFire naming the scope and acceptEdits", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("RegisterScoped with WithAllowUnenforcedHooks: %v", err)
		}
		run(t, s, "WRITE-IT")
		if !env.exists("w.txt") || g.fired.Load() != 0 {
			t.Errorf("with WithAllowUnenforcedHooks: written %v, the scoped guard asked %d time(s); want written, never asked", env.exists("w.txt"), g.fired.Load())
		}
	}
}
