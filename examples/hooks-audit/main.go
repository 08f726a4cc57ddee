// Command hooks-audit shows hooks that write an audit trail (user story US-2): every decision of
// the session's policy (policy.WithDecisionLog: allowed and denied calls alike; a denied call never
// reaches PostToolUse), every finished tool call (PostToolUse), failed tool call
// (PostToolUseFailure), session start and session end becomes one JSON line in audit.jsonl,
// written atomically (package auditlog). The same session is traced
// with OpenTelemetry (contrib/otel): its span tree is printed at the end, or exported with OTLP
// when OTEL_EXPORTER_OTLP_ENDPOINT is set (package internal/tracing).
//
//	go run -C examples ./hooks-audit            # offline: the real CLI, a scripted fake model
//	go run -C examples ./hooks-audit -real-api  # the real model (needs ANTHROPIC_API_KEY)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	otelagent "github.com/hookwire/agent-sdk-go/contrib/otel"
	"github.com/hookwire/agent-sdk-go/examples/hooks-audit/auditlog"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
	"github.com/hookwire/agent-sdk-go/examples/internal/tracing"
)

// record is one audit line. Tool outputs are left out on purpose: they may hold secrets.
type record struct {
	Time       string `json:"timestamp"` // RFC 3339, UTC, when the hook ran
	Session    string `json:"session"`
	Event      string `json:"event"`
	Tool       string `json:"tool,omitempty"`
	ToolUseID  string `json:"tool_use_id,omitempty"`
	Input      string `json:"input,omitempty"` // a one-line summary of the tool input
	Outcome    string `json:"outcome"`         // allowed, denied, success, failure, interrupted, start, end
	Rule       string `json:"rule,omitempty"`  // the policy rule that decided (PolicyDecision)
	Error      string `json:"error,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"` // the tool's run time, as the CLI measured it
	Detail     string `json:"detail,omitempty"`      // SessionStart source, SessionEnd reason
	// Synthesized marks events the SDK produced itself (the CLI sends no SessionStart at startup
	// and no SessionEnd at exit to SDK hooks).
	Synthesized bool `json:"sdk_synthesized,omitempty"`
}

func bash(cmd string) map[string]any { return map[string]any{"command": cmd, "description": cmd} }

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("hooks-audit", flag.ContinueOnError)
	traceMode := fs.String("trace", "tree", "the session's OpenTelemetry trace: tree (a text tree at the end), json (the stdout exporter), off; OTLP too when OTEL_EXPORTER_OTLP_ENDPOINT is set")
	f := demo.NewFlags(fs, "Run `echo hi`, then run `exit 3`, then try to write /etc/hosts, then summarise.")
	path := fs.String("audit", "", "audit file (default: audit.jsonl in the project directory)")
	script := func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "Bash", bash("echo hi")),
			claudetest.ToolReply("toolu_02", "Bash", bash("exit 3")),
			claudetest.ToolReply("toolu_03", "Bash", bash("echo pwned > /etc/hosts")),
			claudetest.TextReply("The first command printed hi; the second failed with exit code 3; the policy refused the third."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		if *path == "" {
			*path = filepath.Join(env.Dir, "audit.jsonl")
		}
		log, err := auditlog.Open(*path)
		if err != nil {
			return err
		}
		defer log.Close()
		tp, stopTrace, err := tracing.Setup(ctx, *traceMode, os.Stdout)
		if err != nil {
			return err
		}
		defer stopTrace(context.Background()) // after Close: prints the trace tree
		// The recommended audit: the policy's decision log sees every call the policy decides,
		// allowed or denied; PostToolUse and PostToolUseFailure see how the allowed ones ended.
		p := policy.Confined(env.Dir, policy.WithDecisionLog(decisions(log)))
		s, err := v2.CreateSession(ctx, env.Options(v2.WithPolicy(p), v2.WithHooks(hooks(log)), otelagent.Instrument(tp, nil))...)
		if err != nil {
			return err
		}
		_, runErr := demo.RunPrompt(ctx, s, f.Prompt, os.Stdout)
		if err := s.Close(); err != nil && runErr == nil { // Close runs the SessionEnd hook
			runErr = err
		}
		if runErr != nil {
			return runErr
		}
		b, err := os.ReadFile(*path)
		if err != nil {
			return err
		}
		fmt.Printf("--- %s\n%s", *path, b)
		return nil
	})
}

// decisions returns the policy's decision log: one line per decision, with the rule that decided
// and, for a denial, the reason the model was given.
func decisions(log *auditlog.Log) func(context.Context, policy.Event) {
	return func(_ context.Context, e policy.Event) {
		r := record{Time: time.Now().UTC().Format(time.RFC3339Nano), Session: e.SessionID, Event: "PolicyDecision", Tool: e.ToolName,
			ToolUseID: e.ToolUseID, Input: demo.Abbrev(e.Subject, 200), Outcome: "allowed", Rule: e.Decision.Rule}
		if !e.Decision.Allow {
			r.Outcome, r.Error = "denied", demo.Abbrev(e.Decision.Reason, 200)
		}
		if err := log.Write(r); err != nil {
			fmt.Fprintln(os.Stderr, "audit:", err) // the policy's decision stands; the log reports its own failure
		}
	}
}

// hooks returns the audit hooks. They only append a line and return nil: an audit must not
// change what the agent does. (To make auditing fail closed, also log in PreToolUse and deny the
// call when the write fails.)
func hooks(log *auditlog.Log) shared.Hooks {
	write := func(b *shared.BaseHookInput, r record) error {
		r.Time = time.Now().UTC().Format(time.RFC3339Nano)
		r.Session, r.Event = b.SessionID, string(b.HookEventName)
		_, r.Synthesized = b.Extra["sdk_synthesized"]
		return log.Write(r)
	}
	tool := func(t *shared.ToolCallFields, outcome string, ms int64) record {
		return record{Tool: t.ToolName, ToolUseID: t.ToolUseID, Input: demo.Summary(t.ToolName, t.ToolInput), Outcome: outcome, DurationMS: &ms}
	}
	return shared.Hooks{
		shared.HookEventPostToolUse: {{Handler: shared.OnPostToolUse(func(ctx context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
			return nil, write(&in.BaseHookInput, tool(&in.ToolCallFields, "success", in.DurationMS))
		})}},
		shared.HookEventPostToolUseFailure: {{Handler: shared.OnPostToolUseFailure(func(ctx context.Context, in *shared.PostToolUseFailureHookInput) (shared.HookOutput, error) {
			r := tool(&in.ToolCallFields, "failure", in.DurationMS)
			if in.IsInterrupt {
				r.Outcome = "interrupted"
			}
			r.Error = demo.Abbrev(in.Error, 200)
			return nil, write(&in.BaseHookInput, r)
		})}},
		shared.HookEventSessionStart: {{Handler: shared.OnSessionStart(func(ctx context.Context, in *shared.SessionStartHookInput) (shared.HookOutput, error) {
			return nil, write(&in.BaseHookInput, record{Outcome: "start", Detail: in.Source})
		})}},
		shared.HookEventSessionEnd: {{Handler: shared.OnSessionEnd(func(ctx context.Context, in *shared.SessionEndHookInput) (shared.HookOutput, error) {
			return nil, write(&in.BaseHookInput, record{Outcome: "end", Detail: in.Reason})
		})}},
	}
}
