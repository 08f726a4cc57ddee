package benchkit

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A driver is one process that runs the CLI through one workload and reports what it measured.
// The orchestrator starts it with driverEnv=kind and the spec in specEnv; it prints one JSON line
// (a Report) on stdout. Drivers run in processes of their own so that their CPU time is theirs only
// (the fake API runs in the orchestrator, the CLI is a child, not counted by RUSAGE_SELF).
const (
	driverEnv = "AGENT_SDK_BENCH_DRIVER"
	specEnv   = "AGENT_SDK_BENCH_SPEC"
)

// Hook configurations.
const (
	hooksNone    = "nohooks" // no hook registered
	hooksPass    = "pass"    // PreToolUse + PostToolUse on every tool, answering "no opinion"
	hooksDeny    = "deny"    // PreToolUse on every tool, answering deny
	hooksObserve = "observe" // no hook; an audit observer and a metrics observer (Go SDK only)
	hooksMCP10   = "mcp10"   // no hook; an in-process MCP server "bench" of 10 tools (sdk and ts)
	// hooksPrewarm (sdk only, not in the defaults: -configs sdk/prewarm): no hook; the session is a
	// spare started with v2.Prewarm and ready before the measured start, which is then its Take.
	hooksPrewarm = "prewarm"
	// hooksPark (sdk only, -configs sdk/park): no hook; the session is a CLI parked with v2.Park
	// (in a directory of its own) and ready before the measured start, which is then its Claim
	// of the benchmark's directory.
	hooksPark = "park"
)

// The in-process MCP tools: a server named mcpServer whose tools are echo, echo1, ... echo9, each
// answering its input's text; the tools shapes call mcpTool, read-only so that the CLI runs the
// calls of one message concurrently.
const (
	mcpServer = "bench"
	mcpTool   = "mcp__bench__echo"
)

// Extra is a configuration of the sdk driver that a command adds to the built-in hook
// configurations (Main, RunDriver): -configs names it sdk/Name.
type Extra struct {
	// Name is the configuration's name (the part after "sdk/"); it must differ from the
	// built-in ones.
	Name string
	// Base is the built-in hook configuration it adds to: "" or "nohooks" (no hook), "pass" or
	// "deny". The summary still compares every configuration with nohooks.
	Base string
	// Setup is called in the driver process before the session starts; what it returns is added
	// to the session.
	Setup func() (Setup, error)
}

// Setup is what an Extra adds to one driver's session.
type Setup struct {
	// Options are added to the session's options, after the driver's own.
	Options []v2.Option
	// RoundTrip, if set, is called after the driver's own round-trip trace, for each round trip
	// (a session has one v2.WithRoundTripTrace: the driver chains them).
	RoundTrip func(shared.RoundTrip)
	// Check, if set, is called after the session's Close, outside the measured time, with the
	// number of tool calls the workload made: it flushes and releases what Setup made and checks
	// that the configuration saw every call. An error fails the run.
	Check func(calls int) error
}

// benchSystemPrompt is the system prompt every driver gives the CLI: the TypeScript SDK's default
// (@anthropic-ai/claude-agent-sdk 0.3.x sends an empty systemPrompt unless told otherwise, where
// the CLI alone uses its own, some 7 KB), so that every driver makes the CLI send the model the same
// request (the orchestrator records its size: Report.RequestBytes).
const benchSystemPrompt = ""

// Spec is what a driver runs.
type Spec struct {
	CLI   string `json:"cli"`
	Dir   string `json:"dir"`
	Hooks string `json:"hooks"`
	// Calls is the number of tool calls the workload makes (the fake API decides; the driver
	// checks it saw them all).
	Calls int `json:"calls"`
	// Audit is the file the audit observer appends to.
	Audit string `json:"audit,omitempty"`
	// MCPTools is the number of tools of the in-process MCP server mcpServer; 0: no server.
	MCPTools int `json:"mcp_tools,omitempty"`
}

// Report is what a driver measured.
type Report struct {
	// StartNS: from starting the CLI to the initialize answer (CreateSession's return).
	StartNS int64 `json:"start_ns"`
	// StartCPUNS: the driver's own CPU time during StartNS (an upper bound of what it adds to the
	// CLI's start).
	StartCPUNS int64 `json:"start_cpu_ns"`
	// FirstNS: from asking for the session (CreateSession, or a prewarmed spare's Take) to the
	// turn's first assistant message: what a user waits for the first answer to start.
	FirstNS int64 `json:"first_ns,omitempty"`
	// WallNS: from writing the prompt to reading its result.
	WallNS int64 `json:"wall_ns"`
	// CPUNS: the driver process's own CPU time (user + system) during WallNS.
	CPUNS int64 `json:"cpu_ns"`
	// RoundTripNS: for each hook or mcp_message request read during the turn (WallNS), from its
	// line read to its answer written.
	RoundTripNS []int64 `json:"rt_ns,omitempty"`
	// PartsNS: for each hook request (Go SDK only), its round trip's parts: decode (line read ->
	// decoded), dispatch (-> answer decided, the handlers included) and answer (-> written).
	PartsNS [][3]int64 `json:"rt_parts_ns,omitempty"`
	// ToolResults counts the tool results the driver saw on the stream.
	ToolResults int `json:"tool_results"`
	// Observed counts the ToolFinished observations (observe only).
	Observed int    `json:"observed,omitempty"`
	Error    string `json:"error,omitempty"`
	// The first model request of the run, as the fake API recorded it (set by the orchestrator,
	// not the driver): every driver must send the same request for the comparison to be fair.
	// RequestBytes is its body's size, SystemBytes its system prompt's, Tools the tools offered.
	RequestBytes int `json:"request_bytes,omitempty"`
	SystemBytes  int `json:"system_bytes,omitempty"`
	Tools        int `json:"tools,omitempty"`
}

