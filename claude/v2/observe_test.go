package v2

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Lines as CLI 2.1.330 writes them (cut down): one assistant line per tool_use block, one user line
// per tool_result.
const (
	obsToolUseA  = `{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"Bash","input":{"command":"echo a"}}]},"parent_tool_use_id":null,"session_id":"s1"}`
	obsToolUseB  = `{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_b","name":"Read","input":{"file_path":"/x"}}]},"parent_tool_use_id":"toolu_task","session_id":"s1"}`
	obsText      = `{"type":"assistant","message":{"id":"msg_2","role":"assistant","content":[{"type":"text","text":"done"}]},"parent_tool_use_id":null,"session_id":"s1"}`
	obsResultA   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"a","is_error":false,"tool_use_id":"toolu_a"}]},"parent_tool_use_id":null,"session_id":"s1","tool_use_result":{"stdout":"a","stderr":"","interrupted":false}}`
	obsResultB   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"denied: no"}],"is_error":true,"tool_use_id":"toolu_b"}]},"parent_tool_use_id":"toolu_task","session_id":"s1","tool_use_result":"Error: denied: no"}`
	obsTwoInOne  = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"1","tool_use_id":"toolu_1"},{"type":"tool_result","content":"2","tool_use_id":"toolu_2"}]},"session_id":"s1","tool_use_result":{"stdout":"?"}}`
	obsReplay    = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"a","tool_use_id":"toolu_a"}]},"session_id":"s1","isReplay":true}`
	obsPrompt    = `{"type":"user","message":{"role":"user","content":"hi"},"session_id":"s1"}`
	obsResult    = `{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":2,"session_id":"s1"}`
	obsSystem    = `{"type":"system","subtype":"init","session_id":"s1"}`
	obsCtlReq    = `{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"c","input":{"hook_event_name":"Stop","session_id":"s1"}}}`
	obsTaskStart = `{"type":"system","subtype":"task_started","session_id":"s1"}`
)

func parseLine(t *testing.T, line string) shared.Message {
	t.Helper()
	m, err := parser.Parse([]byte(line))
	if err != nil {
		t.Fatalf("Parse(%s): %v", line, err)
	}
	return m
}

// collector records observations as short strings.
type collector struct {
	mu  sync.Mutex
	got []string
	all []Observation
}

func (c *collector) Observe(o Observation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all = append(c.all, o)
	switch v := o.(type) {
	case *SessionStarted:
		c.got = append(c.got, "start "+v.SessionID)
	case *ToolStarted:
		c.got = append(c.got, fmt.Sprintf("tool %s %s %s parent=%q", v.ToolUseID, v.ToolName, v.Input, v.ParentToolUseID))
	case *ToolFinished:
		c.got = append(c.got, fmt.Sprintf("done %s %s err=%v noresult=%v text=%q result=%s parent=%q", v.ToolUseID, v.ToolName, v.IsError, v.NoResult, v.ContentText(), string(v.Result), v.ParentToolUseID))
	case *TurnEnded:
		c.got = append(c.got, "turn "+v.Result.Result)
	case *SessionEnded:
		c.got = append(c.got, fmt.Sprintf("end %s err=%v", v.SessionID, v.Err))
	default:
		c.got = append(c.got, fmt.Sprintf("%T", o))
	}
}

func (c *collector) lines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestObserverSeesToolCallsTurnsAndSession(t *testing.T) {
	var c collector
	r := newObserverRunner([]Observer{&c}, discardLogger())
	// Lines read before start (while CreateSession runs) are kept, after SessionStarted.
	r.feed(parseLine(t, obsSystem))
	r.start(&SessionStarted{At: time.Now(), SessionID: "s1"})
	for _, l := range []string{obsPrompt, obsToolUseA, obsToolUseB, obsCtlReq, obsTaskStart, obsResultB, obsReplay, obsResultA, obsText, obsResult} {
		r.feed(parseLine(t, l))
	}
	r.end(&SessionEnded{At: time.Now(), SessionID: "s1"})
	want := []string{
		"start s1",
		`tool toolu_a Bash {"command":"echo a"} parent=""`,
		`tool toolu_b Read {"file_path":"/x"} parent="toolu_task"`,
		`done toolu_b Read err=true noresult=false text="denied: no" result="Error: denied: no" parent="toolu_task"`,
		`done toolu_a Bash err=false noresult=false text="a" result={"stdout":"a","stderr":"","interrupted":false} parent=""`,
		"turn done",
		"end s1 err=<nil>",
	}
	if diff := cmp.Diff(want, c.lines()); diff != "" {
		t.Errorf("observations (-want +got):\n%s", diff)
	}
	// Durations run from the tool_use line to the tool_result line, as read.
	for _, o := range c.all {
		if f, ok := o.(*ToolFinished); ok && (f.Duration <= 0 || f.Duration > time.Minute) {
			t.Errorf("%s: duration %v", f.ToolUseID, f.Duration)
		}
	}
	// Nothing more is delivered after SessionEnded.
	r.feed(parseLine(t, obsResult))
	if n := len(c.lines()); n != len(want) {
		t.Errorf("%d observations after end, want %d", n, len(want))
	}
}

