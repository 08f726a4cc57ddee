package replay

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// hookFlags collects -hook EVENT:MATCHER:BEHAVIOR flags.
type hookFlags []string

func (h *hookFlags) String() string     { return strings.Join(*h, ",") }
func (h *hookFlags) Set(s string) error { *h = append(*h, s); return nil }

// SDKRun is the "sdkrun" command of the testscript tests: it drives a v2 session against whatever
// "claude" is on PATH (the fake CLI), with hooks chosen by flags, and prints what happens, one line
// per event, in an order that does not depend on goroutine scheduling where it can. Behaviours:
//
//	allow | deny:REASON | ask | block:REASON | stop:REASON | context:TEXT | rewrite:KEY=VALUE |
//	guard (deny a file_path outside the cwd) | panic | hang | markhang (calls SetPermissionMode("plan"), then hangs) | error:TEXT | nonsense | log |
//	reverse:N (the handler for tool_use_id tN, N below the arg, waits until tN+1's has started, so
//	the handlers must run at once; then it allows)
func SDKRun() int {
	fs := flag.NewFlagSet("sdkrun", flag.ContinueOnError)
	var hooks hookFlags
	fs.Var(&hooks, "hook", "EVENT:MATCHER:BEHAVIOR (repeatable)")
	prompt := fs.String("prompt", "hello", "prompt to send")
	turns := fs.Int("turns", 1, "results to wait for")
	timeout := fs.Duration("timeout", 5*time.Second, "default hook timeout")
	canUse := fs.String("can-use-tool", "", "allow | deny:MSG | panic: answer can_use_tool")
	grace := fs.Duration("grace", 2*time.Second, "close grace")
	overall := fs.Duration("deadline", 30*time.Second, "overall deadline")
	maxLine := fs.Int("max-line", 0, "max line size")
	strict := fs.Bool("strict", false, "strict hooks")
	allowUnenforced := fs.Bool("allow-unenforced", false, "start without hooks the CLI does not apply (WithAllowUnenforcedHooks)")
	cliName := fs.String("cli", "claude", "CLI command on PATH")
	apiScript := fs.String("api", "", "run a fake Messages API with these replies: tool:NAME:JSON;text:TEXT;...")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *overall)
	defer cancel()

	out := &printer{}
	reg := shared.Hooks{}
	coord := &reverseCoord{done: map[string]chan struct{}{}}
	for _, h := range hooks {
		parts := strings.SplitN(h, ":", 3)
		if len(parts) != 3 {
			fmt.Fprintln(os.Stderr, "bad -hook", h)
			return 2
		}
		e := shared.HookEvent(parts[0])
		reg[e] = append(reg[e], shared.HookConfig{Matcher: parts[1], Handler: behaviour(e, parts[2], out, coord)})
	}
	cliPath, err := exec.LookPath(*cliName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	opts := []v2.Option{
		v2.WithCLIPath(cliPath),
		v2.WithHooks(reg),
		v2.WithHookTimeout(*timeout),
		v2.WithCloseGrace(*grace),
		v2.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		v2.WithSessionID("11111111-2222-4333-8444-555555555555"),
	}
	if *apiScript != "" {
		replies, err := parseAPIScript(*apiScript)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		api := claudetest.NewModel(replies...)
		defer api.Close()
		opts = append(opts, v2.WithEnv("ANTHROPIC_BASE_URL="+api.URL(), "ANTHROPIC_API_KEY=sk-ant-test"))
	}
	if *maxLine > 0 {
		opts = append(opts, v2.WithMaxLineSize(*maxLine))
	}
	if *strict {
		opts = append(opts, v2.WithStrictHooks())
	}
	if *allowUnenforced {
		opts = append(opts, v2.WithAllowUnenforcedHooks())
	}
	if *canUse != "" {
		opts = append(opts, v2.WithCanUseTool(canUseTool(*canUse, out)))
	}
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		out.printf("create error: %v", err)
		return 1
	}
	running.Store(s)
	code := 0
	if err := s.Send(ctx, *prompt); err != nil {
		out.printf("send error: %v", err)
		code = 1
	}
	for i := 0; i < *turns && code == 0; i++ {
		for m, err := range s.Receive(ctx) {
			if err != nil {
				var pe *shared.ProtocolError
				if errors.As(err, &pe) {
					out.printf("protocol error: %v", err)
					continue
				}
				out.printf("session error: %v", err)
				code = 1
				break
			}
			printMessage(out, m)
		}
	}
	if err := s.Close(); err != nil {
		out.printf("close error: %v", err)
		var pe *shared.ProcessError
		if errors.As(err, &pe) {
			out.printf("exit code %d", pe.ExitCode)
		}
	}
	st := s.Stats()
	out.printf("stats noise=%d oversized=%d decode=%d", st.NoiseLines, st.OversizedLines, st.DecodeErrors)
	return code
}

// parseAPIScript reads "tool:NAME:JSON;text:TEXT" into fake API replies; tool ids are t1, t2, ...
func parseAPIScript(spec string) ([]claudetest.Reply, error) {
	var out []claudetest.Reply
	n := 0
	for _, part := range strings.Split(spec, ";") {
		kind, rest, _ := strings.Cut(part, ":")
		switch kind {
		case "text":
			out = append(out, claudetest.TextReply(rest))
		case "tool":
			name, input, _ := strings.Cut(rest, ":")
			n++
			out = append(out, claudetest.ToolReply(fmt.Sprintf("t%d", n), name, json.RawMessage(input)))
		default:
			return nil, fmt.Errorf("bad -api part %q", part)
		}
	}
	return out, nil
}

