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

// planThenWrite is a fake model that leaves plan mode (ExitPlanMode), then writes w.txt; exits
// collects the ExitPlanMode results the CLI sent back.
func planThenWrite(exits *records[string]) func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		tr, ok := r.LastToolResult()
		switch {
		case !ok:
			return claudetest.ToolReply("toolu_exit", "ExitPlanMode", map[string]any{"plan": "1. write w.txt"})
		case tr.ToolUseID == "toolu_exit":
			exits.add(tr.ContentText())
			return claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"})
		}
		return claudetest.TextReply("done")
	}
}

// Leaving plan mode: the model's ExitPlanMode asks the WithCanUseTool callback (the real CLI
// offers no ExitPlanMode without one), and its answer picks the next mode. A plain allow returns
// to default, where the callback keeps deciding; an allow whose updatedPermissions switch to
// acceptEdits or auto (setMode) would switch the callback off for the Write that follows, so the
// SDK denies that answer (ErrGuardCannotFire's message, naming the fix) and the session stays
// in plan mode. With WithAllowUnenforcedHooks the switch happens and the Write runs unguarded,
// which pins what CLI 2.1.332 does with that setMode. Before the fix the Write ran unguarded
// without WithAllowUnenforcedHooks.
func TestRealCLI_PlanExitKeepsGuards(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		setMode  v2.PermissionMode // in the answer to ExitPlanMode; "": a plain allow
		loosened bool              // WithAllowUnenforcedHooks
		// want: the mode the session reported last, whether the callback was asked for the Write,
		// and whether it was written.
		wantMode    v2.PermissionMode
		wantAsked   bool
		wantWritten bool
	}{
		{"plain allow: back to default", "", false, v2.PermissionModeDefault, true, false},
		{"setMode acceptEdits is denied", v2.PermissionModeAcceptEdits, false, v2.PermissionModePlan, true, false},
		{"setMode auto is denied", v2.PermissionModeAuto, false, v2.PermissionModePlan, true, false},
		{"setMode acceptEdits, loosened", v2.PermissionModeAcceptEdits, true, v2.PermissionModeAcceptEdits, false, true},
		{"setMode auto, loosened", v2.PermissionModeAuto, true, v2.PermissionModeAuto, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var exits records[string]
			var askedWrite atomic.Int32
			env := newRealEnvHandler(t, planThenWrite(&exits))
			opts := []v2.Option{v2.WithPermissionMode(v2.PermissionModePlan),
				v2.WithCanUseTool(func(_ context.Context, r *shared.CanUseTool) (*shared.PermissionResult, error) {
					if r.ToolName != "ExitPlanMode" {
						askedWrite.Add(1)
						return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "GUARD-DENIED"}, nil
					}
					a := &shared.PermissionResult{Behavior: shared.PermissionAllow}
					if tc.setMode != "" {
						a.UpdatedPermissions = []shared.PermissionUpdate{{Type: shared.PermissionSetMode, Mode: string(tc.setMode), Destination: shared.PermissionToSession}}
					}
					return a, nil
				})}
			if tc.loosened {
				opts = append(opts, v2.WithAllowUnenforcedHooks())
			}
			msgs, _ := query(t, env.session(t, opts...), "plan, then write w.txt")
			mode := v2.PermissionModePlan
			for _, m := range msgs {
				if st, ok := m.(*shared.StatusMessage); ok && st.PermissionMode != "" {
					mode = v2.PermissionMode(st.PermissionMode)
				}
			}
			got := struct {
				Mode           v2.PermissionMode
				Asked, Written bool
			}{mode, askedWrite.Load() > 0, env.exists("w.txt")}
			if got.Mode != tc.wantMode || got.Asked != tc.wantAsked || got.Written != tc.wantWritten {
				t.Errorf("after ExitPlanMode: %+v, want mode %s, asked %v, written %v", got, tc.wantMode, tc.wantAsked, tc.wantWritten)
			}
			if e := exits.all(); tc.setMode != "" && !tc.loosened && (len(e) != 1 || !containsAll(e[0], "setMode", string(tc.setMode), "WithAllowUnenforcedHooks")) {
				t.Errorf("the denied ExitPlanMode's result does not say why and what to fix: %q", e)
			}
		})
	}
}

