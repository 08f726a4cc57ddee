package v2_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// permissionLog records can_use_tool requests; the callback runs on other goroutines.
type permissionLog struct {
	mu   sync.Mutex
	reqs []*shared.CanUseTool
}

func (l *permissionLog) callback(decide func(*shared.CanUseTool) *shared.PermissionResult) v2.Option {
	return v2.WithCanUseTool(func(_ context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		l.mu.Lock()
		l.reqs = append(l.reqs, req)
		l.mu.Unlock()
		return decide(req), nil
	})
}

func (l *permissionLog) all() []*shared.CanUseTool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*shared.CanUseTool(nil), l.reqs...)
}

// touchEnv scripts one `touch <project>/a.txt` (which needs approval) and then "done".
func touchEnv(t *testing.T) *realEnv {
	return newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("touch "+p+"/a.txt")), claudetest.TextReply("done")}
	})
}

// can_use_tool via WithCanUseTool: the SDK passes --permission-prompt-tool stdio, and each answer
// (allow, deny with a message, allow with a rewritten input, deny with interrupt) has its effect.
func TestRealCLI_CanUseTool(t *testing.T) {
	t.Parallel()
	t.Run("allow", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		var log permissionLog
		s := env.session(t, log.callback(func(*shared.CanUseTool) *shared.PermissionResult {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}
		}))
		res := run(t, s, "touch a")
		reqs := log.all()
		if len(reqs) != 1 || reqs[0].ToolName != "Bash" || reqs[0].ToolUseID != "toolu_01" || !strings.HasSuffix(reqs[0].Input.String("command"), "/a.txt") {
			t.Fatalf("can_use_tool requests: %+v", reqs)
		}
		if !env.exists("a.txt") || res.IsError {
			t.Errorf("allowed command did not run (is_error %v)", res.IsError)
		}
	})
	t.Run("deny with message", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		var log permissionLog
		s := env.session(t, log.callback(func(*shared.CanUseTool) *shared.PermissionResult {
			return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "user said no 1234"}
		}))
		res := run(t, s, "touch a")
		if len(log.all()) != 1 || env.exists("a.txt") {
			t.Fatalf("%d requests, file exists %v", len(log.all()), env.exists("a.txt"))
		}
		reqs := env.api.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d model requests", len(reqs))
		}
		if tr, ok := reqs[1].LastToolResult(); !ok || !tr.IsError || !strings.Contains(tr.ContentText(), "user said no 1234") {
			t.Errorf("the model got %+v", tr)
		}
		if d := denials(t, res); len(d) != 1 || d[0].ToolUseID != "toolu_01" {
			t.Errorf("permission_denials = %s", res.PermissionDenials)
		}
		if res.IsError || res.Result != "done" {
			t.Errorf("the turn did not go on: %+v", res)
		}
	})
	t.Run("allow rewritten", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		var log permissionLog
		s := env.session(t, log.callback(func(req *shared.CanUseTool) *shared.PermissionResult {
			in := req.Input.Clone()
			in["command"] = strings.Replace(req.Input.String("command"), "a.txt", "b.txt", 1)
			return &shared.PermissionResult{Behavior: shared.PermissionAllow, UpdatedInput: in}
		}))
		run(t, s, "touch a")
		if env.exists("a.txt") || !env.exists("b.txt") {
			t.Errorf("a.txt exists %v, b.txt exists %v; want only b", env.exists("a.txt"), env.exists("b.txt"))
		}
	})
	t.Run("deny interrupt", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		var log permissionLog
		s := env.session(t, log.callback(func(*shared.CanUseTool) *shared.PermissionResult {
			return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "stop everything", Interrupt: true}
		}))
		res, err := s.Run(testCtx(t), "touch a")
		var re *v2.ResultError
		if !errors.As(err, &re) || res == nil || !res.IsError || res.TerminalReason != "aborted_tools" {
			t.Fatalf("Run = %+v, %v; want a *ResultError with terminal_reason aborted_tools", res, err)
		}
		if env.exists("a.txt") || len(env.api.Requests()) != 1 {
			t.Errorf("file exists %v, %d model requests (want 1)", env.exists("a.txt"), len(env.api.Requests()))
		}
	})
}