type printer struct{ mu sync.Mutex }

func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Printf(format+"\n", args...)
}

func printMessage(out *printer, m shared.Message) {
	switch v := m.(type) {
	case *shared.ResultMessage:
		out.printf("result %s is_error=%v %s", v.Subtype, v.IsError, v.Result)
	case *shared.AssistantMessage:
		out.printf("assistant %s", v.Text())
	case *shared.SystemMessage:
		out.printf("system %s", v.Subtype)
	case *shared.UserMessage:
		for _, b := range v.Blocks {
			if b.Type == "tool_result" {
				out.printf("tool_result %s error=%v %s", b.ToolUseID, b.IsError, b.ContentText())
			}
		}
	case *shared.RawMessage:
		out.printf("raw %s", v.MessageType)
	default:
		out.printf("message %s", m.Type())
	}
}

type reverseCoord struct {
	mu   sync.Mutex
	done map[string]chan struct{}
}

func (c *reverseCoord) ch(id string) chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.done[id]
	if !ok {
		ch = make(chan struct{})
		c.done[id] = ch
	}
	return ch
}

// running is the session sdkrun runs (one per process), for handlers that call it.
var running atomic.Pointer[v2.Session]

func behaviour(e shared.HookEvent, b string, out *printer, coord *reverseCoord) shared.HookHandler {
	kind, arg, _ := strings.Cut(b, "=")
	if k, a, ok := strings.Cut(b, ":"); ok {
		kind, arg = k, a
	}
	return shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		tool := ""
		var input shared.ToolInput
		if tc := shared.ToolCall(in); tc != nil {
			tool, input = tc.ToolName, tc.ToolInput
		}
		out.printf("hook %s tool=%s %s", e, tool, summarize(input))
		if answer, ok := answers[kind]; ok {
			return answer(arg), nil
		}
		return act(ctx, kind, arg, in, input, coord)
	})
}

// answers are the behaviours that answer at once with arg as the reason or context.
var answers = map[string]func(arg string) shared.HookOutput{
	"allow":   func(string) shared.HookOutput { return shared.Allow() },
	"deny":    func(a string) shared.HookOutput { return shared.Deny(a) },
	"ask":     func(a string) shared.HookOutput { return shared.Ask(a) },
	"block":   func(a string) shared.HookOutput { return shared.Block(a) },
	"stop":    func(a string) shared.HookOutput { return shared.Stop(a) },
	"context": func(a string) shared.HookOutput { return shared.AddContext(a) },
}

// act runs the behaviours that do more than answer: rewrite the input, guard a path, panic, hang,
// fail, answer nonsense, or answer in reverse order.
func act(ctx context.Context, kind, arg string, in shared.HookInput, input shared.ToolInput, coord *reverseCoord) (shared.HookOutput, error) {
	switch kind {
	case "rewrite":
		k, v, _ := strings.Cut(arg, "=")
		n := input.Clone()
		n[k] = v
		return shared.AllowWithInput(n), nil
	case "guard":
		return guard(in, input), nil
	case "panic":
		panic("handler exploded")
	case "hang":
		select {} // ignores ctx on purpose: the SDK must answer anyway
	case "markhang":
		// Tells the CLI it runs (a set_permission_mode request the transcript can expect),
		// then hangs, ignoring ctx.
		if s := running.Load(); s != nil {
			_ = s.SetPermissionMode(context.WithoutCancel(ctx), "plan")
		}
		select {}
	case "error":
		return nil, errors.New(arg)
	case "nonsense":
		return &shared.SyncHookOutput{Decision: "maybe"}, nil
	case "reverse":
		return reverse(ctx, in, arg, coord)
	}
	return nil, nil
}

// guard allows a file_path inside the session's directory and denies one outside it.
func guard(in shared.HookInput, input shared.ToolInput) shared.HookOutput {
	p := input.String("file_path")
	if !filepath.IsAbs(p) {
		p = filepath.Join(in.Base().Cwd, p)
	}
	rel, err := filepath.Rel(in.Base().Cwd, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return shared.Deny("path outside the project: " + p)
	}
	return shared.Allow()
}

// reverse answers tool call tN only once t(N+1)'s hook has started (up to the last, arg): the
// answers go out in reverse order.
func reverse(ctx context.Context, in shared.HookInput, arg string, coord *reverseCoord) (shared.HookOutput, error) {
	id := ""
	if tc := shared.ToolCall(in); tc != nil {
		id = tc.ToolUseID
	}
	var n int
	fmt.Sscanf(strings.TrimPrefix(id, "t"), "%d", &n)
	var last int
	fmt.Sscanf(arg, "%d", &last)
	close(coord.ch(id))
	if n < last {
		select {
		case <-coord.ch(fmt.Sprintf("t%d", n+1)):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return shared.Allow(), nil
}

func summarize(in shared.ToolInput) string {
	if len(in) == 0 {
		return ""
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%v", k, in[k])
	}
	return b.String()
}

func canUseTool(spec string, out *printer) shared.CanUseToolFunc {
	kind, arg, _ := strings.Cut(spec, ":")
	return func(ctx context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		out.printf("can_use_tool %s %s", req.ToolName, summarize(req.Input))
		switch kind {
		case "allow":
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		case "panic":
			panic("permission callback exploded")
		}
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: arg}, nil
	}
}
