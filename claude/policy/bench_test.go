package policy

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkPolicy decides each command of the corpus in turn (the benign set, the escapes and the
// class escapes, unwrapped) and reports the p50 and p99 of the per-decision times, and the p99 and
// maximum over the commands of each command's median time (med-p99-µs, med-max-µs): on a shared
// machine the raw p99 measures the scheduler as much as the analysis.
func BenchmarkPolicy(b *testing.B) {
	f := newFixture(b)
	p := f.policy()
	var corpus []string
	for _, r := range corpusRows() {
		corpus = append(corpus, r.cmd)
	}
	per := make([][]time.Duration, len(corpus))
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % len(corpus)
		start := time.Now()
		p.Bash(f.root, corpus[k])
		d := time.Since(start)
		times = append(times, d)
		per[k] = append(per[k], d)
	}
	b.StopTimer()
	slices.Sort(times)
	var medians []time.Duration
	for _, ts := range per {
		if len(ts) > 0 {
			slices.Sort(ts)
			medians = append(medians, ts[len(ts)/2])
		}
	}
	slices.Sort(medians)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
		b.ReportMetric(float64(medians[len(medians)*99/100].Microseconds()), "med-p99-µs")
		b.ReportMetric(float64(medians[len(medians)-1].Microseconds()), "med-max-µs")
	}
}
