package policy

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkPolicy measures one decision on typical commands (the benign set, plus file-tool
// calls) and reports the p50 and p99 of the per-decision times.
func BenchmarkPolicy(b *testing.B) {
	f := newFixture(b)
	p := f.policy()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		cmd := benign[i%len(benign)]
		start := time.Now()
		p.Bash(f.root, cmd)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
	}
}
