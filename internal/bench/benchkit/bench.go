// Package benchkit is the end-to-end benchmark of internal/bench (its package doc says what it
// measures and how): the orchestrator, the drivers and the report. It is a library so that another
// command can run the same benchmark with configurations of its own (Extra) that the core module
// cannot depend on: internal/bench/otelbench adds sdk/otel, the OpenTelemetry instrumentation.
//
// A command calls Main, which runs the benchmark or, in a driver process that the benchmark
// started (the same executable, re-run), the driver; a test binary that runs the benchmark calls
// RunDriver from its TestMain.
package benchkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// Main is the benchmark's command: it runs the benchmark with the flags in args (those of
// internal/bench) and prints the table and the BENCH line to stdout, or, in a driver process the
// benchmark started, runs the driver. It returns the exit code: 0, 1 for a failed benchmark, 2 for
// bad flags. extra are configurations of the sdk driver added to the built-in ones (and to the
// default -configs).
func Main(args []string, stdout, stderr io.Writer, extra ...Extra) int {
	if code, ok := RunDriver(extra...); ok {
		return code
	}
	return benchMain(args, stdout, stderr, extra)
}

// RunDriver runs this process as a benchmark driver if the benchmark started it as one (an
// environment variable says so) and returns the driver's exit code and true; otherwise it returns
// 0 and false at once. The benchmark runs its drivers by re-running its own executable: a test
// binary that calls Run must call RunDriver first thing in TestMain, with the same extra as the
// configurations it runs.
func RunDriver(extra ...Extra) (code int, ok bool) {
	kind := os.Getenv(driverEnv)
	if kind == "" {
		return 0, false
	}
	return driverMain(kind, extra), true
}

// Config is one driver with one hook configuration.
type Config struct {
	Driver string `json:"driver"`
	Hooks  string `json:"hooks"`
}

func (c Config) String() string { return c.Driver + "/" + c.Hooks }

// Options of one benchmark.
type Options struct {
	N      int
	Runs   int
	Shapes []string
	CLI    string
	// TSDir is where @anthropic-ai/claude-agent-sdk is installed (its node_modules' parent); ""
	// leaves the TS driver out.
	TSDir   string
	Configs []Config
	// ProfileDir, if set, gets a CPU profile of each Go driver run, named shape-driver-hooks-round.pprof.
	ProfileDir string
	// Progress, if set, gets a line per run.
	Progress io.Writer
}

func benchMain(args []string, stdout, stderr io.Writer, extra []Extra) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 100, "tool calls per run")
	runs := fs.Int("runs", 5, "runs per configuration (interleaved)")
	shapes := fs.String("shapes", "seq,par", "workloads: seq (one tool_use per message), par (ten per message), start (none), tools and toolspar (as seq and par, calling an in-process MCP tool)")
	cliPath := fs.String("cli", "", "the Claude CLI (default: the pinned install, or $CLAUDE_CLI_PATH)")
	tsDir := fs.String("ts", "", "directory where @anthropic-ai/claude-agent-sdk is installed (adds the TS driver)")
	configs := fs.String("configs", "", "comma-separated driver/hooks to run (default: all)")
	quiet := fs.Bool("q", false, "no progress lines")
	profDir := fs.String("cpuprofile", "", "directory for a CPU profile of each Go driver run (1 kHz)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o := Options{N: *n, Runs: *runs, Shapes: strings.Split(*shapes, ","), CLI: *cliPath, TSDir: *tsDir, ProfileDir: *profDir}
	if o.CLI == "" {
		p, err := claudetest.FindCLI()
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		o.CLI = p
	}
	o.Configs = DefaultConfigs(o.TSDir != "")
	for _, e := range extra {
		o.Configs = append(o.Configs, Config{Driver: "sdk", Hooks: e.Name})
	}
	if *configs != "" {
		o.Configs = nil
		for _, c := range strings.Split(*configs, ",") {
			d, h, _ := strings.Cut(c, "/")
			o.Configs = append(o.Configs, Config{Driver: d, Hooks: h})
		}
	}
	if !*quiet {
		o.Progress = stderr
	}
	res, err := Run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	res.WriteTable(stdout)
	b, _ := json.Marshal(res.compact())
	fmt.Fprintf(stdout, "BENCH %s\n", b)
	return 0
}

// DefaultConfigs returns every configuration; the TS ones only with withTS.
func DefaultConfigs(withTS bool) []Config {
	cs := []Config{
		{"bare", hooksNone}, {"bare", hooksPass}, {"bare", hooksDeny},
		{"sdk", hooksNone}, {"sdk", hooksPass}, {"sdk", hooksDeny}, {"sdk", hooksObserve}, {"sdk", hooksMCP10},
	}
	if withTS {
		cs = append(cs, Config{"ts", hooksNone}, Config{"ts", hooksPass}, Config{"ts", hooksDeny}, Config{"ts", hooksMCP10})
	}
	return cs
}

