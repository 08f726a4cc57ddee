package v2

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Observer watches a session without taking part in it: audit logs, metrics, tracing. Unlike a
// hook, it cannot change what happens, and it costs the agent nothing: it is fed from the CLI's
// message stream (no request goes to the SDK and back), and it runs on a goroutine of the session's
// own, behind an unbounded queue, so a slow observer never slows the CLI, the hooks or Receive.
//
// What it sees, and when (CLI 2.1.330):
//   - *SessionStarted once CreateSession has started the CLI and the CLI has accepted the hooks.
//   - *ToolStarted when the CLI reports the model's tool_use block (an "assistant" line). The CLI
//     writes it before it runs the PreToolUse hooks and the permission check, so a started call may
//     still be denied.
//   - *ToolFinished when the CLI reports the call's tool_result (a "user" line): after the tool ran
//     and after PostToolUse (or PostToolUseFailure) hooks answered, so it sees the output as the
//     model gets it, rewritten by an updatedToolOutput if a hook did that. It also comes for calls
//     that never ran (denied by a hook or a permission rule, interrupted): IsError is then true.
//     When the session ends before a call's result, it comes with NoResult at Close.
//   - *HookFinished when one of the session's Go hook handlers ended, with its decision.
//   - *TurnEnded for each "result" line (a prompt may produce more than one, see StartedByCLI).
//   - *SessionEnded last, in Close, after the CLI has stopped.
//
// Tool calls of subagents come too, with ParentToolUseID set. Observations come in the order of
// the stream, one at a time, on one goroutine for all of a session's observers; Close waits until
// every observation is delivered. An observer that panics is logged (with its stack) and goes on
// getting the next observations; the session is not affected. An observer must not block for
// long: the queue grows meanwhile, and Close waits for it. It may call the session's methods, except
// Close (which would wait for the observer itself).
type Observer interface {
	Observe(Observation)
}

// ObserverFunc adapts a function to an Observer.
type ObserverFunc func(Observation)

// Observe calls f(o).
func (f ObserverFunc) Observe(o Observation) { f(o) }

var _ Observer = ObserverFunc(nil)

// Observation is one thing an Observer sees: a *SessionStarted, *ToolStarted, *ToolFinished,
// *HookFinished, *TurnEnded or *SessionEnded. Use a type switch; more types may come. Observations share their
// JSON (Input, Content, Result, TurnEnded.Result) with the messages Receive yields: treat them as
// read-only.
type Observation interface {
	// Time returns when it happened: when the SDK read the CLI's line it comes from, or, for
	// SessionStarted and SessionEnded, when the SDK got there.
	Time() time.Time
	observation()
}

// SessionStarted: the CLI runs and has accepted the hooks (CreateSession is returning).
type SessionStarted struct {
	At        time.Time
	SessionID string
	// Info is what Session.Info returns.
	Info Info
}

// ToolStarted: the model asked for a tool call.
type ToolStarted struct {
	At        time.Time
	SessionID string
	ToolUseID string
	ToolName  string
	// Input is the tool_use input of the CLI's assistant message: the model's input as the CLI
	// parsed it, not the bytes the model sent. The CLI has filled in defaults the model left out
	// (CLI 2.1.330 reports Edit's "replace_all":false) and may order keys its own way. It is the
	// input before PreToolUse hooks and permission answers, which may still rewrite it: what the
	// tool really got is in the PreToolUse/PostToolUse hook inputs.
	Input jsontext.Value
	// ParentToolUseID is the id of the Task call whose subagent made this call; "" for the main
	// agent.
	ParentToolUseID string
}

// ToolFinished: the CLI reported a tool call's result.
type ToolFinished struct {
	At        time.Time
	SessionID string
	ToolUseID string
	// ToolName, Input and ParentToolUseID are those of the ToolStarted of the same call; empty if
	// the SDK did not see it (a session resumed mid-call).
	ToolName        string
	Input           jsontext.Value
	ParentToolUseID string
	// IsError is the tool_result's is_error: the tool failed, or never ran (a denial, an
	// interrupt).
	IsError bool
	// Content is the tool_result's content, what the model gets: a JSON string or an array of
	// content blocks. See ContentText.
	Content jsontext.Value
	// Result is the CLI's structured tool_use_result, e.g. for Bash
	// {"stdout":...,"stderr":...,"interrupted":false,...}, or a JSON string "Error: ..." for a call
	// that failed or was denied. It may be absent, and is left out when the CLI reports several
	// results in one message (it cannot be told whose it is).
	Result jsontext.Value
	// Duration runs from the ToolStarted to this (both as read by the SDK): the CLI's hooks,
	// the permission check and the tool run. Zero when the ToolStarted was not seen.
	Duration time.Duration
	// NoResult says the session ended (Close, or the CLI exited) before the CLI reported this
	// call's result; IsError is then true and Content and Result are empty.
	NoResult bool
}

