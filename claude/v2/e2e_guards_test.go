package v2_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A guard that cannot fire is refused (issue 35 item 5): a PermissionRequest deny hook or a
// WithCanUseTool callback under a permission mode or an allow rule that skips the permission
// prompt. Each case shows first that CreateSession refuses it (ErrGuardCannotFire, naming the
// options), then, with WithAllowUnenforcedHooks, why: the guard never runs and the write happens.
// Before the fix CreateSession accepted each of them.
func TestRealCLI_GuardThatCannotFireIsRefused(t *testing.T) {
	t.Parallel()
	var fired atomic.Int32
	denyHook := v2.WithHook(shared.HookEventPermissionRequest, "Write", shared.OnPermissionRequest(
		func(context.Context, *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
			fired.Add(1)
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{
				Decision: &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no writes"}}}, nil
		}))
	denyCallback := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		fired.Add(1)
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "no writes"}, nil
	})
	cases := []struct {
		name    string
		opts    []v2.Option
		options []string // the options the message names
	}{
		{"PermissionRequest hook, bypassPermissions", []v2.Option{denyHook, v2.WithPermissionMode(v2.PermissionModeBypassPermissions), asNonRootForBypass},
			[]string{"WithAllowUnenforcedHooks", "WithHook", "WithHooks", "WithPermissionMode"}},
		{"can_use_tool callback, bypassPermissions", []v2.Option{denyCallback, v2.WithPermissionMode(v2.PermissionModeBypassPermissions), asNonRootForBypass},
			[]string{"WithAllowUnenforcedHooks", "WithCanUseTool", "WithPermissionMode"}},
		{"PermissionRequest hook, acceptEdits", []v2.Option{denyHook, v2.WithPermissionMode(v2.PermissionModeAcceptEdits)},
			[]string{"WithAllowUnenforcedHooks", "WithHook", "WithHooks", "WithPermissionMode"}},
		{"can_use_tool callback, acceptEdits", []v2.Option{denyCallback, v2.WithPermissionMode(v2.PermissionModeAcceptEdits)},
			[]string{"WithAllowUnenforcedHooks", "WithCanUseTool", "WithPermissionMode"}},
		{"PermissionRequest hook, auto", []v2.Option{denyHook, v2.WithPermissionMode(v2.PermissionModeAuto)},
			[]string{"WithAllowUnenforcedHooks", "WithHook", "WithHooks", "WithPermissionMode"}},
		{"can_use_tool callback, auto", []v2.Option{denyCallback, v2.WithPermissionMode(v2.PermissionModeAuto)},
			[]string{"WithAllowUnenforcedHooks", "WithCanUseTool", "WithPermissionMode"}},
		{"PermissionRequest hook, allow rule", []v2.Option{denyHook, v2.WithAllowedTools("Write")},
			[]string{"WithAllowUnenforcedHooks", "WithAllowedTools", "WithHook", "WithHooks"}},
		{"PermissionRequest hook, inline settings' defaultMode", []v2.Option{denyHook, v2.WithSettings(`{"permissions":{"defaultMode":"acceptEdits"}}`)},
			[]string{"WithAllowUnenforcedHooks", "WithHook", "WithHooks", "WithSettings"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { // not parallel: fired counts for one case at a time
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
					claudetest.TextReply("done"),
				}
			})
			_, err := env.create(t, tc.opts...)
			if !errors.Is(err, v2.ErrGuardCannotFire) || !strings.HasPrefix(err.Error(), "v2: ") {
				t.Fatalf("CreateSession = %v, want ErrGuardCannotFire", err)
			}
			if got := optionNames(err.Error()); strings.Join(got, " ") != strings.Join(tc.options, " ") {
				t.Errorf("the message names %q, want %q: %v", got, tc.options, err)
			}
			before := fired.Load()
			s := env.session(t, append(tc.opts, v2.WithAllowUnenforcedHooks())...)
			if !strings.Contains(strings.Join(s.Info().Warnings, "\n"), "WithAllowUnenforcedHooks") {
				t.Errorf("no warning of the accepted guard: %q", s.Info().Warnings)
			}
			run(t, s, "write w.txt")
			if !env.exists("w.txt") || fired.Load() != before {
				t.Errorf("with WithAllowUnenforcedHooks: written %v, guard ran %d time(s); want written, never ran", env.exists("w.txt"), fired.Load()-before)
			}
		})
	}
	// SetPermissionMode refuses a mode that would switch the guard off, as CreateSession does;
	// with WithAllowUnenforcedHooks the mode changes and the write goes ahead unguarded.
	for _, mode := range []v2.PermissionMode{v2.PermissionModeAuto, v2.PermissionModeAcceptEdits} {
		t.Run("SetPermissionMode "+string(mode), func(t *testing.T) {
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
					claudetest.TextReply("done"),
				}
			})
			s := env.session(t, denyCallback)
			if err := s.SetPermissionMode(testCtx(t), mode); !errors.Is(err, v2.ErrGuardCannotFire) || !strings.Contains(err.Error(), "v2: SetPermissionMode/WithCanUseTool: ") {
				t.Fatalf("SetPermissionMode(%s) = %v, want ErrGuardCannotFire naming SetPermissionMode", mode, err)
			}
			before := fired.Load()
			run(t, s, "write w.txt")
			if env.exists("w.txt") || fired.Load() == before {
				t.Errorf("after the refused SetPermissionMode: written %v, guard ran %v; want denied by the guard", env.exists("w.txt"), fired.Load() != before)
			}
		})
	}
	t.Run("SetPermissionMode auto, accepted", func(t *testing.T) {
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
				claudetest.TextReply("done"),
			}
		})
		s := env.session(t, denyCallback, v2.WithAllowUnenforcedHooks())
		if err := s.SetPermissionMode(testCtx(t), v2.PermissionModeAuto); err != nil {
			t.Fatalf("SetPermissionMode(auto) with WithAllowUnenforcedHooks: %v", err)
		}
		before := fired.Load()
		run(t, s, "write w.txt")
		if !env.exists("w.txt") || fired.Load() != before {
			t.Errorf("under auto: written %v, guard ran %d time(s); want written, never ran", env.exists("w.txt"), fired.Load()-before)
		}
	})
	t.Run("allow rule for another tool, the default mode", func(t *testing.T) {
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
				claudetest.TextReply("done"),
			}
		})
		before := fired.Load()
		s := env.session(t, denyHook, v2.WithAllowedTools("Read"))
		run(t, s, "write w.txt")
		if env.exists("w.txt") || fired.Load() == before {
			t.Errorf("a guard that can fire: written %v, ran %v; want denied by it", env.exists("w.txt"), fired.Load() != before)
		}
	})
}