// Result is a whole benchmark.
type Result struct {
	Machine Machine  `json:"machine"`
	N       int      `json:"n"`
	Runs    int      `json:"runs"`
	Rows    []Row    `json:"rows"`
	Raw     []RunRec `json:"raw"`
}

// Machine describes where the benchmark ran.
type Machine struct {
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPUs       int    `json:"cpus"`
	CPU        string `json:"cpu"`
	GoVersion  string `json:"go"`
	CLIVersion string `json:"cli"`
	Node       string `json:"node,omitempty"`
	TSSDK      string `json:"ts_sdk,omitempty"`
	LoadAvg    string `json:"loadavg"`
}

// RunRec is one run.
type RunRec struct {
	Shape  string `json:"shape"`
	Config Config `json:"config"`
	Round  int    `json:"round"`
	Report Report `json:"report"`
}

// Row summarises one configuration on one workload (medians over the runs).
type Row struct {
	Shape  string `json:"shape"`
	Config Config `json:"config"`
	Runs   int    `json:"runs"`
	// WallMS is the median wall time of the turn; StartMS of the start (spawn to initialize
	// answered).
	WallMS  float64 `json:"wall_ms"`
	StartMS float64 `json:"start_ms"`
	// StartCPUMS is the driver's median CPU time during the start.
	StartCPUMS float64 `json:"start_cpu_ms"`
	// FirstMS: from asking for the session to the first assistant message (Report.FirstNS).
	FirstMS float64 `json:"first_ms"`
	// PerCallMS is (WallMS - the same driver's nohooks WallMS) / N; Ratio is WallMS / that.
	PerCallMS float64 `json:"per_call_ms"`
	Ratio     float64 `json:"ratio"`
	// RTP50US, RTP99US: the driver's round trip over every hook request of every run.
	RTP50US float64 `json:"rt_p50_us"`
	RTP99US float64 `json:"rt_p99_us"`
	RTs     int     `json:"rts"`
	// PartsP50US: the p50 of each part of the round trip (decode, dispatch, answer; see
	// Report.PartsNS), where the driver reports them.
	PartsP50US *[3]float64 `json:"rt_parts_p50_us,omitempty"`
	// CPUPerCallMS is the driver's median CPU time per tool call; AddedCPUPerCallMS is that minus
	// the same driver's nohooks.
	CPUPerCallMS      float64 `json:"cpu_per_call_ms"`
	AddedCPUPerCallMS float64 `json:"added_cpu_per_call_ms"`
	// RequestBytes is the median size of the run's first model request (Report.RequestBytes): the
	// same for every driver, or the comparison is not fair.
	RequestBytes float64 `json:"request_bytes"`
}

// Run runs the benchmark.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.N < 10 && (slices.Contains(o.Shapes, "par") || slices.Contains(o.Shapes, "toolspar")) {
		return nil, errors.New("the par and toolspar workloads need N >= 10")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	res := &Result{N: o.N, Runs: o.Runs, Machine: machine(o)}
	for r := 0; r < o.Runs; r++ {
		for _, shape := range o.Shapes {
			for i := range o.Configs {
				c := o.Configs[(i+r)%len(o.Configs)]
				if !runs(shape, c) {
					continue
				}
				rep, err := runOnce(ctx, exe, o, shape, c, r)
				if err != nil {
					return nil, fmt.Errorf("%s %s round %d: %w", shape, c, r, err)
				}
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "round %d %-8s %-13s wall %7.1f ms  start %6.1f ms  first %7.1f ms  rts %4d  cpu %6.1f ms  request %d B (system %d B, %d tools)\n",
						r, shape, c, ms(rep.WallNS), ms(rep.StartNS), ms(rep.FirstNS), len(rep.RoundTripNS), ms(rep.CPUNS), rep.RequestBytes, rep.SystemBytes, rep.Tools)
				}
				res.Raw = append(res.Raw, RunRec{Shape: shape, Config: c, Round: r, Report: rep})
			}
		}
	}
	res.summarise(o)
	return res, nil
}

// runs says whether configuration c runs workload shape: the bare driver has no MCP server.
func runs(shape string, c Config) bool {
	return c.Driver != "bare" || !isTools(shape)
}

// isTools says whether shape calls the in-process MCP tool.
func isTools(shape string) bool { return shape == "tools" || shape == "toolspar" }