// A call whose result never came is finished with NoResult at the end, before SessionEnded; a
// message with several results gets no structured result (it cannot be told whose it is).
func TestObserverNoResultAndAmbiguousResult(t *testing.T) {
	var c collector
	r := newObserverRunner([]Observer{&c}, discardLogger())
	r.start(&SessionStarted{SessionID: "s1"})
	r.feed(parseLine(t, obsToolUseA))
	r.feed(parseLine(t, obsTwoInOne))
	r.end(&SessionEnded{At: time.Now(), SessionID: "s1", Err: fmt.Errorf("crashed")})
	want := []string{
		"start s1",
		`tool toolu_a Bash {"command":"echo a"} parent=""`,
		`done toolu_1  err=false noresult=false text="1" result= parent=""`,
		`done toolu_2  err=false noresult=false text="2" result= parent=""`,
		`done toolu_a Bash err=true noresult=true text="" result= parent=""`,
		"end s1 err=crashed",
	}
	if diff := cmp.Diff(want, c.lines()); diff != "" {
		t.Errorf("observations (-want +got):\n%s", diff)
	}
}

// A panicking observer is logged with its stack; it and the other observers get every later
// observation.
func TestObserverPanicIsContained(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{mu: &mu, w: &logs}, nil))
	var c collector
	panics := 0
	bad := ObserverFunc(func(o Observation) {
		panics++
		panic("observer bug")
	})
	r := newObserverRunner([]Observer{bad, &c}, logger)
	r.start(&SessionStarted{SessionID: "s1"})
	r.feed(parseLine(t, obsToolUseA))
	r.feed(parseLine(t, obsResultA))
	r.end(&SessionEnded{SessionID: "s1"})
	if got := len(c.lines()); got != 4 || panics != 4 {
		t.Errorf("the good observer saw %d observations, the bad one panicked %d times; want 4 and 4", got, panics)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(logs.String(), "observer panicked"); n != 4 || !strings.Contains(logs.String(), "observe_test.go") {
		t.Errorf("%d panics logged (want 4, with a stack):\n%s", n, logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A blocked observer never blocks the feed (the stdout reader): everything queues, and end
// delivers it all once the observer goes on.
func TestObserverBlockedDoesNotBlockFeed(t *testing.T) {
	release := make(chan struct{})
	var c collector
	var once sync.Once
	blocked := make(chan struct{})
	slow := ObserverFunc(func(Observation) {
		once.Do(func() { close(blocked) })
		<-release
	})
	r := newObserverRunner([]Observer{slow, &c}, discardLogger())
	r.start(&SessionStarted{SessionID: "s1"})
	<-blocked
	const n = 1000
	for i := range n {
		line := strings.ReplaceAll(obsToolUseA, "toolu_a", fmt.Sprintf("toolu_%d", i))
		r.feed(parseLine(t, line))
	}
	close(release) // if feed blocked, this line would never run
	r.end(&SessionEnded{SessionID: "s1"})
	// start + n started + n NoResult finishes + end
	if got := len(c.lines()); got != 2*n+2 {
		t.Errorf("%d observations, want %d", got, 2*n+2)
	}
}

// Without observers there is no runner, and every method is a no-op; a runner that never started
// (CreateSession failed) ends at once.
func TestObserverRunnerNilAndNotStarted(t *testing.T) {
	var r *observerRunner
	if newObserverRunner(nil, discardLogger()) != nil {
		t.Fatal("a runner without observers")
	}
	r.feed(parseLine(t, obsToolUseA))
	r.start(&SessionStarted{})
	r.end(&SessionEnded{})

	var c collector
	r = newObserverRunner([]Observer{&c}, discardLogger())
	r.feed(parseLine(t, obsToolUseA))
	r.end(&SessionEnded{})
	r.end(&SessionEnded{})
	if got := c.lines(); len(got) != 0 {
		t.Errorf("a runner that never started delivered %q", got)
	}
}

func TestObservable(t *testing.T) {
	for line, want := range map[string]bool{
		obsToolUseA: true, obsResultA: true, obsResult: true,
		obsText: false, obsPrompt: false, obsReplay: false, obsSystem: false, obsCtlReq: false, obsTaskStart: false,
	} {
		if got := observable(parseLine(t, line)); got != want {
			var v map[string]any
			_ = json.Unmarshal([]byte(line), &v)
			t.Errorf("observable(%v) = %v, want %v", v["type"], got, want)
		}
	}
}

// BenchmarkObserverFeed is what observers cost the stdout reader per message: a tool_use line, a
// tool_result line, and a line no observer needs (a text answer), with an observer goroutine
// consuming the observations.
func BenchmarkObserverFeed(b *testing.B) {
	for _, tc := range []struct{ name, line string }{
		{"tool_use", obsToolUseA}, {"tool_result", obsResultA}, {"text", obsText},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m, err := parser.Parse([]byte(tc.line))
			if err != nil {
				b.Fatal(err)
			}
			r := newObserverRunner([]Observer{ObserverFunc(func(Observation) {})}, discardLogger())
			r.start(&SessionStarted{})
			b.ReportAllocs()
			for b.Loop() {
				r.feed(m)
			}
			b.StopTimer()
			r.end(&SessionEnded{})
		})
	}
}