// ContentText returns the tool_result's content as text: the string itself, or its text blocks
// joined.
func (f *ToolFinished) ContentText() string {
	return shared.ContentBlock{Content: f.Content}.ContentText()
}

// HookFinished: one Go hook handler of the session ran (a handler of a chain; CLI command hooks
// are not seen). It comes when the handler ended, before the CLI has the chain's answer, so it
// precedes the ToolFinished of the call it guarded; for a subagent's call it may also precede the
// call's ToolStarted (CLI 2.1.330 reports a subagent's tool_use after its PreToolUse hooks ran).
// It is made on the hook's path from what the executor already has: no round trip and no copy of
// the tool input. Sessions with an observer get it with or without WithHookEvents.
type HookFinished struct {
	// At is when the handler ended.
	At time.Time
	shared.HookRunInfo
	Started  time.Time
	Duration time.Duration
	// Outcome is success, error, timeout, panic or cancelled; Err is the failure.
	Outcome shared.HookOutcome
	Err     error
	// Decision and Reason are the handler's verdict as the CLI gets it: PreToolUse's
	// permissionDecision (allow, deny, ask, defer), PermissionRequest's behavior (allow, deny), a
	// block or approve elsewhere; "" for no opinion. A failure of a hook that guards an action is a
	// deny (fail-closed) with a fixed reason.
	Decision shared.Decision
	Reason   string
}

// TurnEnded: the CLI ended a turn with a result.
type TurnEnded struct {
	At     time.Time
	Result *shared.ResultMessage
}

// SessionEnded: Close has stopped the CLI. It is the last observation.
type SessionEnded struct {
	At        time.Time
	SessionID string
	// Err is what Close returns: the CLI's failure (a *shared.ProcessError), or nil.
	Err error
}

// Time returns o.At.
func (o *SessionStarted) Time() time.Time { return o.At }

// Time returns o.At.
func (o *ToolStarted) Time() time.Time { return o.At }

// Time returns o.At.
func (o *ToolFinished) Time() time.Time { return o.At }

// Time returns o.At.
func (o *HookFinished) Time() time.Time { return o.At }

// Time returns o.At.
func (o *TurnEnded) Time() time.Time { return o.At }

// Time returns o.At.
func (o *SessionEnded) Time() time.Time { return o.At }

func (*SessionStarted) observation() {}
func (*ToolStarted) observation()    {}
func (*ToolFinished) observation()   {}
func (*TurnEnded) observation()      {}
func (*HookFinished) observation()   {}
func (*SessionEnded) observation()   {}

// WithObserver adds an observer (see Observer). Calling it again adds more; all of a session's
// observers run on one goroutine, in the order given. Default: none, and then the session keeps no
// observer goroutine or queue.
func WithObserver(obs Observer) Option {
	return setOption("WithObserver", func(o *config) {
		if obs != nil {
			o.observers = append(o.observers, obs)
		}
	})
}

// WithRoundTripTrace calls fn for each request of the CLI that the SDK answered (hooks, permission
// prompts), with when the SDK read the request's line, decoded it and decided the answer, and when
// the answer was written: the SDK's own share of a round trip, and how it splits into decoding,
// dispatch (the handlers included) and answering (see shared.RoundTrip). fn runs on the
// goroutine that wrote the answer, on the agent's path: it must be fast. Default: none.
func WithRoundTripTrace(fn func(shared.RoundTrip)) Option {
	return setOption("WithRoundTripTrace", func(o *config) { o.onRoundTrip = fn })
}

// observerRunner delivers a session's observations on one goroutine. The stdout reader feeds it
// (feed, on the reader goroutine: a type check and an append); the goroutine does the rest. A nil
// *observerRunner (no observers) does nothing.
type observerRunner struct {
	obs    []Observer
	logger *slog.Logger

	mu      sync.Mutex
	queue   []observed
	notify  chan struct{} // capacity 1: "something was queued"
	ended   bool          // end was called: nothing more is queued
	started bool          // the goroutine runs
	done    chan struct{} // closed when the goroutine has delivered everything

	// Owned by the goroutine: the calls started and not finished, by tool_use id.
	open map[string]*ToolStarted
}

// observed is one queue entry: a message from the stream and when it was read, or an observation
// the session made itself.
type observed struct {
	msg shared.Message
	at  time.Time
	obs Observation
}

func newObserverRunner(obs []Observer, logger *slog.Logger) *observerRunner {
	if len(obs) == 0 {
		return nil
	}
	return &observerRunner{
		obs:    slices.Clone(obs),
		logger: logger,
		notify: make(chan struct{}, 1),
		done:   make(chan struct{}),
		open:   map[string]*ToolStarted{},
	}
}

