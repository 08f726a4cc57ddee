package toolmetrics

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestExposition(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	r := NewWithClock(c.now)
	r.Start("a", "Bash")
	r.Start("b", "Bash")
	r.Start("d", "Write")
	c.add(30 * time.Millisecond)
	r.Finish("a", "Bash", Success)
	c.add(2 * time.Second)
	r.Finish("b", "Bash", Failure)
	r.Finish("c", "Read", Success) // no Start: counted, no latency
	r.Batch([]string{"a", "d"})    // d was denied after PreToolUse
	r.Start("e", `we"ird\tool`)

	var got strings.Builder
	if err := r.WritePrometheus(&got); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`agent_tool_calls_in_flight 1`,
		`agent_tool_calls_total{outcome="failure",tool="Bash"} 1`,
		`agent_tool_calls_total{outcome="not_run",tool="Write"} 1`,
		`agent_tool_calls_total{outcome="success",tool="Bash"} 1`,
		`agent_tool_calls_total{outcome="success",tool="Read"} 1`,
		`agent_tool_duration_seconds_bucket{le="+Inf",tool="Bash"} 2`,
		`agent_tool_duration_seconds_bucket{le="0.05",tool="Bash"} 1`,
		`agent_tool_duration_seconds_bucket{le="2.5",tool="Bash"} 2`,
		`agent_tool_duration_seconds_count{tool="Bash"} 2`,
		`agent_tool_duration_seconds_sum{tool="Bash"} 2.06`,
	}
	if diff := cmp.Diff(want, series(t, strings.NewReader(got.String()), "0.05", "2.5", "+Inf")); diff != "" {
		t.Errorf("exposition (-want +got):\n%s", diff)
	}

	var sum strings.Builder
	if err := r.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	wantSum := `TOOL   OK  ERRORS  NOT RUN  MEAN   MAX
Bash   1   1       0        1.03s  2.03s
Read   1   0       0        0s     0s
Write  0   0       1        0s     0s
`
	if diff := cmp.Diff(wantSum, sum.String()); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

// series parses a text exposition with the Prometheus text parser and returns its samples as
// "name{labels} value" lines, sorted; of the histogram buckets only those with le in les.
func series(t *testing.T, r io.Reader, les ...string) []string {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out []string
	line := func(name string, labels []*dto.LabelPair, extra string, v float64) {
		var kv []string
		for _, l := range labels {
			kv = append(kv, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
		}
		if extra != "" {
			kv = append(kv, extra)
		}
		sort.Strings(kv)
		ls := ""
		if len(kv) > 0 {
			ls = "{" + strings.Join(kv, ",") + "}"
		}
		out = append(out, fmt.Sprintf("%s%s %.6g", name, ls, v))
	}
	for name, f := range fams {
		for _, m := range f.Metric {
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				line(name, m.Label, "", m.GetCounter().GetValue())
			case dto.MetricType_GAUGE:
				line(name, m.Label, "", m.GetGauge().GetValue())
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				for _, b := range h.Bucket {
					le := strconv.FormatFloat(b.GetUpperBound(), 'g', -1, 64)
					if slices.Contains(les, le) {
						line(name+"_bucket", m.Label, fmt.Sprintf("le=%q", le), float64(b.GetCumulativeCount()))
					}
				}
				line(name+"_count", m.Label, "", float64(h.GetSampleCount()))
				line(name+"_sum", m.Label, "", h.GetSampleSum())
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestServeHTTP scrapes a real /metrics endpoint on 127.0.0.1 and parses the answer.
func TestServeHTTP(t *testing.T) {
	r := New()
	r.Start("a", "Bash")
	r.Finish("a", "Bash", Success)
	srv := httptest.NewServer(r)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type = %q", ct)
	}
	got := series(t, resp.Body)
	for _, want := range []string{`agent_tool_calls_total{outcome="success",tool="Bash"} 1`, `agent_tool_duration_seconds_count{tool="Bash"} 1`, `agent_tool_calls_in_flight 0`} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %s in %q", want, got)
		}
	}
}

// TestConcurrent runs hooks and scrapes at once; run with -race.
func TestConcurrent(t *testing.T) {
	r := New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := fmt.Sprint(g, "-", i)
				r.Start(id, "Bash")
				if i%3 == 0 {
					r.Finish(id, "Bash", Failure)
				} else {
					r.Finish(id, "Bash", Success)
				}
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			_ = r.WritePrometheus(new(strings.Builder))
		}
	})
	wg.Wait()
	var b strings.Builder
	_ = r.WritePrometheus(&b)
	for _, want := range []string{`agent_tool_calls_total{outcome="success",tool="Bash"} 1064`, `agent_tool_calls_total{outcome="failure",tool="Bash"} 536`, `agent_tool_calls_in_flight 0`, `agent_tool_duration_seconds_count{tool="Bash"} 1600`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
