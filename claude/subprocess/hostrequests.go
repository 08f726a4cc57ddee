package subprocess

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/parser"
)

// Host requests: control requests the CLI sends to its host other than hooks, permissions and MCP
// messages (an MCP server's elicitation, a request_user_dialog). The SDK's user API
// (claude/v2) registers a handler per subtype in Config.HostRequests; each request runs on a
// goroutine of its own, started at once (it waits for a person), its ctx ends when the CLI cancels it (control_cancel_request) or the
// transport closes, and it is answered once, unless cancelled.

// HostRequestHandler answers one control request of the CLI: request is the whole "request"
// object. Its response is the success answer's payload; an error is answered as a control error.
// It must bound itself (the transport does not time it out) and honour ctx. A panic is recovered
// into an error answer.
type HostRequestHandler func(ctx context.Context, request jsontext.Value) (response any, err error)

// startHostRequest starts m if Config.HostRequests has a handler for its subtype, and reports
// whether it did (else the caller refuses it).
func (t *Transport) startHostRequest(m *parser.ControlRequest, times roundTripTimes) bool {
	h := t.cfg.HostRequests[m.Subtype]
	if h == nil {
		return false
	}
	ctx, ok := t.reqs.begin(t.ctx, m.RequestID, false)
	if !ok {
		t.logger.Warn("subprocess: duplicate request id refused", "request_id", m.RequestID, "subtype", m.Subtype)
		times.answered = times.decoded
		t.answerError(m.RequestID, "duplicate request id "+m.RequestID)
		t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		return true
	}
	go t.serveHostRequest(ctx, m.RequestID, m.Subtype, m.Request, h, times) // one goroutine per CLI request, tracked by t.reqs
	return true
}

// serveHostRequest runs h and answers, unless the request was cancelled.
func (t *Transport) serveHostRequest(ctx context.Context, id, subtype string, req jsontext.Value, h HostRequestHandler, times roundTripTimes) {
	defer t.reqs.done(false)
	resp, err := t.runHostRequest(ctx, subtype, req, h)
	if ctx.Err() != nil || !t.reqs.retire(id) {
		return // the CLI cancelled it, or the transport closed: nobody reads an answer
	}
	if t.cfg.OnRoundTrip != nil {
		times.answered = time.Now()
	}
	if err != nil {
		t.logger.Warn("subprocess: control request failed", "request_id", id, "subtype", subtype, "error", err)
		t.answerError(id, subtype+": "+err.Error())
	} else {
		t.answerSuccess(id, resp)
	}
	t.traceRoundTrip(id, subtype, "", times)
}

// runHostRequest calls h, turning a panic into an error.
func (t *Transport) runHostRequest(ctx context.Context, subtype string, req jsontext.Value, h HostRequestHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			t.logger.Error("subprocess: control request handler panicked", "subtype", subtype, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, err = nil, fmt.Errorf("the SDK's handler panicked: %v", p)
		}
	}()
	return h(ctx, req)
}
