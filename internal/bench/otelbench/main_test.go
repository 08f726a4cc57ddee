package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/internal/bench/benchkit"
)

// The test binary doubles as the benchmark's driver, with this command's configurations.
func TestMain(m *testing.M) {
	if code, ok := benchkit.RunDriver(extras...); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// A smoke run of the command's configurations against the real CLI: N=5 sequential Bash calls
// with sdk/nohooks, sdk/otel and sdk/otelpass. Each otel run fails unless, after the session, the
// exporter got an execute_tool span and the Prometheus registry counted a call for every tool
// call; otelpass must also keep the benchmark's own round-trip trace (two hook round trips per
// call: the instrumentation's is chained after it, not in its place). No timing is asserted.
func TestSmoke(t *testing.T) {
	bin := claudetest.RequireCLI(t)
	if testing.Short() {
		t.Skip("drives the real CLI 3 times")
	}
	const n = 5
	configs := []benchkit.Config{{Driver: "sdk", Hooks: "nohooks"}, {Driver: "sdk", Hooks: "otel"}, {Driver: "sdk", Hooks: "otelpass"}}
	var progress bytes.Buffer
	res, err := benchkit.Run(context.Background(), benchkit.Options{N: n, Runs: 1, Shapes: []string{"seq"}, CLI: bin,
		Configs: configs, Progress: &progress})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, progress.String())
	}
	t.Logf("progress:\n%s", progress.String())
	if len(res.Raw) != len(configs) {
		t.Fatalf("%d runs, want %d", len(res.Raw), len(configs))
	}
	wantRTs := map[string]int{"nohooks": 0, "otel": 0, "otelpass": 2 * n}
	for _, r := range res.Raw {
		if r.Report.ToolResults != n {
			t.Errorf("%s: %d tool results, want %d", r.Config, r.Report.ToolResults, n)
		}
		if got := len(r.Report.RoundTripNS); got != wantRTs[r.Config.Hooks] {
			t.Errorf("%s: %d round trips, want %d", r.Config, got, wantRTs[r.Config.Hooks])
		}
	}
	var table bytes.Buffer
	res.WriteTable(&table)
	if !strings.Contains(table.String(), "sdk/otelpass") {
		t.Errorf("table:\n%s", table.String())
	}
}
