package v2_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// userPrompts returns the prompts the SDK wrote, in order.
func (r *replayRun) userPrompts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, m := range r.stdin(t) {
		if m["type"] == "user" {
			msg, _ := m["message"].(map[string]any)
			c, _ := msg["content"].(string)
			out = append(out, c)
		}
	}
	return out
}

// A Query that finds another Receive iterating yields ErrBusy and sends nothing (issue 12 item 9):
// the prompt is not written, so a retry sends it once. The fake expects "third" right after
// "first": a "second" on the wire fails the conversation.
func TestReplay_BusyQuerySendsNothing(t *testing.T) {
	t.Parallel()
	r := newReplay(t, replayInit+expectUser("first")+sendResult("one")+expectUser("third")+sendResult("three")+"eof\n")
	s := r.session(t)
	ctx := testCtx(t)
	if err := s.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	next, stop := iter.Pull2(s.Receive(ctx))
	if m, err, ok := next(); !ok || err != nil {
		t.Fatalf("Receive: %v %v %v", m, err, ok)
	} else if res, _ := m.(*shared.ResultMessage); res == nil || res.Result != "one" {
		t.Fatalf("Receive yielded %#v, want the result of the first prompt", m)
	}
	// The Receive above is suspended inside its loop: it still iterates.
	var got []error
	for m, err := range s.Query(ctx, "second") {
		if m != nil {
			t.Errorf("busy Query yielded %T", m)
		}
		got = append(got, err)
	}
	if diff := cmp.Diff([]error{v2.ErrBusy}, got, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("busy Query (-want +got):\n%s", diff)
	}
	stop()
	if res := run(t, s, "third"); res.Result != "three" {
		t.Fatalf("result %+v", res)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"first", "third"}, r.userPrompts(t)); diff != "" {
		t.Errorf("prompts sent (-want +got):\n%s", diff)
	}
}

// Hooks the CLI does not put in force fail the session closed (issue 12 item 16): a refused
// initialize, or one answered without hooks_applied, is ErrHooksNotEnforced from CreateSession when
// a registered hook guards an action; WithAllowUnenforcedHooks starts without them (with a
// warning), hooks that guard nothing only warn, and WithStrictHooks fails for those too.
func TestReplay_UnappliedHooksFailClosed(t *testing.T) {
	t.Parallel()
	const (
		refused = `send {"type":"control_response","response":{"subtype":"error","request_id":"$first","error":"Unsupported control request subtype: initialize"}}` + "\n"
		silent  = `send {"type":"control_response","response":{"subtype":"success","request_id":"$first","response":{"claude_code_version":"2.1.330"}}}` + "\n"
		applied = `send {"type":"control_response","response":{"subtype":"success","request_id":"$first","response":{"claude_code_version":"2.1.330","hooks_applied":true,"hook_on_failure_supported":true}}}` + "\n"
	)
	nop := shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })
	guard := v2.WithHook(shared.HookEventPreToolUse, "Bash", nop)
	observer := v2.WithHook(shared.HookEventPostToolUse, "", nop)
	cases := []struct {
		name    string
		answer  string
		opts    []v2.Option
		fails   bool
		warning string
	}{
		{"refused, guarding hook", refused, []v2.Option{guard}, true, ""},
		{"not applied, guarding hook", silent, []v2.Option{guard}, true, ""},
		{"refused, guarding hook among others", refused, []v2.Option{observer, v2.WithHook(shared.HookEventPermissionRequest, "", nop)}, true, ""},
		{"refused, allowed unenforced", refused, []v2.Option{guard, v2.WithAllowUnenforcedHooks()}, false, "refused the hook registration"},
		{"not applied, allowed unenforced", silent, []v2.Option{guard, v2.WithAllowUnenforcedHooks()}, false, "hooks_applied"},
		{"refused, observer only", refused, []v2.Option{observer}, false, "refused the hook registration"},
		{"not applied, observer only", silent, []v2.Option{observer}, false, "hooks_applied"},
		{"refused, observer only, strict", refused, []v2.Option{observer, v2.WithStrictHooks()}, true, ""},
		{"applied", applied, []v2.Option{guard, v2.WithStrictHooks()}, false, ""},
		{"no hooks, not applied", silent, nil, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, `expect {"type":"control_request","request_id":"$capture:first","request":{"subtype":"initialize"}}`+"\n"+tc.answer+"eof\n")
			ctx := testCtx(t)
			s, err := v2.CreateSession(ctx, append(append([]v2.Option{}, r.opts...), tc.opts...)...)
			if tc.fails {
				if !errors.Is(err, v2.ErrHooksNotEnforced) {
					t.Fatalf("CreateSession = %v, want ErrHooksNotEnforced", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
			defer s.Close()
			warned := strings.Join(s.Info().Warnings, "\n")
			if tc.warning == "" && strings.Contains(warned, "Go hooks will not run") || !strings.Contains(warned, tc.warning) {
				t.Errorf("warnings %q, want one containing %q", warned, tc.warning)
			}
		})
	}
	if _, err := v2.ArgsFor(v2.WithStrictHooks(), v2.WithAllowUnenforcedHooks()); err == nil {
		t.Error("WithStrictHooks and WithAllowUnenforcedHooks together were accepted")
	}
}