func driverMain(kind string, extra []Extra) int {
	var spec Spec
	if err := json.Unmarshal([]byte(os.Getenv(specEnv)), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "bench driver: bad spec:", err)
		return 2
	}
	var rep Report
	var err error
	switch kind {
	case "sdk":
		rep, err = runSDK(spec, extra)
	case "bare":
		rep, err = runBare(spec)
	default:
		err = fmt.Errorf("unknown driver %q", kind)
	}
	if err == nil && rep.ToolResults != spec.Calls {
		err = fmt.Errorf("saw %d tool results, want %d", rep.ToolResults, spec.Calls)
	}
	if err != nil {
		rep.Error = err.Error()
	}
	b, _ := json.Marshal(rep)
	os.Stdout.Write(append(b, '\n'))
	return 0
}

// profileEnv names a file for a CPU profile of the driver during the turn (sdk and bare drivers),
// sampled at 1 kHz.
const profileEnv = "AGENT_SDK_BENCH_CPUPROFILE"

// startProfile starts the CPU profile of profileEnv, if set, and returns its stop function.
func startProfile() (stop func()) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench driver:", err)
		return func() {}
	}
	runtime.SetCPUProfileRate(1000) // before StartCPUProfile, which then warns that the rate is set
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "bench driver:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// rtLog keeps round-trip times of the requests read once the turn began; the trace runs on the
// goroutines that answer requests.
type rtLog struct {
	mu    sync.Mutex
	since time.Time // zero: keep nothing yet
	ns    []int64
	parts [][3]int64
}

func (l *rtLog) begin(t time.Time) {
	l.mu.Lock()
	l.since = t
	l.mu.Unlock()
}

func (l *rtLog) add(rt shared.RoundTrip) {
	d := int64(rt.Written.Sub(rt.Read))
	p := [3]int64{int64(rt.Decoded.Sub(rt.Read)), int64(rt.Answered.Sub(rt.Decoded)), int64(rt.Written.Sub(rt.Answered))}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.since.IsZero() || rt.Read.Before(l.since) {
		return
	}
	l.ns = append(l.ns, d)
	l.parts = append(l.parts, p)
}

func passThrough(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil }

func denyAll(context.Context, shared.HookInput) (shared.HookOutput, error) {
	return shared.Deny("denied by the benchmark"), nil
}

