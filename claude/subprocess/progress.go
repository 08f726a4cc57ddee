package subprocess

import (
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Emit queues m on the session's stream, after what the reader queued so far, as if the CLI had
// written it (the SDK's own events: hook progress). It never blocks on the consumer (the queue is
// unbounded); after the transport ended, m is dropped.
func (t *Transport) Emit(m shared.Message) {
	t.inbox.push(inboxItem{msg: m})
}

// cliHookEvents turns the CLI's system hook_started / hook_progress / hook_response lines into
// shared.HookStarted / HookProgress / HookResponse (Source "cli"); it is used with
// Config.HookEvents. starts remembers when each hook started, for the duration.
type cliHookEvents struct {
	mu     sync.Mutex
	starts map[string]time.Time
}

// convert returns the event for m, or m itself when it is no hook line.
func (c *cliHookEvents) convert(m *shared.SystemMessage) shared.Message {
	now := time.Now()
	info := shared.HookRunInfo{HookID: m.HookID, HookName: m.HookName, Event: shared.HookEvent(m.HookEvent), Source: shared.HookSourceCLI}
	switch m.Subtype {
	case "hook_started":
		c.mu.Lock()
		if c.starts == nil {
			c.starts = map[string]time.Time{}
		}
		c.starts[m.HookID] = now
		c.mu.Unlock()
		return &shared.HookStarted{HookRunInfo: info, Time: now, SessionID: m.SessionID, UUID: m.UUID, Raw: m.Raw}
	case "hook_progress":
		// Not seen from CLI 2.1.330; read by the same names as hook_response's output fields.
		var f struct {
			Stdout string `json:"stdout"`
			Stderr string `json:"stderr"`
			Output string `json:"output"`
		}
		_ = json.Unmarshal(m.Raw, &f)
		p := &shared.HookProgress{HookRunInfo: info, Time: now, Raw: m.Raw}
		switch {
		case f.Stdout != "":
			p.Stream, p.Line = "stdout", f.Stdout
		case f.Stderr != "":
			p.Stream, p.Line = "stderr", f.Stderr
		default:
			p.Line = f.Output
		}
		return p
	case "hook_response":
		var f struct {
			Output string `json:"output"`
			Error  string `json:"error"`
		}
		_ = json.Unmarshal(m.Raw, &f)
		r := &shared.HookResponse{HookRunInfo: info, Outcome: shared.HookOutcome(m.Outcome), ExitCode: m.ExitCode,
			Stdout: m.Stdout, Stderr: m.Stderr, Output: f.Output, Error: f.Error, Time: now,
			SessionID: m.SessionID, UUID: m.UUID, Raw: m.Raw}
		c.mu.Lock()
		if t0, ok := c.starts[m.HookID]; ok {
			r.Duration = now.Sub(t0)
			delete(c.starts, m.HookID)
		}
		c.mu.Unlock()
		if r.Error == "" && r.Outcome != shared.HookOutcomeSuccess && r.Outcome != "" {
			r.Error = m.Stderr
		}
		return r
	}
	return m
}
