package v2_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// refusalKinds returns the kinds of r's refusals, in order.
func refusalKinds(r *shared.ResultMessage) []shared.RefusalKind {
	if r == nil {
		return nil
	}
	var k []shared.RefusalKind
	for _, x := range r.Refusals {
		k = append(k, x.Kind)
	}
	return k
}

// Nothing fails quietly: every way a turn can be refused on the real CLI comes back from Run as an
// error errors.Is matches, with the refusal on the typed result, and the refused effect did not
// happen. Each case would pass silently (err == nil, subtype "success") without refusals.go.
func TestRealCLI_RefusedTurnsAreErrors(t *testing.T) {
	t.Parallel()
	failing := func(context.Context, *shared.UserPromptSubmitHookInput) (shared.HookOutput, error) {
		return nil, errors.New("policy store unreachable")
	}
	cases := []struct {
		name    string
		replies func(project string) []claudetest.Reply
		opts    []v2.Option
		// wantIs are the errors Run's error matches; wantKinds the result's refusals.
		wantIs    []error
		wantKinds []shared.RefusalKind
		wantText  string // in the error's message
		untouched string // a file the turn must not have created
	}{
		{
			name:    "UserPromptSubmit blocks the prompt",
			replies: func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("never")} },
			opts: []v2.Option{v2.WithHooks(shared.Hooks{shared.HookEventUserPromptSubmit: {{Handler: shared.OnUserPromptSubmit(
				func(context.Context, *shared.UserPromptSubmitHookInput) (shared.HookOutput, error) {
					return shared.Block("no deploys on friday"), nil
				})}}})},
			wantIs:    []error{v2.ErrPromptBlocked},
			wantKinds: []shared.RefusalKind{shared.RefusalPromptBlocked},
			wantText:  "no deploys on friday",
		},
		{
			name:    "UserPromptSubmit fails, the prompt is blocked (fail-closed)",
			replies: func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("never")} },
			opts: []v2.Option{v2.WithHooks(shared.Hooks{shared.HookEventUserPromptSubmit: {{Name: "policy", Handler: shared.OnUserPromptSubmit(failing)}}}),
				v2.WithLogger(slog.New(slog.DiscardHandler))},
			wantIs:    []error{v2.ErrGuardFailed, v2.ErrPromptBlocked},
			wantKinds: []shared.RefusalKind{shared.RefusalGuardFailed, shared.RefusalPromptBlocked},
			wantText:  "policy store unreachable",
		},
		{
			name: "PreToolUse denies the only tool call",
			replies: func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/denied.txt")), claudetest.TextReply("could not")}
			},
			opts: []v2.Option{v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(
				func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
					return shared.Deny("not here"), nil
				})}}})},
			wantIs:    []error{v2.ErrPermissionDenied},
			wantKinds: []shared.RefusalKind{shared.RefusalPermissionDenied},
			wantText:  "Bash (toolu_01)",
			untouched: "denied.txt",
		},
		{
			name: "the default permission mode refuses a write (the README quickstart)",
			replies: func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": p + "/hello.txt", "content": "hi"}),
					claudetest.TextReply("I could not write it")}
			},
			wantIs:    []error{v2.ErrPermissionDenied},
			wantKinds: []shared.RefusalKind{shared.RefusalPermissionDenied},
			wantText:  "Write (toolu_01)",
			untouched: "hello.txt",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, c.replies)
			s := env.session(t, c.opts...)
			res, err := s.Run(testCtx(t), "go")
			var re *v2.ResultError
			if !errors.As(err, &re) {
				t.Fatalf("Run: err = %v, want a *v2.ResultError", err)
			}
			for _, want := range c.wantIs {
				if !errors.Is(err, want) {
					t.Errorf("errors.Is(%v, %v) = false", err, want)
				}
			}
			if !strings.Contains(err.Error(), c.wantText) {
				t.Errorf("error %q does not name %q", err, c.wantText)
			}
			if diff := cmp.Diff(c.wantKinds, refusalKinds(res)); diff != "" {
				t.Errorf("result's refusals (-want +got):\n%s", diff)
			}
			if c.untouched != "" && env.exists(c.untouched) {
				t.Errorf("%s was created: the refused action ran", c.untouched)
			}
		})
	}
}

// A guard that fails on one tool call: the SDK denies it (fail-closed), and Run reports the
// guard's *shared.HookError (here a panic), even though the CLI's turn ended "success".
func TestRealCLI_GuardFailedClosedIsAnError(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/guarded.txt")), claudetest.TextReply("done")}
	})
	s := env.session(t, v2.WithLogger(slog.New(slog.DiscardHandler)), v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Name: "guard", Matcher: "Bash",
		Handler: shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			panic("bug in the guard")
		})}}}))
	res, err := s.Run(testCtx(t), "touch it")
	var he *shared.HookError
	if !errors.Is(err, v2.ErrGuardFailed) || !errors.As(err, &he) || !errors.Is(err, shared.ErrHookPanic) {
		t.Fatalf("Run: err = %v, want ErrGuardFailed with the hook's panic", err)
	}
	if he.Name != "guard" || he.Event != shared.HookEventPreToolUse {
		t.Errorf("HookError = %+v, want the PreToolUse hook \"guard\"", he)
	}
	if env.exists("guarded.txt") {
		t.Error("the tool ran although its guard failed")
	}
	if got := refusalKinds(res); !cmp.Equal(got[:1], []shared.RefusalKind{shared.RefusalGuardFailed}) {
		t.Errorf("refusals = %v, want guard_failed first", got)
	}
	if res.Refusals[0].ToolName != "Bash" || res.Refusals[0].ToolUseID != "toolu_01" {
		t.Errorf("refusal = %+v, want Bash toolu_01", res.Refusals[0])
	}
}

// A turn where one tool call is denied and another runs was not refused: Run returns no error, and
// the denial is on the typed result (Denials) for who wants it.
func TestRealCLI_PartlyDeniedTurnIsNoError(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolsReply(
			claudetest.ToolUse{ID: "toolu_01", Name: "Bash", Input: bash("touch " + p + "/no.txt")},
			claudetest.ToolUse{ID: "toolu_02", Name: "Bash", Input: bash("touch " + p + "/yes.txt")},
		), claudetest.TextReply("done")}
	})
	s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Bash", Handler: shared.OnPreToolUse(
		func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			if strings.Contains(in.ToolInput.String("command"), "no.txt") {
				return shared.Deny("not this one"), nil
			}
			return nil, nil
		})}}}))
	res, err := s.Run(testCtx(t), "touch both")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(res.Refusals) != 0 {
		t.Errorf("refusals = %+v, want none", res.Refusals)
	}
	want := []shared.PermissionDenial{{ToolName: "Bash", ToolUseID: "toolu_01"}}
	if diff := cmp.Diff(want, res.Denials(), cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".ToolInput" }, cmp.Ignore())); diff != "" {
		t.Errorf("Denials (-want +got):\n%s", diff)
	}
	if !env.exists("yes.txt") || env.exists("no.txt") {
		t.Errorf("yes.txt exists %v, no.txt exists %v; want true, false", env.exists("yes.txt"), env.exists("no.txt"))
	}
}
