package benchkit

// The report: medians and percentiles of the runs, the table, the machine it ran on.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func percentile(xs []int64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return float64(s[int(p*float64(len(s)-1)+0.5)])
}

func (res *Result) summarise(o Options) {
	base := map[string]Row{} // shape + driver -> nohooks row
	for _, shape := range o.Shapes {
		for _, c := range o.Configs {
			if !runs(shape, c) {
				continue
			}
			row := Row{Shape: shape, Config: c}
			var wall, start, startCPU, first, cpu, reqBytes []float64
			var rts []int64
			var parts [3][]int64
			for _, r := range res.Raw {
				if r.Shape != shape || r.Config != c {
					continue
				}
				row.Runs++
				wall = append(wall, ms(r.Report.WallNS))
				start = append(start, ms(r.Report.StartNS))
				startCPU = append(startCPU, ms(r.Report.StartCPUNS))
				first = append(first, ms(r.Report.FirstNS))
				cpu = append(cpu, ms(r.Report.CPUNS))
				reqBytes = append(reqBytes, float64(r.Report.RequestBytes))
				rts = append(rts, r.Report.RoundTripNS...)
				for _, p := range r.Report.PartsNS {
					for k := range p {
						parts[k] = append(parts[k], p[k])
					}
				}
			}
			nc := max(float64(calls(shape, o.N)), 1)
			row.WallMS, row.StartMS, row.StartCPUMS, row.FirstMS = median(wall), median(start), median(startCPU), median(first)
			row.CPUPerCallMS = median(cpu) / nc
			row.RequestBytes = median(reqBytes)
			row.RTs = len(rts)
			row.RTP50US, row.RTP99US = percentile(rts, 0.50)/1e3, percentile(rts, 0.99)/1e3
			if len(parts[0]) > 0 {
				row.PartsP50US = &[3]float64{percentile(parts[0], 0.50) / 1e3, percentile(parts[1], 0.50) / 1e3, percentile(parts[2], 0.50) / 1e3}
			}
			res.Rows = append(res.Rows, row)
			if c.Hooks == hooksNone {
				base[shape+"/"+c.Driver] = row
			}
		}
	}
	for i := range res.Rows {
		r := &res.Rows[i]
		b, ok := base[r.Shape+"/"+r.Config.Driver]
		if !ok || b.WallMS == 0 {
			continue
		}
		nc := max(float64(calls(r.Shape, o.N)), 1)
		r.PerCallMS = (r.WallMS - b.WallMS) / nc
		r.Ratio = r.WallMS / b.WallMS
		r.AddedCPUPerCallMS = r.CPUPerCallMS - b.CPUPerCallMS
	}
}

// compact returns res without the raw round-trip samples (the rows have their percentiles), for a
// machine-readable line of reasonable size.
func (res *Result) compact() *Result {
	c := *res
	c.Raw = slices.Clone(res.Raw)
	for i := range c.Raw {
		c.Raw[i].Report.RoundTripNS, c.Raw[i].Report.PartsNS = nil, nil
	}
	return &c
}

// WriteTable prints the rows.
func (res *Result) WriteTable(w io.Writer) {
	m := res.Machine
	fmt.Fprintf(w, "N=%d tool calls, %d runs per configuration, medians; CLI %s; %s/%s, %d CPUs (%s); %s; load %s\n",
		res.N, res.Runs, m.CLIVersion, m.GOOS, m.GOARCH, m.CPUs, m.CPU, m.GoVersion, m.LoadAvg)
	if m.TSSDK != "" {
		fmt.Fprintf(w, "TypeScript SDK %s on node %s\n", m.TSSDK, m.Node)
	}
	fmt.Fprintf(w, "%-8s %-13s %9s %8s %8s %10s %7s %9s %9s %6s %9s %9s %7s %9s\n",
		"shape", "config", "wall ms", "start ms", "st cpu", "+ms/call", "ratio", "rt p50 µs", "rt p99 µs", "rts", "cpu/call", "+cpu/call", "req B", "first ms")
	for _, r := range res.Rows {
		fmt.Fprintf(w, "%-8s %-13s %9.1f %8.1f %8.2f %10.3f %7.3f %9.1f %9.1f %6d %9.3f %9.3f %7.0f %9.1f\n",
			r.Shape, r.Config, r.WallMS, r.StartMS, r.StartCPUMS, r.PerCallMS, r.Ratio, r.RTP50US, r.RTP99US, r.RTs, r.CPUPerCallMS, r.AddedCPUPerCallMS, r.RequestBytes, r.FirstMS)
	}
	header := false
	for _, r := range res.Rows {
		if r.PartsP50US == nil {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nthe Go SDK's round trip in parts (p50 µs each; see shared.RoundTrip)\n%-8s %-13s %9s %9s %9s\n",
				"shape", "config", "decode", "dispatch", "answer")
			header = true
		}
		fmt.Fprintf(w, "%-8s %-13s %9.1f %9.1f %9.1f\n", r.Shape, r.Config, r.PartsP50US[0], r.PartsP50US[1], r.PartsP50US[2])
	}
}

func machine(o Options) Machine {
	m := Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	if out, err := exec.Command(o.CLI, "--version").Output(); err == nil { // "2.1.330 (Claude Code)"
		m.CLIVersion, _, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	}
	if o.TSDir != "" {
		if out, err := exec.Command("node", "--version").Output(); err == nil {
			m.Node = strings.TrimSpace(string(out))
		}
		var pkg struct{ Version string }
		if b, err := os.ReadFile(filepath.Join(o.TSDir, "node_modules/@anthropic-ai/claude-agent-sdk/package.json")); err == nil {
			_ = json.Unmarshal(b, &pkg)
			m.TSSDK = pkg.Version
		}
	}
	return m
}
