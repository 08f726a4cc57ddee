package benchkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// The test binary doubles as the benchmark's driver: runOnce re-executes it with driverEnv set.
func TestMain(m *testing.M) {
	if code, ok := RunDriver(countExtra); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// countExtra is an Extra configuration, "count": the pass hooks plus an observer and a round-trip
// trace that count what they see; its Check fails the run unless they saw every tool call and
// both hook round trips of each (so the driver added the Setup's options after its own hooks and
// chained its round-trip trace).
var countExtra = Extra{Name: "count", Base: hooksPass, Setup: func() (Setup, error) {
	obs := &finishCounter{}
	var rts atomic.Int64
	return Setup{
		Options:   []v2.Option{v2.WithObserver(obs)},
		RoundTrip: func(shared.RoundTrip) { rts.Add(1) },
		Check: func(calls int) error {
			if got := obs.n.Load(); got != int64(calls) {
				return fmt.Errorf("observed %d finished calls, want %d", got, calls)
			}
			if got := rts.Load(); got != int64(2*calls) {
				return fmt.Errorf("traced %d round trips, want %d", got, 2*calls)
			}
			return nil
		},
	}, nil
}}

type finishCounter struct{ n atomic.Int64 }

func (c *finishCounter) Observe(o v2.Observation) {
	if _, ok := o.(*v2.ToolFinished); ok {
		c.n.Add(1)
	}
}

// A smoke run of the end-to-end benchmark against the real CLI: N=5 sequential tool calls with every
// Go configuration and an Extra one (countExtra), and N=10 in one message of ten with the SDK's pass-through hooks and observers
// (the TS driver needs -ts and is left out), and N=5 sequential calls of the in-process MCP tool
// with the SDK (the bare driver skips that shape). It checks that each driver saw every tool call,
// that hooks cost round trips exactly where they should (pass: two per call; deny: one; nohooks,
// observe and mcp10: none), that each MCP call is one mcp_message round trip and that the report
// is well-formed. No timing is asserted: the numbers are for
// `go run ./internal/bench`.
func TestSmoke(t *testing.T) {
	bin := claudetest.RequireCLI(t)
	if testing.Short() {
		t.Skip("drives the real CLI 13 times")
	}
	perCall := map[string]int{hooksNone: 0, hooksPass: 2, hooksDeny: 1, hooksObserve: 0, hooksMCP10: 0, countExtra.Name: 2}
	for _, tc := range []struct {
		shape   string
		n       int
		configs []Config
	}{
		{"seq", 5, append(DefaultConfigs(false), Config{"sdk", countExtra.Name})},
		{"par", 10, []Config{{"sdk", hooksPass}, {"sdk", hooksObserve}}},
		{"tools", 5, []Config{{"bare", hooksNone}, {"sdk", hooksNone}, {"sdk", hooksMCP10}}},
	} {
		// The shapes are independent runs of the CLI: in parallel, each one's CLIs still one at a time.
		t.Run(tc.shape, func(t *testing.T) {
			t.Parallel()
			var progress bytes.Buffer
			res, err := Run(context.Background(), Options{N: tc.n, Runs: 1, Shapes: []string{tc.shape}, CLI: bin,
				Configs: tc.configs, Progress: &progress})
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, progress.String())
			}
			t.Logf("progress:\n%s", progress.String())
			want := 0
			for _, c := range tc.configs {
				if runs(tc.shape, c) {
					want++
				}
			}
			if len(res.Rows) != want || len(res.Raw) != want {
				t.Fatalf("%d rows, %d runs; want %d", len(res.Rows), len(res.Raw), want)
			}
			for _, r := range res.Raw {
				wantRTs := perCall[r.Config.Hooks] * tc.n
				if isTools(r.Shape) {
					wantRTs = tc.n // one mcp_message per call
				}
				if got := len(r.Report.RoundTripNS); got != wantRTs {
					t.Errorf("%s %s: %d round trips, want %d", r.Shape, r.Config, got, wantRTs)
				}
				if r.Report.WallNS <= 0 || r.Report.StartNS <= 0 || r.Report.ToolResults != tc.n {
					t.Errorf("%s %s: %+v", r.Shape, r.Config, r.Report)
				}
				// The Go SDK reports each round trip in three parts, which add up to it.
				if got, want := len(r.Report.PartsNS), len(r.Report.RoundTripNS); r.Config.Driver == "sdk" && got != want {
					t.Errorf("%s %s: %d round trips in parts, want %d", r.Shape, r.Config, got, want)
				}
				for i, p := range r.Report.PartsNS {
					if p[0] < 0 || p[1] < 0 || p[2] < 0 || p[0]+p[1]+p[2] != r.Report.RoundTripNS[i] {
						t.Errorf("%s %s: parts %v of a round trip of %d ns", r.Shape, r.Config, p, r.Report.RoundTripNS[i])
					}
				}
			}
			// A fair comparison: every driver makes the CLI send the same request. The system prompt
			// is the TypeScript SDK's default (empty: the CLI adds only its one-line billing header,
			// ~140 bytes, where its own prompt is ~7 KB), and whole requests differ only by ids and
			// temporary paths. (An MCP server adds its tools' names: the configurations with the
			// same number of MCP tools are compared.)
			minReq, maxReq := map[int]int{}, map[int]int{}
			for _, r := range res.Raw {
				if r.Report.SystemBytes == 0 || r.Report.SystemBytes > 512 {
					t.Errorf("%s %s: a system prompt of %d bytes, want the empty one of the TypeScript SDK's default", r.Shape, r.Config, r.Report.SystemBytes)
				}
				k := mcpTools(r.Shape, r.Config)
				if v, ok := minReq[k]; !ok || r.Report.RequestBytes < v {
					minReq[k] = r.Report.RequestBytes
				}
				maxReq[k] = max(maxReq[k], r.Report.RequestBytes)
			}
			for k := range minReq {
				if maxReq[k]-minReq[k] > 64 {
					t.Errorf("%s, %d MCP tools: first requests of %d to %d bytes: the drivers do not send the same request", tc.shape, k, minReq[k], maxReq[k])
				}
			}
			var table bytes.Buffer
			res.WriteTable(&table)
			if !strings.Contains(table.String(), tc.configs[len(tc.configs)-1].String()) || !strings.Contains(table.String(), "dispatch") || !strings.Contains(table.String(), "req B") {
				t.Errorf("table:\n%s", table.String())
			}
			b, err := json.Marshal(res.compact())
			if err != nil || bytes.Contains(b, []byte(`"rt_ns"`)) || bytes.Contains(b, []byte(`"rt_parts_ns"`)) {
				t.Errorf("compact JSON (%v): %.300s", err, b)
			}
		})
	}
}

func TestBenchMainFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"-bogus"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d for a bad flag, want 2", code)
	}
}
