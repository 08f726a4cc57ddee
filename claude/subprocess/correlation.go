package subprocess

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// requests correlates the two directions of the control protocol by request id, with all their
// state behind one mutex:
//   - pending: the SDK's requests to the CLI, waiting for a control_response;
//   - inFlight: the CLI's requests the SDK is answering, each with its ctx. Each is retired exactly
//     once: by its answer (retire), by the CLI's control_cancel_request, or by Close (cancel);
//   - toolCalls: the two permission decisions of one tool call (see toolCall).
type requests struct {
	nextID atomic.Int64

	mu       sync.Mutex
	pending  map[string]chan pendingResult
	failed   error // set when the reader died: every pending request failed with it
	inFlight map[string]context.CancelCauseFunc
	// toolCalls by tool_use_id, and their ids oldest first (bounded, see maxToolCalls).
	toolCalls map[string]*toolCall
	callOrder []string

	// activeHooks counts the hook requests begun and not yet done (answered or cancelled); idle
	// holds what runs when it drops to zero (see Transport.WhenIdle).
	activeHooks int
	idle        []func()

	// handlers counts the goroutines of in-flight CLI requests (begin adds, done subtracts).
	handlers sync.WaitGroup
}

// pendingResult is the outcome of an SDK request: the CLI's answer, or the reader's error.
type pendingResult struct {
	resp *parser.ControlResponse
	err  error
}

func newRequests() *requests {
	return &requests{
		pending:   map[string]chan pendingResult{},
		inFlight:  map[string]context.CancelCauseFunc{},
		toolCalls: map[string]*toolCall{},
	}
}

