// Package toolmetrics measures agent tool calls from hook events and exposes them in the
// Prometheus text exposition format (version 0.0.4), which every common monitoring stack scrapes
// and which needs no library to write.
//
// Feed it from hooks: Start on PreToolUse, Finish on PostToolUse and PostToolUseFailure, and
// Batch on PostToolBatch, which reports, as "not_run", the calls that got a PreToolUse but were
// then denied (by a permission rule or another hook) and so never get a Post event. Every method
// takes one mutex for a few map operations and returns: hooks that use it never hold the agent up.
package toolmetrics

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// Outcomes of a finished call, the values of the outcome label.
const (
	Success = "success"
	Failure = "failure"
	NotRun  = "not_run"
)

// Buckets are the upper bounds, in seconds, of the latency histogram.
var Buckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// Recorder collects the metrics. The zero value is not usable: call New. It is safe for
// concurrent use.
type Recorder struct {
	now func() time.Time

	mu      sync.Mutex
	started map[string]started    // by tool_use_id, until the call finishes
	tools   map[string]*toolStats // by tool name
}

type started struct {
	tool string
	at   time.Time
}

type toolStats struct {
	outcomes map[string]uint64
	buckets  []uint64 // per bucket, not cumulative; the last one is +Inf
	sum      time.Duration
	count    uint64 // calls with a measured latency
	max      time.Duration
}

// New returns an empty Recorder.
func New() *Recorder { return NewWithClock(time.Now) }

// NewWithClock returns an empty Recorder that reads the time from now (for tests).
func NewWithClock(now func() time.Time) *Recorder {
	return &Recorder{now: now, started: map[string]started{}, tools: map[string]*toolStats{}}
}

// Start records that the call id of tool is about to run (PreToolUse).
func (r *Recorder) Start(id, tool string) {
	t := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started[id] = started{tool: tool, at: t}
}

// Finish records that the call id of tool ended with outcome (Success on PostToolUse, Failure on
// PostToolUseFailure). Its latency is measured from Start; a call without a Start is counted
// without one.
func (r *Recorder) Finish(id, tool, outcome string) {
	t := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.stats(tool)
	st.outcomes[outcome]++
	s, ok := r.started[id]
	if !ok {
		return
	}
	delete(r.started, id)
	d := t.Sub(s.at)
	i, _ := slices.BinarySearch(Buckets, d.Seconds())
	st.buckets[i]++
	st.sum += d
	st.count++
	st.max = max(st.max, d)
}

// Batch records the end of one model message's tool calls (PostToolBatch): every call of ids that
// started and has not finished was not run, and is counted as NotRun.
func (r *Recorder) Batch(ids []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		if s, ok := r.started[id]; ok {
			delete(r.started, id)
			r.stats(s.tool).outcomes[NotRun]++
		}
	}
}

func (r *Recorder) stats(tool string) *toolStats {
	st := r.tools[tool]
	if st == nil {
		st = &toolStats{outcomes: map[string]uint64{}, buckets: make([]uint64, len(Buckets)+1)}
		r.tools[tool] = st
	}
	return st
}

// WritePrometheus writes every metric in the Prometheus text format, tools in name order.
func (r *Recorder) WritePrometheus(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	names := r.toolNames()
	b.WriteString("# HELP agent_tool_calls_total Tool calls that ended, by tool and outcome (success, failure, not_run).\n")
	b.WriteString("# TYPE agent_tool_calls_total counter\n")
	for _, n := range names {
		for _, o := range []string{Success, Failure, NotRun} {
			if c := r.tools[n].outcomes[o]; c > 0 {
				fmt.Fprintf(&b, "agent_tool_calls_total{tool=\"%s\",outcome=\"%s\"} %d\n", escape(n), o, c)
			}
		}
	}
	b.WriteString("# HELP agent_tool_duration_seconds Time from PreToolUse to PostToolUse or PostToolUseFailure, by tool.\n")
	b.WriteString("# TYPE agent_tool_duration_seconds histogram\n")
	for _, n := range names {
		st, l := r.tools[n], escape(n)
		var cum uint64
		for i, c := range st.buckets {
			cum += c
			le := "+Inf"
			if i < len(Buckets) {
				le = strconv.FormatFloat(Buckets[i], 'g', -1, 64)
			}
			fmt.Fprintf(&b, "agent_tool_duration_seconds_bucket{tool=\"%s\",le=\"%s\"} %d\n", l, le, cum)
		}
		fmt.Fprintf(&b, "agent_tool_duration_seconds_sum{tool=\"%s\"} %s\n", l, strconv.FormatFloat(st.sum.Seconds(), 'g', -1, 64))
		fmt.Fprintf(&b, "agent_tool_duration_seconds_count{tool=\"%s\"} %d\n", l, st.count)
	}
	b.WriteString("# HELP agent_tool_calls_in_flight Tool calls that started and have not ended.\n")
	b.WriteString("# TYPE agent_tool_calls_in_flight gauge\n")
	fmt.Fprintf(&b, "agent_tool_calls_in_flight %d\n", len(r.started))
	_, err := io.WriteString(w, b.String())
	return err
}

// escape escapes a label value: backslash, double quote and newline.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

func (r *Recorder) toolNames() []string {
	names := make([]string, 0, len(r.tools))
	for n := range r.tools {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ServeHTTP serves the metrics, so that a Recorder is the handler of a /metrics endpoint.
func (r *Recorder) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_ = r.WritePrometheus(w)
}

// WriteSummary writes a table: per tool, the calls by outcome and the mean and max latency.
func (r *Recorder) WriteSummary(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tOK\tERRORS\tNOT RUN\tMEAN\tMAX")
	for _, n := range r.toolNames() {
		st := r.tools[n]
		mean := time.Duration(0)
		if st.count > 0 {
			mean = st.sum / time.Duration(st.count)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", n, st.outcomes[Success], st.outcomes[Failure], st.outcomes[NotRun],
			mean.Round(time.Millisecond), st.max.Round(time.Millisecond))
	}
	return tw.Flush()
}
