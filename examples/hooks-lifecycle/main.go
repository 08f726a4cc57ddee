// Command hooks-lifecycle registers a hook for every event the SDK knows and prints, in the order
// they really happen, the hook events and the stream messages of a session with two prompts and a
// tool call. Nothing is decided: every hook returns nil ("no opinion").
//
//	go run -C examples ./hooks-lifecycle            # offline: the real CLI, a scripted fake model
//	go run -C examples ./hooks-lifecycle -real-api  # the real model (needs ANTHROPIC_API_KEY)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
	"github.com/hookwire/agent-sdk-go/examples/internal/tracing"
)

// printer numbers and prints lines from hooks (which run on their own goroutines) and from the
// stream, one at a time.
type printer struct {
	mu    sync.Mutex
	n     int
	fired map[shared.HookEvent]bool
}

func (p *printer) line(kind, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	fmt.Printf("%3d %-6s %s\n", p.n, kind, fmt.Sprintf(format, args...))
}

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("hooks-lifecycle", flag.ContinueOnError)
	traceMode := fs.String("trace", "tree", "the session's OpenTelemetry trace: tree (a text tree at the end), json (the stdout exporter), off; OTLP too when OTEL_EXPORTER_OTLP_ENDPOINT is set")
	f := demo.NewFlags(fs, "Run `echo hello` with the Bash tool.")
	second := fs.String("prompt2", "Now just say goodbye.", "second prompt of the session")
	script := func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", map[string]any{"command": "echo hello", "description": "say hello"}),
			claudetest.TextReply("The command printed hello."),
			claudetest.TextReply("Goodbye!"),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		p := &printer{fired: map[shared.HookEvent]bool{}}
		hooks := shared.Hooks{}
		for _, e := range shared.AllHookEvents() {
			hooks[e] = []shared.HookConfig{{Handler: shared.HookHandlerFunc(func(_ context.Context, in shared.HookInput) (shared.HookOutput, error) {
				p.line("hook", "%s%s", in.Base().HookEventName, describe(in))
				p.mu.Lock()
				p.fired[in.Base().HookEventName] = true
				p.mu.Unlock()
				return nil, nil
			})}}
		}
		tp, stopTrace, err := tracing.Setup(ctx, *traceMode, os.Stdout)
		if err != nil {
			return err
		}
		defer stopTrace(context.Background())                                                               // after Close: prints the trace tree
		s, err := v2.CreateSession(ctx, env.Options(v2.WithHooks(hooks), otelagent.Instrument(tp, nil))...) // runs SessionStart
		if err != nil {
			return err
		}
		for _, prompt := range []string{f.Prompt, *second} {
			p.line("send", "%q", prompt)
			for m, err := range s.Query(ctx, prompt) {
				if err != nil {
					s.Close()
					return err
				}
				if d := message(m); d != "" {
					p.line("stream", "%s", d)
				}
			}
		}
		p.line("close", "Session.Close")
		if err := s.Close(); err != nil { // runs SessionEnd
			return err
		}
		fmt.Printf("%d of %d registered events fired in this session\n", len(p.fired), len(hooks))
		return nil
	})
}

// describe abbreviates a hook input to its telling fields.
func describe(in shared.HookInput) string {
	var f []string
	if _, ok := in.Base().Extra["sdk_synthesized"]; ok {
		f = append(f, "(produced by the SDK)")
	}
	if t := shared.ToolCall(in); t != nil {
		f = append(f, fmt.Sprintf("tool=%s id=%s input=%q", t.ToolName, t.ToolUseID, demo.Summary(t.ToolName, t.ToolInput)))
	}
	switch v := in.(type) {
	case *shared.UserPromptSubmitHookInput:
		f = append(f, fmt.Sprintf("prompt=%q", demo.Abbrev(v.Prompt, 60)))
	case *shared.PostToolUseFailureHookInput:
		f = append(f, fmt.Sprintf("error=%q", demo.Abbrev(v.Error, 60)))
	case *shared.PostToolBatchHookInput:
		f = append(f, fmt.Sprintf("calls=%d", len(v.ToolCalls)))
	case *shared.StopHookInput:
		f = append(f, fmt.Sprintf("stop_hook_active=%v last=%q", v.StopHookActive, demo.Abbrev(v.LastAssistantMessage, 40)))
	case *shared.MessageDisplayHookInput:
		f = append(f, fmt.Sprintf("final=%v delta=%q", v.Final, demo.Abbrev(v.Delta, 40)))
	case *shared.NotificationHookInput:
		f = append(f, fmt.Sprintf("type=%s message=%q", v.NotificationType, demo.Abbrev(v.Message, 60)))
	default:
		if shared.ToolCall(in) == nil && in.MatchValue() != "" {
			f = append(f, in.MatchValue())
		}
	}
	if len(f) == 0 {
		return ""
	}
	return " " + strings.Join(f, " ")
}

// message abbreviates a stream message; "" skips it.
func message(m shared.Message) string {
	switch v := m.(type) {
	case *shared.SystemMessage:
		return "system/" + v.Subtype
	case *shared.AssistantMessage:
		var parts []string
		for _, b := range v.Message.Content {
			switch b.Type {
			case "text":
				parts = append(parts, fmt.Sprintf("text %q", demo.Abbrev(b.Text, 60)))
			case "tool_use":
				parts = append(parts, "tool_use "+b.Name+" id="+b.ID)
			}
		}
		return "assistant " + strings.Join(parts, ", ")
	case *shared.UserMessage:
		for _, b := range v.Blocks {
			if b.Type == "tool_result" {
				return fmt.Sprintf("user tool_result id=%s %q", b.ToolUseID, demo.Abbrev(b.ContentText(), 40))
			}
		}
		return ""
	case *shared.ResultMessage:
		return fmt.Sprintf("result %s turns=%d %q", v.Subtype, v.NumTurns, demo.Abbrev(v.Result, 40))
	}
	return m.Type()
}