// feed queues m if it can make an observation. It runs on the stdout reader: it must stay cheap.
func (r *observerRunner) feed(m shared.Message) {
	if r == nil || !observable(m) {
		return
	}
	r.push(observed{msg: m, at: time.Now()})
}

// observable reports whether m carries a tool_use, a tool_result or a result.
func observable(m shared.Message) bool {
	switch v := m.(type) {
	case *shared.AssistantMessage:
		for i := range v.Message.Content {
			if v.Message.Content[i].Type == "tool_use" {
				return true
			}
		}
	case *shared.UserMessage:
		if v.IsReplay {
			return false
		}
		for i := range v.Blocks {
			if v.Blocks[i].Type == "tool_result" {
				return true
			}
		}
	case *shared.ResultMessage:
		return true
	}
	return false
}

func (r *observerRunner) push(it observed) {
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, it)
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

// start queues SessionStarted and starts the goroutine. Until then, observations only queue: a
// session that fails to start never has an observer goroutine.
func (r *observerRunner) start(o *SessionStarted) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.queue = slices.Insert(r.queue, 0, observed{obs: o}) // before anything the CLI said meanwhile
	r.started = true
	r.mu.Unlock()
	go r.run() // the observer goroutine: it ends once end was called and the queue is drained
}

// end queues the SessionEnded observation, and waits until everything queued is delivered.
func (r *observerRunner) end(o *SessionEnded) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.ended || !r.started {
		r.ended = true
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, observed{obs: o})
	r.ended = true
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
	<-r.done
}

func (r *observerRunner) run() {
	defer close(r.done)
	var batch []observed
	for {
		r.mu.Lock()
		batch, r.queue = r.queue, batch[:0]
		ended := r.ended
		r.mu.Unlock()
		for i := range batch {
			r.handle(batch[i])
			batch[i] = observed{}
		}
		if ended && len(batch) == 0 {
			return
		}
		if len(batch) == 0 {
			<-r.notify
		}
	}
}

// handle turns one queue entry into observations and delivers them.
func (r *observerRunner) handle(it observed) {
	switch v := it.msg.(type) {
	case nil:
		if e, ok := it.obs.(*SessionEnded); ok {
			r.abandonOpen(e)
		}
		r.deliver(it.obs)
	case *shared.AssistantMessage:
		for _, b := range v.Message.Content {
			if b.Type != "tool_use" {
				continue
			}
			o := &ToolStarted{At: it.at, SessionID: v.SessionID, ToolUseID: b.ID, ToolName: b.Name, Input: b.Input}
			if v.ParentToolUseID != nil {
				o.ParentToolUseID = *v.ParentToolUseID
			}
			r.open[b.ID] = o
			r.deliver(o)
		}
	case *shared.UserMessage:
		// The structured tool_use_result belongs to the message, not to a block: it is only
		// attributed when the message has one tool_result (always so with CLI 2.1.330).
		results := 0
		for _, b := range v.Blocks {
			if b.Type == "tool_result" {
				results++
			}
		}
		for _, b := range v.Blocks {
			if b.Type != "tool_result" {
				continue
			}
			o := &ToolFinished{At: it.at, SessionID: v.SessionID, ToolUseID: b.ToolUseID, IsError: b.IsError, Content: b.Content}
			if results == 1 {
				o.Result = v.ToolUseResult
			}
			if st := r.open[b.ToolUseID]; st != nil {
				delete(r.open, b.ToolUseID)
				o.ToolName, o.Input, o.ParentToolUseID = st.ToolName, st.Input, st.ParentToolUseID
				o.Duration = it.at.Sub(st.At)
			}
			r.deliver(o)
		}
	case *shared.ResultMessage:
		r.deliver(&TurnEnded{At: it.at, Result: v})
	}
}

// abandonOpen delivers a NoResult ToolFinished for every call still open when the session ends, in
// the order they started.
func (r *observerRunner) abandonOpen(e *SessionEnded) {
	open := make([]*ToolStarted, 0, len(r.open))
	for _, st := range r.open {
		open = append(open, st)
	}
	slices.SortFunc(open, func(a, b *ToolStarted) int { return a.At.Compare(b.At) })
	for _, st := range open {
		r.deliver(&ToolFinished{At: e.At, SessionID: st.SessionID, ToolUseID: st.ToolUseID, ToolName: st.ToolName,
			Input: st.Input, ParentToolUseID: st.ParentToolUseID, IsError: true, NoResult: true, Duration: e.At.Sub(st.At)})
	}
	clear(r.open)
}

// deliver calls every observer with o; a panic is logged and the next observer still runs.
func (r *observerRunner) deliver(o Observation) {
	for _, obs := range r.obs {
		r.call(obs, o)
	}
}

func (r *observerRunner) call(obs Observer, o Observation) {
	defer func() {
		if p := recover(); p != nil {
			r.logger.Error("v2: observer panicked", "observation", fmt.Sprintf("%T", o), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	obs.Observe(o)
}
