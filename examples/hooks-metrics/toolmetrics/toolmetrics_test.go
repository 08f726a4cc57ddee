package toolmetrics

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
	want := `# HELP agent_tool_calls_total Tool calls that ended, by tool and outcome (success, failure, not_run).
# TYPE agent_tool_calls_total counter
agent_tool_calls_total{tool="Bash",outcome="success"} 1
agent_tool_calls_total{tool="Bash",outcome="failure"} 1
agent_tool_calls_total{tool="Read",outcome="success"} 1
agent_tool_calls_total{tool="Write",outcome="not_run"} 1
# HELP agent_tool_duration_seconds Time from PreToolUse to PostToolUse or PostToolUseFailure, by tool.
# TYPE agent_tool_duration_seconds histogram
` + histogram("Bash", []int{0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2}, "2.06", 2) +
		histogram("Read", make([]int, 14), "0", 0) +
		histogram("Write", make([]int, 14), "0", 0) +
		`# HELP agent_tool_calls_in_flight Tool calls that started and have not ended.
# TYPE agent_tool_calls_in_flight gauge
agent_tool_calls_in_flight 1
`
	if diff := cmp.Diff(want, got.String()); diff != "" {
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

func histogram(tool string, cum []int, sum string, count int) string {
	var b strings.Builder
	les := []string{"0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60", "300", "+Inf"}
	for i, le := range les {
		fmt.Fprintf(&b, "agent_tool_duration_seconds_bucket{tool=%q,le=%q} %d\n", tool, le, cum[i])
	}
	fmt.Fprintf(&b, "agent_tool_duration_seconds_sum{tool=%q} %s\n", tool, sum)
	fmt.Fprintf(&b, "agent_tool_duration_seconds_count{tool=%q} %d\n", tool, count)
	return b.String()
}

func TestEscape(t *testing.T) {
	if got, want := escape("a\"b\\c\nd"), `a\"b\\c\nd`; got != want {
		t.Errorf("escape = %s, want %s", got, want)
	}
}

func TestServeHTTP(t *testing.T) {
	r := New()
	r.Start("a", "Bash")
	r.Finish("a", "Bash", Success)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type = %q", ct)
	}
	if !strings.Contains(rec.Body.String(), `agent_tool_calls_total{tool="Bash",outcome="success"} 1`) {
		t.Errorf("body:\n%s", rec.Body.String())
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
	for _, want := range []string{`outcome="success"} 1064`, `outcome="failure"} 536`, `agent_tool_calls_in_flight 0`, `agent_tool_duration_seconds_count{tool="Bash"} 1600`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