// addPending registers a new SDK request and returns its id and the channel its result comes on.
// After the reader died it returns the reader's error instead.
func (r *requests) addPending() (string, <-chan pendingResult, error) {
	id := "req_" + strconv.FormatInt(r.nextID.Add(1), 10)
	ch := make(chan pendingResult, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed != nil {
		return "", nil, r.failed
	}
	r.pending[id] = ch
	return id, ch, nil
}

// removePending forgets an SDK request (answered, timed out or abandoned).
func (r *requests) removePending(id string) {
	r.mu.Lock()
	delete(r.pending, id)
	r.mu.Unlock()
}

// resolve hands the CLI's answer to its request; it reports false for an unknown id.
func (r *requests) resolve(resp *parser.ControlResponse) bool {
	r.mu.Lock()
	ch, ok := r.pending[resp.RequestID]
	delete(r.pending, resp.RequestID)
	r.mu.Unlock()
	if ok {
		ch <- pendingResult{resp: resp}
	}
	return ok
}

// failPending fails every pending SDK request, and every later one, with err: the reader died.
func (r *requests) failPending(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed == nil {
		r.failed = err
	}
	for id, ch := range r.pending {
		ch <- pendingResult{err: err}
		delete(r.pending, id)
	}
}

// Causes of a CLI request's ctx ending.
var (
	errAnswered        = errors.New("subprocess: request answered")
	errCancelledByCLI  = errors.New("subprocess: the CLI cancelled the request")
	errTransportClosed = errors.New("subprocess: transport closed")
)

// begin registers the CLI's request id as in flight, with a ctx derived from parent, and counts
// its goroutine, which must call done(hook) once it has answered or given up. hook marks a hook
// request (see whenIdle). It reports false for an id already in flight.
func (r *requests) begin(parent context.Context, id string, hook bool) (context.Context, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.inFlight[id]; dup {
		return nil, false
	}
	ctx, cancel := context.WithCancelCause(parent)
	r.inFlight[id] = cancel
	r.handlers.Add(1)
	if hook {
		r.activeHooks++
	}
	return ctx, true
}

// done ends the count of one request's goroutine: its answer is written, or it was cancelled.
func (r *requests) done(hook bool) {
	var fns []func()
	if hook {
		r.mu.Lock()
		if r.activeHooks--; r.activeHooks == 0 {
			fns, r.idle = r.idle, nil
		}
		r.mu.Unlock()
	}
	for _, fn := range fns {
		fn() // e.g. writing a control request, right behind the answer just written (WhenIdle)
	}
	r.handlers.Done()
}

// whenIdle runs fn once no hook request is active: at once if none is, else from done.
func (r *requests) whenIdle(fn func()) {
	r.mu.Lock()
	if r.activeHooks > 0 {
		r.idle = append(r.idle, fn)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	fn()
}

// retire ends request id because it is being answered. It reports whether the caller may answer:
// false if the request was cancelled (by the CLI or Close) or already retired.
func (r *requests) retire(id string) bool { return r.end(id, errAnswered) }

// cancel ends request id because the CLI cancelled it: its ctx ends, and it is not answered.
func (r *requests) cancel(id string) bool { return r.end(id, errCancelledByCLI) }

func (r *requests) end(id string, cause error) bool {
	r.mu.Lock()
	cancel, ok := r.inFlight[id]
	delete(r.inFlight, id)
	r.mu.Unlock()
	if ok {
		cancel(cause)
	}
	return ok
}

// cancelAll ends every request in flight (Close, or the process ended): none is answered.
func (r *requests) cancelAll() {
	r.mu.Lock()
	cancels := make([]context.CancelCauseFunc, 0, len(r.inFlight))
	for id, c := range r.inFlight {
		cancels = append(cancels, c)
		delete(r.inFlight, id)
	}
	r.mu.Unlock()
	for _, c := range cancels {
		c(errTransportClosed)
	}
}

// wait waits for the goroutines of the requests that were in flight.
func (r *requests) wait() { r.handlers.Wait() }

// verdict is one side's permission decision for a tool call.
type verdict int

const (
	verdictNone  verdict = iota // no decision (the other side decides)
	verdictAllow                // allow
	verdictDeny                 // deny
)

// The two sides of a tool call's permission: the PermissionRequest hook (guard) and the
// can_use_tool callback (prompt).
const (
	sideGuard = iota
	sidePrompt
)

// toolCall joins the two permission decisions the CLI asks for one tool call. With a permission
// callback (--permission-prompt-tool stdio) the CLI 2.1.330 sends the PermissionRequest hook and
// can_use_tool at the same time and takes the first decisive answer (a hook with no decision
// lets can_use_tool decide). So that a quick allow on one side cannot beat a slower deny on the
// other, a side that allows waits for the other side's decision (bounded) and denies if it denied:
// deny wins. A side that denies, or has no decision, answers at once.
type toolCall struct {
	decided  [2]chan struct{} // closed when the side's verdict is set
	verdicts [2]verdict
	reasons  [2]string
}

// maxToolCalls bounds the tool calls remembered: a side whose partner never comes (a hook the CLI
// sent without a prompt) leaves its record behind until it is pushed out.
const maxToolCalls = 256

// toolCallLocked returns the record of tool call id, made if needed; r.mu is held.
func (r *requests) toolCallLocked(id string) *toolCall {
	c := r.toolCalls[id]
	if c == nil {
		c = &toolCall{decided: [2]chan struct{}{make(chan struct{}), make(chan struct{})}}
		r.toolCalls[id] = c
		r.callOrder = append(r.callOrder, id)
		if len(r.callOrder) > maxToolCalls {
			delete(r.toolCalls, r.callOrder[0])
			r.callOrder = r.callOrder[1:]
		}
	}
	return c
}

// decide records side's verdict for tool call id and returns the other side's decision: at once
// unless v is an allow and wait says the other side will come, else when the other side decides,
// ctx ends (ok false: the request was cancelled) or limit passes (a deny: the other side did not
// decide in time).
func (r *requests) decide(ctx context.Context, id string, side int, v verdict, reason string, wait bool, limit time.Duration) (other verdict, otherReason string, ok bool) {
	r.mu.Lock()
	c := r.toolCallLocked(id)
	select {
	case <-c.decided[side]:
	default:
		c.verdicts[side], c.reasons[side] = v, reason
		close(c.decided[side])
	}
	r.mu.Unlock()
	o := 1 - side
	if v != verdictAllow || !wait {
		select {
		case <-c.decided[o]:
			return r.verdictOf(c, o)
		default:
			return verdictNone, "", true
		}
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-c.decided[o]:
		return r.verdictOf(c, o)
	case <-ctx.Done():
		return verdictNone, "", false
	case <-timer.C:
		return verdictDeny, "the other permission check of this tool call did not decide in time; denied by the SDK (fail-closed)", true
	}
}

func (r *requests) verdictOf(c *toolCall, side int) (verdict, string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return c.verdicts[side], c.reasons[side], true
}
