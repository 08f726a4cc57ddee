package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/internal/cli"
)

// The test binary doubles as the benchmark's driver: runOnce re-executes it with driverEnv set.
func TestMain(m *testing.M) {
	if kind := os.Getenv(driverEnv); kind != "" {
		os.Exit(driverMain(kind))
	}
	os.Exit(m.Run())
}

// A smoke run of the end-to-end benchmark against the real CLI: N=5 sequential tool calls with every
// Go configuration, and N=10 in one message of ten with the SDK's pass-through hooks and observers
// (the TS driver needs -ts and is left out). It checks that each driver saw every tool call, that
// hooks cost round trips exactly where they should (pass: two per call; deny: one; nohooks and
// observe: none) and that the report is well-formed. No timing is asserted: the numbers are for
// `go run ./internal/bench`.
func TestSmoke(t *testing.T) {
	bin := cli.Require(t)
	if testing.Short() {
		t.Skip("drives the real CLI 9 times")
	}
	perCall := map[string]int{hooksNone: 0, hooksPass: 2, hooksDeny: 1, hooksObserve: 0}
	for _, tc := range []struct {
		shape   string
		n       int
		configs []Config
	}{
		{"seq", 5, DefaultConfigs(false)},
		{"par", 10, []Config{{"sdk", hooksPass}, {"sdk", hooksObserve}}},
	} {
		var progress bytes.Buffer
		res, err := Run(context.Background(), Options{N: tc.n, Runs: 1, Shapes: []string{tc.shape}, CLI: bin,
			Configs: tc.configs, Progress: &progress})
		if err != nil {
			t.Fatalf("Run: %v\n%s", err, progress.String())
		}
		t.Logf("progress:\n%s", progress.String())
		if len(res.Rows) != len(tc.configs) || len(res.Raw) != len(tc.configs) {
			t.Fatalf("%d rows, %d runs; want %d", len(res.Rows), len(res.Raw), len(tc.configs))
		}
		for _, r := range res.Raw {
			if got, want := len(r.Report.RoundTripNS), perCall[r.Config.Hooks]*tc.n; got != want {
				t.Errorf("%s %s: %d round trips, want %d", r.Shape, r.Config, got, want)
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
		// temporary paths.
		var minReq, maxReq int
		for i, r := range res.Raw {
			if r.Report.SystemBytes == 0 || r.Report.SystemBytes > 512 {
				t.Errorf("%s %s: a system prompt of %d bytes, want the empty one of the TypeScript SDK's default", r.Shape, r.Config, r.Report.SystemBytes)
			}
			if i == 0 || r.Report.RequestBytes < minReq {
				minReq = r.Report.RequestBytes
			}
			maxReq = max(maxReq, r.Report.RequestBytes)
		}
		if maxReq-minReq > 64 {
			t.Errorf("%s: first requests of %d to %d bytes: the drivers do not send the same request", tc.shape, minReq, maxReq)
		}
		var table bytes.Buffer
		res.WriteTable(&table)
		if !strings.Contains(table.String(), "sdk/observe") || !strings.Contains(table.String(), "dispatch") || !strings.Contains(table.String(), "req B") {
			t.Errorf("table:\n%s", table.String())
		}
		b, err := json.Marshal(res.compact())
		if err != nil || bytes.Contains(b, []byte(`"rt_ns"`)) || bytes.Contains(b, []byte(`"rt_parts_ns"`)) {
			t.Errorf("compact JSON (%v): %.300s", err, b)
		}
	}
}

func TestBenchMainFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := benchMain([]string{"-bogus"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d for a bad flag, want 2", code)
	}
}
