// Package toolmetrics measures agent tool calls from hook events and exposes them to Prometheus
// with the official client library (github.com/prometheus/client_golang): a registry of its own
// that ServeHTTP serves as a /metrics endpoint.
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
	"sync"
	"text/tabwriter"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
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

	reg      *prometheus.Registry
	calls    *prometheus.CounterVec   // agent_tool_calls_total{tool,outcome}
	duration *prometheus.HistogramVec // agent_tool_duration_seconds{tool}
	handler  http.Handler

	mu      sync.Mutex
	started map[string]started    // by tool_use_id, until the call finishes
	tools   map[string]*toolStats // by tool name
}

type started struct {
	tool string
	at   time.Time
}

// toolStats is what the summary table needs beyond the Prometheus metrics (the maximum).
type toolStats struct {
	outcomes map[string]uint64
	sum      time.Duration
	count    uint64 // calls with a measured latency
	max      time.Duration
}

// New returns an empty Recorder.
func New() *Recorder { return NewWithClock(time.Now) }

// NewWithClock returns an empty Recorder that reads the time from now (for tests).
func NewWithClock(now func() time.Time) *Recorder {
	r := &Recorder{now: now, started: map[string]started{}, tools: map[string]*toolStats{}, reg: prometheus.NewRegistry()}
	r.calls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "agent_tool_calls_total",
		Help: "Tool calls that ended, by tool and outcome (success, failure, not_run)."}, []string{"tool", "outcome"})
	r.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "agent_tool_duration_seconds",
		Help: "Time from PreToolUse to PostToolUse or PostToolUseFailure, by tool.", Buckets: Buckets}, []string{"tool"})
	inFlight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "agent_tool_calls_in_flight",
		Help: "Tool calls that started and have not ended."}, func() float64 {
		r.mu.Lock()
		defer r.mu.Unlock()
		return float64(len(r.started))
	})
	r.reg.MustRegister(r.calls, r.duration, inFlight)
	r.handler = promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{})
	return r
}

// Registry returns the registry that holds the metrics, e.g. to serve it with other ones.
func (r *Recorder) Registry() *prometheus.Registry { return r.reg }

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
	r.calls.WithLabelValues(tool, outcome).Inc()
	s, ok := r.started[id]
	if !ok {
		return
	}
	delete(r.started, id)
	d := t.Sub(s.at)
	r.duration.WithLabelValues(tool).Observe(d.Seconds())
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
			r.calls.WithLabelValues(s.tool, NotRun).Inc()
		}
	}
}

func (r *Recorder) stats(tool string) *toolStats {
	st := r.tools[tool]
	if st == nil {
		st = &toolStats{outcomes: map[string]uint64{}}
		r.tools[tool] = st
	}
	return st
}

// WritePrometheus writes every metric in the Prometheus text format (what ServeHTTP serves).
func (r *Recorder) WritePrometheus(w io.Writer) error {
	fams, err := r.reg.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range fams {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

func (r *Recorder) toolNames() []string {
	names := make([]string, 0, len(r.tools))
	for n := range r.tools {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ServeHTTP serves the metrics (promhttp's handler of the Recorder's registry), so that a Recorder
// is the handler of a /metrics endpoint.
func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.handler.ServeHTTP(w, req) }

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
