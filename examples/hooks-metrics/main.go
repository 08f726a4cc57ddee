// Command hooks-metrics shows hooks that measure tool latency and errors without holding the agent
// up (user story US-3), and exposes them to Prometheus with client_golang (package toolmetrics).
//
//	go run -C examples ./hooks-metrics                          # offline: real CLI, scripted model
//	go run -C examples ./hooks-metrics -listen :9464 -hold 5m   # and serve /metrics meanwhile
//	go run -C examples ./hooks-metrics -real-api                # the real model (ANTHROPIC_API_KEY)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/examples/hooks-metrics/toolmetrics"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
)

func bash(cmd string) map[string]any { return map[string]any{"command": cmd, "description": cmd} }

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("hooks-metrics", flag.ContinueOnError)
	f := demo.NewFlags(fs, "Run three shell commands in parallel: two short sleeps and one that fails.")
	listen := fs.String("listen", "", "serve the metrics at http://ADDR/metrics, e.g. :9464 (default: off)")
	hold := fs.Duration("hold", 0, "with -listen: keep serving this long after the session (Ctrl-C stops)")
	script := func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolsReply( // three calls in one message; the CLI runs the read-only ones in parallel
				claudetest.ToolUse{ID: "toolu_01", Name: "Bash", Input: bash("sleep 0.2 && echo one")},
				claudetest.ToolUse{ID: "toolu_02", Name: "Bash", Input: bash("sleep 0.4 && echo two")},
				claudetest.ToolUse{ID: "toolu_03", Name: "Bash", Input: bash("sleep 0.1; exit 2")},
			),
			claudetest.TextReply("Two commands succeeded and one failed."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		rec := toolmetrics.New()
		url := ""
		if *listen != "" {
			ln, err := net.Listen("tcp", *listen)
			if err != nil {
				return err
			}
			mux := http.NewServeMux()
			mux.Handle("GET /metrics", rec)
			srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
			go srv.Serve(ln) // ends at Shutdown
			defer srv.Shutdown(context.Background())
			url = "http://" + ln.Addr().String() + "/metrics"
			fmt.Printf("metrics: serving %s\n", url)
		}
		s, err := v2.CreateSession(ctx, env.Options(v2.WithAllowedTools("Bash"), v2.WithHooks(hooks(rec)))...)
		if err != nil {
			return err
		}
		defer s.Close()
		if _, err := demo.RunPrompt(ctx, s, f.Prompt, os.Stdout); err != nil {
			return err
		}
		fmt.Println("--- summary")
		rec.WriteSummary(os.Stdout)
		fmt.Println("--- Prometheus exposition")
		rec.WritePrometheus(os.Stdout)
		if url == "" {
			return nil
		}
		if err := scrape(ctx, url); err != nil {
			return err
		}
		if *hold > 0 {
			fmt.Printf("metrics: serving %s for %s (Ctrl-C stops)\n", url, *hold)
			hctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			select {
			case <-hctx.Done():
			case <-time.After(*hold):
			}
		}
		return nil
	})
}

// hooks feeds the recorder. Each handler takes one short lock and returns nil: no opinion, so the
// agent goes on at once.
func hooks(rec *toolmetrics.Recorder) shared.Hooks {
	return shared.Hooks{
		shared.HookEventPreToolUse: {{Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			rec.Start(in.ToolUseID, in.ToolName)
			return nil, nil
		})}},
		shared.HookEventPostToolUse: {{Handler: shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
			rec.Finish(in.ToolUseID, in.ToolName, toolmetrics.Success)
			return nil, nil
		})}},
		shared.HookEventPostToolUseFailure: {{Handler: shared.OnPostToolUseFailure(func(_ context.Context, in *shared.PostToolUseFailureHookInput) (shared.HookOutput, error) {
			rec.Finish(in.ToolUseID, in.ToolName, toolmetrics.Failure)
			return nil, nil
		})}},
		// PostToolBatch closes the calls that were denied after PreToolUse. Keep it fast: the CLI
		// 2.1.330 crashes when a PostToolBatch callback times out.
		shared.HookEventPostToolBatch: {{Handler: shared.HandlerFor(func(_ context.Context, in *shared.PostToolBatchHookInput) (shared.HookOutput, error) {
			ids := make([]string, len(in.ToolCalls))
			for i, c := range in.ToolCalls {
				ids[i] = c.ToolUseID
			}
			rec.Batch(ids)
			return nil, nil
		})}},
	}
}

// scrape fetches the endpoint once, as Prometheus would, to show that it answers.
func scrape(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return errors.New("scrape: " + resp.Status)
	}
	fmt.Printf("metrics: scraped %s: %s, %s, %d lines\n", url, resp.Status, resp.Header.Get("Content-Type"), strings.Count(string(body), "\n"))
	return nil
}
