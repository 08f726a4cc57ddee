package benchkit

import (
	"encoding/json"
	"os"
	"sync"
	"time"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// auditObserver appends one JSON line per finished tool call to a file, one write each, as an
// audit log would.
type auditObserver struct {
	f   *os.File
	buf []byte
}

type auditRecord struct {
	Time       time.Time       `json:"time"`
	Session    string          `json:"session_id"`
	ToolUseID  string          `json:"tool_use_id"`
	Tool       string          `json:"tool"`
	Input      json.RawMessage `json:"input,omitempty"`
	IsError    bool            `json:"is_error"`
	DurationMS float64         `json:"duration_ms"`
}

func newAuditObserver(path string) (*auditObserver, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &auditObserver{f: f}, nil
}

// Observe runs on the session's observer goroutine only: no lock needed.
func (a *auditObserver) Observe(o v2.Observation) {
	f, ok := o.(*v2.ToolFinished)
	if !ok {
		return
	}
	b, err := json.Marshal(auditRecord{Time: f.At, Session: f.SessionID, ToolUseID: f.ToolUseID, Tool: f.ToolName,
		Input: json.RawMessage(f.Input), IsError: f.IsError, DurationMS: float64(f.Duration) / 1e6})
	if err != nil {
		return
	}
	a.buf = append(append(a.buf[:0], b...), '\n')
	_, _ = a.f.Write(a.buf)
}

// metricsObserver keeps per-tool call counts, error counts and a latency histogram, as a
// Prometheus-style metrics hook would.
type metricsObserver struct {
	mu    sync.Mutex
	tools map[string]*toolMetrics
}

type toolMetrics struct {
	started, finished, errors int
	buckets                   [len(latencyBounds) + 1]int
	sum                       time.Duration
}

var latencyBounds = [...]time.Duration{time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	50 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, time.Second, 5 * time.Second}

func newMetricsObserver() *metricsObserver {
	return &metricsObserver{tools: map[string]*toolMetrics{}}
}

func (m *metricsObserver) tool(name string) *toolMetrics {
	t := m.tools[name]
	if t == nil {
		t = &toolMetrics{}
		m.tools[name] = t
	}
	return t
}

func (m *metricsObserver) Observe(o v2.Observation) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch v := o.(type) {
	case *v2.ToolStarted:
		m.tool(v.ToolName).started++
	case *v2.ToolFinished:
		t := m.tool(v.ToolName)
		t.finished++
		if v.IsError {
			t.errors++
		}
		i := 0
		for i < len(latencyBounds) && v.Duration > latencyBounds[i] {
			i++
		}
		t.buckets[i]++
		t.sum += v.Duration
	}
}

// finished returns the number of finished calls.
func (m *metricsObserver) finished() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, t := range m.tools {
		n += t.finished
	}
	return n
}
