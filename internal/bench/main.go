// Command bench is the end-to-end hook benchmark: it drives the real Claude CLI through a local fake
// Messages API (claude/claudetest) with a workload of N tool calls, under several hook
// configurations and drivers, and reports what hooks cost.
//
//	go run ./internal/bench                       # N=100, 5 interleaved runs per configuration
//	go run ./internal/bench -n 20 -runs 3 -shapes seq
//	go run ./internal/bench -ts /tmp/tssdk        # also the TypeScript SDK, installed there with
//	                                              # npm install @anthropic-ai/claude-agent-sdk
//
// Workloads (-shapes): "seq", N model turns of one Bash tool_use each; "par", N/10 model turns of
// ten Bash tool_use blocks each (the CLI runs them concurrently); "start", no tool call at all (one
// text answer), for measuring the session start with many quick runs; "tools", N model turns of
// one call each of mcp__bench__echo, a trivial read-only tool of an in-process MCP server (the sdk
// driver's through v2.WithMCPServer, the ts driver's through createSdkMcpServer); "toolspar", N/10
// turns of ten such calls (run concurrently). The bare driver skips the tools shapes.
//
// Drivers: "bare", a hand-written Go loop that speaks the control protocol with no SDK (the floor);
// "sdk", this SDK (claude/v2); "ts", @anthropic-ai/claude-agent-sdk (with -ts). Hook
// configurations: "nohooks"; "pass", PreToolUse + PostToolUse on every tool answering "no
// opinion"; "deny", PreToolUse denying every call (the tools never run); "observe" (sdk only), no
// hook but an audit observer (a JSON line per call, appended to a file) and a metrics observer;
// "mcp10" (sdk and ts), no hook but an in-process MCP server of 10 tools (in the tools shapes, every
// configuration has the server, of one tool where not mcp10).
//
// Every driver makes the CLI send the model the same request: the TypeScript SDK's default, an
// empty system prompt (see benchSystemPrompt), which the Go drivers pass explicitly. The "req B"
// column is the size of each configuration's first model request, as the fake API received it;
// the drivers differ only by ids, temporary paths and the CLI's entrypoint label.
//
// Each run is a fresh CLI process with a fresh HOME, driven by a driver process of its own (so its
// CPU time is its own). Runs are interleaved (round r runs every configuration once, in an order
// rotated by r) so that drift on a shared machine hits every configuration alike; the table shows
// medians. Per-call overhead and the ratio compare with the same driver's nohooks run. The round
// trip is the driver's own share of a hook request: from reading its line to writing the answer.
// The last line of the output, starting with "BENCH ", is the whole result as JSON.
//
// The benchmark is a module of its own (it requires the core and contrib/otel; neither requires
// it). Its machinery is the library internal/bench/benchkit; internal/bench/otelbench runs it with
// configurations of the OpenTelemetry instrumentation (sdk/otel, sdk/otelpass), which the core
// module cannot depend on.
package main

import (
	"os"

	"github.com/hookwire/agent-sdk-go/internal/bench/benchkit"
)

func main() {
	os.Exit(benchkit.Main(os.Args[1:], os.Stdout, os.Stderr))
}