// mcpTools is the number of tools of the driver's in-process MCP server (0: none).
func mcpTools(shape string, c Config) int {
	switch {
	case c.Hooks == hooksMCP10:
		return 10
	case isTools(shape):
		return 1
	}
	return 0
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// workload returns the fake API's answer to main-loop request i.
func workload(shape string, n int) claudetest.ReplyFunc {
	return func(r claudetest.Request) claudetest.Reply {
		tool, cmd := "Bash", func(k int) map[string]any {
			return map[string]any{"command": fmt.Sprintf("echo %d", k), "description": "bench"}
		}
		if isTools(shape) {
			tool, cmd = mcpTool, func(k int) map[string]any { return map[string]any{"text": fmt.Sprint(k)} }
		}
		switch shape {
		case "seq", "tools":
			if r.Index < n {
				return claudetest.ToolReply(fmt.Sprintf("toolu_%04d", r.Index), tool, cmd(r.Index))
			}
		case "par", "toolspar":
			if r.Index < n/10 {
				uses := make([]claudetest.ToolUse, 10)
				for j := range uses {
					k := r.Index*10 + j
					uses[j] = claudetest.ToolUse{ID: fmt.Sprintf("toolu_%04d", k), Name: tool, Input: cmd(k)}
				}
				return claudetest.ToolsReply(uses...)
			}
		}
		return claudetest.TextReply("done")
	}
}

// calls is the number of tool calls a workload makes.
func calls(shape string, n int) int {
	switch shape {
	case "par", "toolspar":
		return n / 10 * 10
	case "start":
		return 0
	}
	return n
}

// runOnce runs one configuration once: a fresh fake API, HOME and project, and a driver process.
func runOnce(ctx context.Context, exe string, o Options, shape string, c Config, round int) (Report, error) {
	api := claudetest.NewModelFunc(workload(shape, o.N))
	defer api.Close()
	tmp, err := os.MkdirTemp("", "agent-sdk-bench-")
	if err != nil {
		return Report{}, err
	}
	defer os.RemoveAll(tmp)
	home, project := filepath.Join(tmp, "home"), filepath.Join(tmp, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Report{}, err
		}
	}
	spec := Spec{CLI: o.CLI, Dir: project, Hooks: c.Hooks, Calls: calls(shape, o.N), Audit: filepath.Join(tmp, "audit.jsonl"),
		MCPTools: mcpTools(shape, c)}
	sb, _ := json.Marshal(spec)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	var cmd *exec.Cmd
	switch c.Driver {
	case "sdk", "bare":
		cmd = exec.CommandContext(ctx, exe)
		cmd.Env = append(claudetest.CLIEnv(home, api.URL()), driverEnv+"="+c.Driver, specEnv+"="+string(sb),
			// A race-enabled driver (the test binary under -race) would otherwise sleep 1 s at exit.
			"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
		if o.ProfileDir != "" {
			cmd.Env = append(cmd.Env, profileEnv+"="+filepath.Join(o.ProfileDir, fmt.Sprintf("%s-%s-%s-%d.pprof", shape, c.Driver, c.Hooks, round)))
		}
	case "ts":
		if o.TSDir == "" {
			return Report{}, errors.New("the ts driver needs -ts")
		}
		script := filepath.Join(tmp, "tsdriver.mjs")
		if err := os.WriteFile(script, tsDriver, 0o644); err != nil {
			return Report{}, err
		}
		cmd = exec.CommandContext(ctx, "node", script)
		cmd.Env = append(claudetest.CLIEnv(home, api.URL()), specEnv+"="+string(sb), "AGENT_SDK_BENCH_TS_SDK="+o.TSDir)
	default:
		return Report{}, fmt.Errorf("unknown driver %q", c.Driver)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Report{}, fmt.Errorf("driver: %w (stderr: %s)", err, tail(stderr.String()))
	}
	var rep Report
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	var last []byte
	for sc.Scan() {
		last = sc.Bytes()
	}
	if err := json.Unmarshal(last, &rep); err != nil {
		return Report{}, fmt.Errorf("driver output %q: %w (stderr: %s)", tail(string(out)), err, tail(stderr.String()))
	}
	if rep.Error != "" {
		return rep, fmt.Errorf("driver: %s (stderr: %s)", rep.Error, tail(stderr.String()))
	}
	if reqs := api.Requests(); len(reqs) > 0 {
		rep.RequestBytes, rep.SystemBytes, rep.Tools = len(reqs[0].Body), len(reqs[0].System), len(reqs[0].Tools)
	}
	if c.Hooks == hooksObserve && rep.Observed != spec.Calls {
		return rep, fmt.Errorf("the observer saw %d calls, want %d", rep.Observed, spec.Calls)
	}
	return rep, nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