// Interrupt from inside a hook, with the hook's ctx, returns what became of the interrupt (issue 12
// item 4): the CLI cancels the hook's request (ending its ctx) before it answers the interrupt, as
// CLI 2.1.330 does, and Interrupt still reports the CLI's answer, not context.Canceled.
// TestRealCLI_ControlRequests has the same with the real CLI.
func TestReplay_InterruptFromAHook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer string
		ok     bool
	}{
		{"delivered", `send {"type":"control_response","response":{"subtype":"success","request_id":"$intr"}}`, true},
		{"refused", `send {"type":"control_response","response":{"subtype":"error","request_id":"$intr","error":"no turn"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+expectUser("go")+hookCallback("h1", shared.HookEventPreToolUse, bashCall("ls", ""))+
				`expect {"type":"control_request","request_id":"$capture:intr","request":{"subtype":"interrupt"}}`+"\n"+
				`send {"type":"control_cancel_request","request_id":"h1"}`+"\n"+
				sendResult("interrupted")+expectUser("next")+tc.answer+"\n"+sendResult("two")+"eof\n")
			var sp atomic.Pointer[v2.Session]
			errs := make(chan error, 1)
			s := r.session(t, v2.WithHook(shared.HookEventPreToolUse, "Bash",
				shared.OnPreToolUse(func(ctx context.Context, _ *shared.PreToolUseHookInput) (shared.HookOutput, error) {
					errs <- sp.Load().Interrupt(ctx)
					<-ctx.Done()
					return shared.Allow(), nil
				})))
			sp.Store(s)
			// The CLI answers the interrupt only after the hook's cancel and the turn's end (the
			// fake waits for the next prompt): the hook's ctx is over long before.
			run(t, s, "go")
			if res := run(t, s, "next"); res.Result != "two" {
				t.Fatalf("result %+v", res)
			}
			var err error
			select {
			case err = <-errs:
			case <-testCtx(t).Done():
				t.Fatal("the hook's Interrupt never returned")
			}
			var ce *shared.ControlError
			if tc.ok && err != nil || !tc.ok && !errors.As(err, &ce) {
				t.Errorf("Interrupt from the hook = %v, want the CLI's answer (ok: %v)", err, tc.ok)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if byID, _ := r.answers(t); byID["h1"] != nil {
				t.Errorf("the cancelled hook request was answered: %v", byID["h1"])
			}
		})
	}
}

// A CLI whose initialize answer reports a blank version (" ") does not crash CreateSession (it
// used to panic in versionLess): the session starts, with the "older than" warning.
func TestReplay_BlankCLIVersion(t *testing.T) {
	t.Parallel()
	r := newReplay(t, `expect {"type":"control_request","request_id":"$capture:first","request":{"subtype":"initialize"}}
send {"type":"control_response","response":{"subtype":"success","request_id":"$first","response":{"claude_code_version":" ","hooks_applied":true,"hook_on_failure_supported":true}}}
eof
`)
	s := r.session(t)
	if w := s.Info().Warnings; len(w) != 1 || !strings.Contains(w[0], "older than") {
		t.Errorf("warnings %q, want the one that the version is older than the oldest supported", w)
	}
}

// The supported CLI range (issue 26): a CLI older than MinCLIVersion, or one that does not say its
// version, starts with a warning that names the range and the upgrade; a supported one without.
func TestReplay_CLIVersionRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		warns   bool
	}{{"2.1.200", true}, {"", true}, {v2.MinCLIVersion, false}, {v2.MaxTestedCLIVersion, false}, {"2.2.0", false}} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			answer := `send {"type":"control_response","response":{"subtype":"success","request_id":"$first","response":{"claude_code_version":"` + tc.version + `"}}}` + "\n"
			r := newReplay(t, `expect {"type":"control_request","request_id":"$capture:first","request":{"subtype":"initialize"}}`+"\n"+answer+"eof\n")
			s, err := v2.CreateSession(testCtx(t), r.opts...)
			if err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
			defer s.Close()
			warned := strings.Contains(strings.Join(s.Info().Warnings, "\n"), "older than "+v2.MinCLIVersion)
			if warned != tc.warns {
				t.Errorf("CLI %q: warned %v, want %v (warnings %q)", tc.version, warned, tc.warns, s.Info().Warnings)
			}
		})
	}
}