// runSDK runs the workload through the Go SDK (claude/v2), with the hook configuration spec.Hooks:
// a built-in one or one of extra.
func runSDK(spec Spec, extra []Extra) (Report, error) {
	var rep Report
	hooks, ex, setup, err := extraSetup(spec, extra)
	if err != nil {
		return rep, err
	}
	rts := &rtLog{ns: make([]int64, 0, 2*spec.Calls), parts: make([][3]int64, 0, 2*spec.Calls)}
	trace := rts.add
	if setup.RoundTrip != nil {
		trace = func(rt shared.RoundTrip) {
			rts.add(rt)
			setup.RoundTrip(rt)
		}
	}
	opts := []v2.Option{
		v2.WithCLIPath(spec.CLI), v2.WithCwd(spec.Dir), v2.WithAllowedTools("Bash"),
		v2.WithSystemPrompt(benchSystemPrompt),
		v2.WithLogger(slog.New(slog.DiscardHandler)), v2.WithRoundTripTrace(trace),
	}
	if spec.MCPTools > 0 {
		opts = append(opts, v2.WithMCPServer(mcpServer, mcptools.Server(newMCPServer(spec.MCPTools))),
			v2.WithAllowedTools(mcpTool))
	}
	hookOpts, met, closeAudit, err := sdkHooks(spec, hooks)
	if err != nil {
		return rep, err
	}
	defer closeAudit()
	opts = append(append(opts, hookOpts...), setup.Options...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var spare *v2.Spare
	var parked *v2.Parked
	switch hooks {
	case hooksPrewarm:
		spare = v2.Prewarm(ctx, opts...)
		defer spare.Close()
		<-spare.Ready() // warmed while nobody waited: not measured
	case hooksPark:
		parked = v2.Park(ctx, append(opts, v2.WithCwd(os.TempDir()))...)
		defer parked.Close()
		<-parked.Ready() // parked while nobody waited: not measured
	}
	t0, sc0 := time.Now(), processCPU()
	var s *v2.Session
	if parked != nil {
		s, err = parked.Claim(ctx, v2.ClaimOptions{Cwd: spec.Dir})
	} else {
		s, err = startSession(ctx, spare, opts)
	}
	if err != nil {
		return rep, err
	}
	defer s.Close()
	rep.StartNS, rep.StartCPUNS = int64(time.Since(t0)), int64(processCPU()-sc0)
	if err := runTurn(ctx, s, &rep, rts, t0); err != nil {
		return rep, err
	}
	if err := s.Close(); err != nil {
		return rep, err
	}
	rts.mu.Lock()
	rep.RoundTripNS, rep.PartsNS = rts.ns, rts.parts
	rts.mu.Unlock()
	if met != nil {
		rep.Observed = met.finished()
	}
	if setup.Check != nil {
		if err := setup.Check(spec.Calls); err != nil {
			return rep, fmt.Errorf("%s: %w", ex.Name, err)
		}
	}
	return rep, nil
}

// extraSetup finds the Extra configuration spec names, if any, and runs its Setup: the base
// hooks configuration to run, the Extra (nil for a built-in one) and what its Setup gave.
func extraSetup(spec Spec, extra []Extra) (hooks string, ex *Extra, setup Setup, err error) {
	hooks = spec.Hooks
	for i := range extra {
		if extra[i].Name == spec.Hooks {
			ex = &extra[i]
			hooks = cmp.Or(ex.Base, hooksNone)
		}
	}
	if ex != nil {
		if setup, err = ex.Setup(); err != nil {
			return "", nil, setup, fmt.Errorf("%s: %w", ex.Name, err)
		}
	}
	return hooks, ex, setup, nil
}

// sdkHooks is the options of a built-in hooks configuration, the metrics observer of
// "observe" (else nil) and a function that closes its audit file.
func sdkHooks(spec Spec, hooks string) (opts []v2.Option, met *metricsObserver, closeAudit func(), err error) {
	closeAudit = func() {}
	switch hooks {
	case hooksNone, hooksMCP10, hooksPrewarm, hooksPark:
	case hooksPass:
		opts = append(opts, v2.WithHooks(shared.Hooks{
			shared.HookEventPreToolUse:  {{Handler: shared.HookHandlerFunc(passThrough)}},
			shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(passThrough)}},
		}))
	case hooksDeny:
		opts = append(opts, v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(denyAll)}}}))
	case hooksObserve:
		aud, err := newAuditObserver(spec.Audit)
		if err != nil {
			return nil, nil, closeAudit, err
		}
		closeAudit = func() { aud.f.Close() }
		met = newMetricsObserver()
		opts = append(opts, v2.WithObserver(aud), v2.WithObserver(met))
	default:
		return nil, nil, closeAudit, fmt.Errorf("unknown hooks %q", spec.Hooks)
	}
	return opts, met, closeAudit, nil
}

// startSession takes the session from spare, if not nil, else creates it.
func startSession(ctx context.Context, spare *v2.Spare, opts []v2.Option) (*v2.Session, error) {
	if spare != nil {
		return spare.Take(ctx)
	}
	return v2.CreateSession(ctx, opts...)
}

// runTurn runs the benchmark's turn on s, the measured part: wall and CPU time, tool results,
// and the time from t0 (the session asked for) to the first assistant message.
func runTurn(ctx context.Context, s *v2.Session, rep *Report, rts *rtLog, t0 time.Time) error {
	stopProfile := startProfile()
	c0, w0 := processCPU(), time.Now()
	rts.begin(w0)
	var res *shared.ResultMessage
	for m, err := range s.Query(ctx, "run the benchmark") {
		if err != nil {
			stopProfile()
			return err
		}
		switch v := m.(type) {
		case *shared.AssistantMessage:
			if rep.FirstNS == 0 {
				rep.FirstNS = int64(time.Since(t0))
			}
		case *shared.UserMessage:
			for _, b := range v.Blocks {
				if b.Type == "tool_result" {
					rep.ToolResults++
				}
			}
		case *shared.ResultMessage:
			res = v
		}
	}
	rep.WallNS, rep.CPUNS = int64(time.Since(w0)), int64(processCPU()-c0)
	stopProfile()
	if res == nil || res.IsError {
		return errors.New("the turn failed")
	}
	return nil
}

// echoInput is the input of the MCP echo tools.
type echoInput struct {
	Text string `json:"text" jsonschema:"the text to answer"`
}

// newMCPServer returns the in-process MCP server of the tools workloads, with n tools: echo,
// echo1, ... each read-only, answering its input's text.
func newMCPServer(n int) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: mcpServer, Version: "1.0.0"}, nil)
	for i := range n {
		name := "echo"
		if i > 0 {
			name = fmt.Sprintf("echo%d", i)
		}
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "Answer the text", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
			})
	}
	return srv
}
