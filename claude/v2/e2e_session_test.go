package v2_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Resume, continue and fork: the new session sees the old conversation, SessionID() is the id the
// CLI uses from the start, and the synthesized SessionStart (source resume) carries it.
func TestRealCLI_ResumeContinueFork(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "one", "two", "three", "four")
	startHook := func(rec *recorder[*shared.SessionStartHookInput], ctx string) v2.Option {
		return v2.WithHook(shared.HookEventSessionStart, "", rec.handler(func(*shared.SessionStartHookInput) shared.HookOutput {
			if ctx == "" {
				return nil
			}
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.SessionStartOutput{AdditionalContext: ctx}}
		}))
	}
	// check runs one prompt and checks the ids and what the model was sent.
	check := func(t *testing.T, s *v2.Session, rec *recorder[*shared.SessionStartHookInput], wantID, prompt string, wantSeen ...string) {
		t.Helper()
		id := s.SessionID()
		if wantID != "" && id != wantID {
			t.Errorf("SessionID() = %q before the first turn, want %q", id, wantID)
		}
		st := rec.all()
		if len(st) != 1 || st[0].Source != "resume" || st[0].SessionID != id || !synthesized(&st[0].BaseHookInput) {
			t.Errorf("SessionStart inputs %+v, want one synthesized resume for %s", st, id)
		}
		msgs, res := query(t, s, prompt)
		for _, got := range append(systemInits(msgs), res.SessionID) {
			if got != id {
				t.Errorf("the CLI reports session %s, SessionID() was %s", got, id)
			}
		}
		last, _ := env.api.LastRequest()
		for _, w := range wantSeen {
			if !last.Contains(w) {
				t.Errorf("the model was not sent %q", w)
			}
		}
		s.Close()
	}

	s1 := env.session(t)
	id1 := s1.SessionID()
	run(t, s1, "REMEMBER-ME-1")
	s1.Close()

	var rec2 recorder[*shared.SessionStartHookInput]
	check(t, env.session(t, v2.WithResume(id1), startHook(&rec2, "RESUME-CTX-5")), &rec2, id1, "RESUMED-2", "REMEMBER-ME-1")
	if last, _ := env.api.LastRequest(); !strings.Contains(last.System, "RESUME-CTX-5") {
		t.Errorf("the resumed SessionStart additionalContext is not in the system prompt: %s", last.Body)
	}

	var rec3 recorder[*shared.SessionStartHookInput]
	s3 := env.session(t, v2.WithContinue(), startHook(&rec3, "CONTINUE-CTX-6"))
	if w := s3.Info().Warnings; len(w) != 1 || !strings.Contains(w[0], "additionalContext is dropped") {
		t.Errorf("WithContinue warnings: %q", w)
	}
	check(t, s3, &rec3, id1, "CONTINUED-3", "REMEMBER-ME-1", "RESUMED-2")

	var rec4 recorder[*shared.SessionStartHookInput]
	s4 := env.session(t, v2.WithResume(id1), v2.WithForkSession(), startHook(&rec4, ""))
	if id := s4.SessionID(); id == "" || id == id1 {
		t.Errorf("forked SessionID() = %q (original %s)", id, id1)
	}
	check(t, s4, &rec4, "", "FORKED-4", "REMEMBER-ME-1", "CONTINUED-3")
}