// A deny hook whose matcher names no tool of the CLI ("Wirte") is refused once the CLI reported
// its version, which the message names (the running CLI's, not a version written in the SDK),
// with the name it was likely meant to be. With WithAllowUnenforcedHooks the session starts, and
// the write the hook meant to stop happens.
func TestRealCLI_DenyHookNamingNoToolIsRefused(t *testing.T) {
	t.Parallel()
	var fired atomic.Int32
	deny := v2.WithOptions(v2.WithAllowedTools("Write"), v2.WithHook(shared.HookEventPreToolUse, "Wirte", shared.OnPreToolUse(
		func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			fired.Add(1)
			return shared.Deny("no writes"), nil
		})))
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
			claudetest.TextReply("done"),
		}
	})
	_, err := env.create(t, deny)
	if !errors.Is(err, v2.ErrGuardCannotFire) || !errors.Is(err, shared.ErrUnknownTool) {
		t.Fatalf("CreateSession = %v, want ErrGuardCannotFire and shared.ErrUnknownTool", err)
	}
	running := cliVersionOf(t, env)
	for _, want := range []string{"v2: WithHooks/WithHook: ", "CLI " + running + " has no tool", `Wirte (did you mean "Write"?)`, "WithAllowUnenforcedHooks"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	s := env.session(t, deny, v2.WithAllowUnenforcedHooks())
	run(t, s, "write w.txt")
	if !env.exists("w.txt") || fired.Load() != 0 {
		t.Errorf("with WithAllowUnenforcedHooks: written %v, hook ran %d time(s); want written, never ran", env.exists("w.txt"), fired.Load())
	}
}

// asNonRootForBypass: the CLI refuses bypassPermissions to root unless IS_SANDBOX=1 (the tests
// may run as root).
var asNonRootForBypass = v2.WithEnv("IS_SANDBOX=1")

// cliVersionOf is the version the env's CLI reports at start.
func cliVersionOf(t *testing.T, env *realEnv) string {
	t.Helper()
	s := env.session(t)
	defer s.Close()
	if v := s.Info().CLIVersion; v != "" {
		return v
	}
	t.Fatal("the CLI reported no version")
	return ""
}
