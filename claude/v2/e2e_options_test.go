package v2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

func textEnv(t *testing.T, texts ...string) *realEnv {
	return newRealEnv(t, func(string) []claudetest.Reply {
		var rs []claudetest.Reply
		for _, s := range texts {
			rs = append(rs, claudetest.TextReply(s))
		}
		return rs
	})
}

// firstRequest returns the first model request, failing the test if none came.
func firstRequest(t *testing.T, env *realEnv) claudetest.Request {
	t.Helper()
	reqs := env.api.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	return reqs[0]
}

// Options that only change what the model is sent.
func TestRealCLI_OptionsReachTheModel(t *testing.T) {
	t.Parallel()
	t.Run("model", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithModel("claude-sonnet-4-5")), "hi")
		if m := firstRequest(t, env).Model; m != "claude-sonnet-4-5" {
			t.Errorf("model = %q", m)
		}
	})
	t.Run("system prompt", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithSystemPrompt("SYS-REPLACED-1")), "hi")
		sys := firstRequest(t, env).System
		if !strings.Contains(sys, "SYS-REPLACED-1") || strings.Contains(sys, "Claude Code") {
			t.Errorf("system = %.300q", sys)
		}
	})
	t.Run("append system prompt", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithAppendSystemPrompt("SYS-APPENDED-2")), "hi")
		sys := firstRequest(t, env).System
		if !strings.Contains(sys, "SYS-APPENDED-2") || !strings.Contains(sys, "Claude Code") {
			t.Errorf("system = %.300q", sys)
		}
	})
	t.Run("disallowed tools", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo x > "+p+"/a.txt")), claudetest.TextReply("done")}
		})
		// A permission callback that allows everything: only the disallow rule can stop Bash.
		// (WithAllowedTools("Bash") beside it is a misuse CreateSession refuses.)
		allowAll := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		})
		run(t, env.session(t, allowAll, v2.WithDisallowedTools("Bash")), "hi")
		if env.exists("a.txt") {
			t.Error("a disallowed Bash ran")
		}
		if tools := firstRequest(t, env).Tools; containsString(tools, "Bash") || !containsString(tools, "Read") {
			t.Errorf("tools offered: %q", tools)
		}
	})
	t.Run("include partial messages", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "streamed text")
		msgs, _ := query(t, env.session(t, v2.WithIncludePartialMessages()), "hi")
		var deltas int
		for _, m := range msgs {
			if ev, ok := m.(*shared.StreamEvent); ok && strings.Contains(string(ev.Event), "streamed text") {
				deltas++
			}
		}
		if deltas == 0 {
			t.Error("no StreamEvent carries the text delta")
		}
	})
	t.Run("extra args", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		msgs, _ := query(t, env.session(t, v2.WithExtraArgs("--replay-user-messages")), "ECHO-ME")
		var replayed bool
		for _, m := range msgs {
			if u, ok := m.(*shared.UserMessage); ok && u.IsReplay && strings.Contains(string(u.Message.Content), "ECHO-ME") {
				replayed = true
			}
		}
		if !replayed {
			t.Error("--replay-user-messages had no effect")
		}
	})
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Options that change what tools do: cwd, env, settings, additional dirs.
func TestRealCLI_OptionsReachTools(t *testing.T) {
	t.Parallel()
	// bashOut runs one Bash command through the CLI and returns its stdout as the model got it.
	bashOut := func(t *testing.T, cmd string, opts ...v2.Option) (string, *realEnv) {
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash(cmd)), claudetest.TextReply("done")}
		})
		s := env.session(t, append([]v2.Option{v2.WithAllowedTools("Bash")}, opts...)...)
		msgs, _ := query(t, s, "run it")
		tr, ok := toolResults(msgs)["toolu_01"]
		if !ok {
			t.Fatal("no tool result")
		}
		return tr.ContentText(), env
	}
	t.Run("cwd", func(t *testing.T) {
		t.Parallel()
		out, env := bashOut(t, "pwd")
		if strings.TrimSpace(out) != env.project {
			t.Errorf("pwd = %q, want %q", out, env.project)
		}
	})
	t.Run("env", func(t *testing.T) {
		t.Parallel()
		out, _ := bashOut(t, "echo var=$SDK_E2E_VAR", v2.WithEnv("SDK_E2E_VAR=from-with-env"))
		if strings.TrimSpace(out) != "var=from-with-env" {
			t.Errorf("output %q", out)
		}
	})
	t.Run("settings", func(t *testing.T) {
		t.Parallel()
		if _, err := os.Stat("/proc/self/cmdline"); err != nil {
			t.Skip("no /proc: the command lines cannot be read")
		}
		// The tool prints the variable, then the command line of each of its ancestors, the CLI's
		// among them: the settings' JSON must not be on any (/proc/PID/cmdline is world-readable).
		const ancestors = `echo var=$FROM_SETTINGS; p=$PPID; while [ "$p" -gt 1 ]; do tr '\0' ' ' </proc/$p/cmdline; echo; p=$(cut -d' ' -f4 </proc/$p/stat); done`
		out, _ := bashOut(t, ancestors, v2.WithSettings(`{"env":{"FROM_SETTINGS":"settings-json"}}`))
		first, rest, _ := strings.Cut(strings.TrimSpace(out), "\n")
		if first != "var=settings-json" {
			t.Errorf("output %q", out)
		}
		if !strings.Contains(rest, "--settings=") {
			t.Errorf("the CLI's command line is not among the ancestors':\n%s", rest)
		}
		if strings.Contains(rest, "settings-json") {
			t.Errorf("a command line carries the settings' JSON:\n%s", rest)
		}
	})
	t.Run("additional dirs", func(t *testing.T) {
		t.Parallel()
		other := t.TempDir()
		if p, err := filepath.EvalSymlinks(other); err == nil {
			other = p
		}
		write := func(t *testing.T, name string, opts ...v2.Option) {
			env := newRealEnv(t, func(string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": filepath.Join(other, name), "content": "x"}), claudetest.TextReply("done")}
			})
			run(t, env.session(t, append([]v2.Option{v2.WithPermissionMode(v2.PermissionModeAcceptEdits)}, opts...)...), "write")
		}
		write(t, "with.txt", v2.WithAdditionalDirs(other))
		write(t, "without.txt")
		if _, err := os.Stat(filepath.Join(other, "with.txt")); err != nil {
			t.Error("acceptEdits did not write into an added dir")
		}
		if _, err := os.Stat(filepath.Join(other, "without.txt")); err == nil {
			t.Error("acceptEdits wrote outside the project without --add-dir")
		}
	})
}