// The permission prompt of an edit suggests setMode acceptEdits (its permission_suggestions);
// a callback that answers with the suggestions would switch itself off for the next edits. The
// SDK denies that answer as it denies SetPermissionMode(PermissionModeAcceptEdits).
func TestRealCLI_PermissionAnswerSwitchingModeIsDenied(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	var suggested atomic.Bool
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": filepath.Join(p, "a.txt"), "content": "a"}),
			claudetest.ToolReply("toolu_w2", "Write", map[string]any{"file_path": filepath.Join(p, "b.txt"), "content": "b"}),
			claudetest.TextReply("done"),
		}
	})
	s := env.session(t, v2.WithCanUseTool(func(_ context.Context, r *shared.CanUseTool) (*shared.PermissionResult, error) {
		asked.Add(1)
		for _, u := range r.PermissionSuggestions {
			suggested.Store(suggested.Load() || u.Type == shared.PermissionSetMode)
		}
		return &shared.PermissionResult{Behavior: shared.PermissionAllow, UpdatedPermissions: r.PermissionSuggestions}, nil
	}))
	res := run(t, s, "write a.txt and b.txt")
	if !suggested.Load() {
		t.Fatal("the CLI suggested no setMode for a Write; the test no longer shows the switch")
	}
	if env.exists("a.txt") || env.exists("b.txt") || asked.Load() != 2 {
		t.Errorf("a.txt written %v, b.txt written %v, callback asked %d time(s); want neither written, asked twice (no switch to acceptEdits)", env.exists("a.txt"), env.exists("b.txt"), asked.Load())
	}
	if d := denials(t, res); len(d) != 2 {
		t.Errorf("result's permission denials: %+v, want both writes", d)
	}
	last, _ := env.api.LastRequest()
	if tr, ok := last.LastToolResult(); !ok || !containsAll(tr.ContentText(), "setMode", "acceptEdits", "WithAllowUnenforcedHooks") {
		t.Errorf("the model was not told why the write was denied: %q", tr.ContentText())
	}
}

// A PermissionRequest hook's allow may carry the same setMode (updatedPermissions); the SDK
// denies it as it denies the callback's.
func TestRealCLI_PermissionHookSwitchingModeIsDenied(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": filepath.Join(p, "a.txt"), "content": "a"}),
			claudetest.ToolReply("toolu_w2", "Write", map[string]any{"file_path": filepath.Join(p, "b.txt"), "content": "b"}),
			claudetest.TextReply("done"),
		}
	})
	s := env.session(t, v2.WithHook(shared.HookEventPermissionRequest, "Write", shared.OnPermissionRequest(
		func(_ context.Context, in *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
			asked.Add(1)
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{
				Behavior: shared.PermissionAllow, UpdatedPermissions: []shared.PermissionUpdate{{Type: shared.PermissionSetMode, Mode: "acceptEdits", Destination: shared.PermissionToSession}}}}}, nil
		})))
	res := run(t, s, "write a.txt and b.txt")
	if env.exists("a.txt") || env.exists("b.txt") || asked.Load() != 2 {
		t.Errorf("a.txt written %v, b.txt written %v, hook asked %d time(s); want neither written, asked twice", env.exists("a.txt"), env.exists("b.txt"), asked.Load())
	}
	var failed []string
	for _, r := range res.Refusals {
		if r.Kind == shared.RefusalGuardFailed && errors.Is(r.Err, v2.ErrGuardCannotFire) && containsAll(r.Reason, "setMode", "acceptEdits", "WithAllowUnenforcedHooks") {
			failed = append(failed, r.ToolUseID)
		}
	}
	if strings.Join(failed, " ") != "toolu_w1 toolu_w2" {
		t.Errorf("the result's refusals do not report both denied answers (ErrGuardCannotFire, naming the fix): %+v", res.Refusals)
	}
}
