package policy

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// worstInputs are the slowest inputs known to the analysis, each near one of its bounds.
func worstInputs() map[string]string {
	return map[string]string{
		"64 KiB of brace expansions": strings.Repeat("echo {1..4000}; ", maxCommandBytes/17),
		"64 KiB of commands":         strings.Repeat("ls; ", maxCommandBytes/5),
		"64 KiB of one word":         "echo " + strings.Repeat("a", maxCommandBytes-6),
		"nested substitutions":       strings.Repeat("$(echo ", 90) + "x" + strings.Repeat(")", 90),
		"nested sh -c":               nestShell(7),
		"recursive functions":        "f() { g; g; g; g; }; g() { h; h; h; h; }; h() { i; i; i; i; }; i() { ls; ls; ls; ls; }; f; f; f; f",
		"globs":                      "ls /*/*/*/*",
		"long pipeline":              strings.Repeat("cat main.go | ", 2000) + "wc -l",
		"many redirections":          "echo x" + strings.Repeat(" > build/x", 3000),
		"many arguments":             "ls " + strings.Repeat("src/a.txt ", 4000),
		"deep path":                  "touch " + strings.Repeat("a/", 2000) + "x",
		"long && chain":              strings.Repeat("echo a && ", 3000) + "ls",
		"find -exec many":            "find " + strings.Repeat("src ", 500) + "-exec cat {} +",
		"many cd":                    strings.Repeat("cd src && cd .. && ", 1500) + "ls",
		"arithmetic":                 "echo $((" + strings.Repeat("1+", 20000) + "1))",
	}
}

// BenchmarkWorstCase decides each of worstInputs in turn and reports the median time of the
// slowest (max-ms): the median, because on a shared machine the maximum of many runs measures
// the scheduler.
func BenchmarkWorstCase(b *testing.B) {
	f := newFixture(b)
	p := f.policy()
	inputs := worstInputs()
	times := map[string][]time.Duration{}
	for b.Loop() {
		for name, cmd := range inputs {
			start := time.Now()
			p.Bash(f.root, cmd)
			times[name] = append(times[name], time.Since(start))
		}
	}
	var worst time.Duration
	for name, ts := range times {
		slices.Sort(ts)
		med := ts[len(ts)/2]
		b.Logf("%-28s median %v", name, med)
		worst = max(worst, med)
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
}