// Permission modes at start and at run time.
func TestRealCLI_PermissionMode(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("first"),
			claudetest.ToolReply("toolu_02", "Bash", bash("touch "+p+"/b.txt")), claudetest.TextReply("second"),
		}
	})
	var asked atomic.Int32
	s := env.session(t, v2.WithPermissionMode(v2.PermissionModeDontAsk), v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
		asked.Add(1)
		return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
	}))
	res := run(t, s, "touch a")
	if env.exists("a.txt") || asked.Load() != 0 {
		t.Errorf("dontAsk: file made %v, can_use_tool asked %d times", env.exists("a.txt"), asked.Load())
	}
	if d := denials(t, res); len(d) != 1 {
		t.Errorf("dontAsk: permission_denials %s", res.PermissionDenials)
	}
	if err := s.SetPermissionMode(testCtx(t), v2.PermissionModeDefault); err != nil {
		t.Fatalf("SetPermissionMode: %v", err)
	}
	run(t, s, "touch b")
	if !env.exists("b.txt") || asked.Load() != 1 {
		t.Errorf("default: file made %v, can_use_tool asked %d times", env.exists("b.txt"), asked.Load())
	}
	err := s.SetPermissionMode(testCtx(t), "bogus")
	var ce *shared.ControlError
	if !errors.As(err, &ce) || ce.Code != "invalid_mode" {
		t.Errorf("SetPermissionMode(bogus) = %v, want a *ControlError with code invalid_mode", err)
	}
}

// WithMaxTurns bounds the agent loop (--max-turns, accepted by CLI 2.1.330 though not in --help).
func TestRealCLI_MaxTurns(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("echo one")),
			claudetest.ToolReply("toolu_02", "Bash", bash("echo two")),
			claudetest.TextReply("done"),
		}
	})
	res, err := env.session(t, v2.WithAllowedTools("Bash"), v2.WithMaxTurns(1)).Run(testCtx(t), "loop")
	var re *v2.ResultError
	if !errors.As(err, &re) || res.Subtype != "error_max_turns" || res.TerminalReason != "max_turns" {
		t.Fatalf("Run = %+v, %v; want a *ResultError with subtype error_max_turns", res, err)
	}
	if n := len(env.api.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}