// Control requests: interrupt (idle, and from a hook mid-turn), set_model.
func TestRealCLI_ControlRequests(t *testing.T) {
	t.Parallel()
	t.Run("set model and idle interrupt", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "one", "two")
		s := env.session(t)
		if err := s.Interrupt(testCtx(t)); err != nil {
			t.Errorf("idle Interrupt: %v", err)
		}
		run(t, s, "first")
		if err := s.SetModel(testCtx(t), "claude-sonnet-4-5"); err != nil {
			t.Fatalf("SetModel: %v", err)
		}
		run(t, s, "second")
		reqs := env.api.Requests()
		if len(reqs) != 2 || reqs[0].Model == "claude-sonnet-4-5" || reqs[1].Model != "claude-sonnet-4-5" {
			t.Errorf("models sent: %q", func() (m []string) {
				for _, r := range reqs {
					m = append(m, r.Model)
				}
				return
			}())
		}
	})
	t.Run("interrupt from a hook", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("never"), claudetest.TextReply("after")}
		})
		var sp atomic.Pointer[v2.Session]
		var interruptErr atomic.Value
		s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPreToolUse, "Bash",
			shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
				// Not the hook's ctx: the CLI cancels the hook request as part of the interrupt,
				// possibly before it answers the interrupt itself.
				if err := sp.Load().Interrupt(context.Background()); err != nil {
					interruptErr.Store(err)
				}
				<-ctx.Done() // the CLI cancels this request once it has interrupted the turn
				return shared.Allow(), nil
			})))
		sp.Store(s)
		res, err := s.Run(testCtx(t), "touch a")
		var re *v2.ResultError
		if !errors.As(err, &re) || res.TerminalReason != "aborted_tools" {
			t.Fatalf("Run = %+v, %v; want a *ResultError with terminal_reason aborted_tools", res, err)
		}
		if e := interruptErr.Load(); e != nil {
			t.Errorf("Interrupt from the hook: %v", e)
		}
		if env.exists("a.txt") {
			t.Error("the interrupted tool ran")
		}
		if r := run(t, s, "again"); r.Result != "never" && r.Result != "after" {
			t.Errorf("after the interrupt: %+v", r)
		}
	})
	// With the hook's own ctx, which the CLI cancels as part of the interrupt before it answers
	// it: Interrupt still reports the answer (issue 12 item 4), not context.Canceled.
	t.Run("interrupt from a hook with its ctx", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("never")}
		})
		var sp atomic.Pointer[v2.Session]
		errs := make(chan error, 1)
		s := env.session(t, v2.WithAllowedTools("Bash"), v2.WithHook(shared.HookEventPreToolUse, "Bash",
			shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
				errs <- sp.Load().Interrupt(ctx)
				<-ctx.Done()
				return shared.Allow(), nil
			})))
		sp.Store(s)
		res, err := s.Run(testCtx(t), "touch a")
		var re *v2.ResultError
		if !errors.As(err, &re) || res.TerminalReason != "aborted_tools" {
			t.Fatalf("Run = %+v, %v; want a *ResultError with terminal_reason aborted_tools", res, err)
		}
		select {
		case err := <-errs:
			if err != nil {
				t.Errorf("Interrupt from the hook with its ctx: %v", err)
			}
		case <-testCtx(t).Done():
			t.Fatal("the hook's Interrupt never returned")
		}
		if env.exists("a.txt") {
			t.Error("the interrupted tool ran")
		}
	})
}

// Info reports the pinned CLI (or, with $CLAUDE_CLI_PATH, as CI's run against the oldest supported
// CLI sets it, a supported one: no warning) and the accepted hook registration.
func TestRealCLI_Info(t *testing.T) {
	t.Parallel()
	env := textEnv(t)
	s := env.session(t, v2.WithStrictHooks(), v2.WithHook(shared.HookEventStop, "", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return nil, nil
	})))
	info := s.Info()
	pinned := info.CLIVersion == claudetest.CLIVersion || os.Getenv("CLAUDE_CLI_PATH") != "" && info.CLIVersion != ""
	if !pinned || !info.HooksApplied || !info.HookOnFailureSupported || info.PID <= 0 || info.HooksDisabledByEnv || len(info.Warnings) != 0 {
		t.Errorf("Info = %+v", info)
	}
}

// The AGENT_SDK_HOOKS_ENABLED=false rollback switch: strict sessions refuse to start; others start
// with Go hooks off, and say so. Not parallel: it sets the SDK process's environment.
func TestRealCLI_HooksDisabledByEnv(t *testing.T) {
	t.Setenv(v2.HooksEnabledEnv, "false")
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("done")}
	})
	var ran atomic.Int32
	deny := v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		ran.Add(1)
		return shared.Deny("hooks are on"), nil
	}))
	if _, err := env.create(t, deny, v2.WithStrictHooks()); !errors.Is(err, v2.ErrHooksNotEnforced) {
		t.Fatalf("strict CreateSession = %v, want ErrHooksNotEnforced", err)
	}
	s := env.session(t, deny, v2.WithAllowedTools("Bash"))
	if !s.Info().HooksDisabledByEnv {
		t.Error("Info().HooksDisabledByEnv is false")
	}
	run(t, s, "touch a")
	if ran.Load() != 0 || !env.exists("a.txt") {
		t.Errorf("hook ran %d times, file made %v: the switch did not turn hooks off", ran.Load(), env.exists("a.txt"))
	}
}
