package subprocess

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Dispatch: the CLI's requests (hook_callback, can_use_tool, the spec framing's hook_event) are
// registered in flight on the reader goroutine, in the order they came, and each is then served on
// that goroutine, which hands the reading to a new one if it takes long (readStdout); the serving
// goroutine answers it unless it was cancelled. Every path that decides whether
// a tool may run denies when it fails.

// hookRequest is one hook request of the CLI: a hook_callback control request, or a hook_event
// line (the spec framing).
type hookRequest struct {
	key   string // its in-flight id
	in    shared.HookInput
	times roundTripTimes
	// spec: a hook_event line, answered by a hook_response carrying requestID and toolUseID; else
	// a control request, answered by a control_response for key.
	spec      bool
	requestID string
	toolUseID string
	// guard: a PermissionRequest hook whose tool call also gets a can_use_tool (see toolCall).
	guard bool
}

// startHookCallback handles a hook_callback request: it registers the request and returns how to
// serve it, or answers it at once and returns nil.
func (t *Transport) startHookCallback(m *parser.ControlRequest, times roundTripTimes) (serve func()) {
	cb := m.HookCallback
	e := cb.Input.Base().HookEventName
	if reg, ok := hooks.CallbackID(cb.CallbackID).Event(); ok && reg != e {
		// The callback the CLI called was registered for reg: an answer is read as reg's, whatever
		// the input says. Running another event's handlers could allow what reg's would deny.
		reason := fmt.Sprintf("callback %s was registered for %s but the request is a %s; denied by the SDK", cb.CallbackID, reg, e)
		t.logger.Warn("subprocess: hook request for the wrong event", "request_id", m.RequestID, "callback_id", cb.CallbackID, "event", string(e))
		t.refuseHook(m.RequestID, reg, reason, times)
		return nil
	}
	r := &hookRequest{key: m.RequestID, in: cb.Input, times: times, toolUseID: cb.ToolUseID}
	r.guard = e == shared.HookEventPermissionRequest && cb.ToolUseID != "" && t.cfg.CanUseTool != nil
	ctx, ok := t.reqs.begin(t.ctx, r.key, true)
	if !ok {
		t.logger.Warn("subprocess: duplicate request id denied", "request_id", m.RequestID, "event", string(e))
		t.refuseHook(m.RequestID, e, "duplicate request id "+m.RequestID+"; denied by the SDK", times)
		return nil
	}
	return func() { t.serveHook(ctx, r) } // tracked by t.reqs
}

// startHookEvent handles a hook_event line (the spec framing), as startHookCallback does.
func (t *Transport) startHookEvent(m *parser.HookEventLine, times roundTripTimes) (serve func()) {
	r := &hookRequest{key: m.RequestID, in: m.Input, times: times, spec: true, requestID: m.RequestID, toolUseID: m.ToolUseID}
	if r.key == "" {
		// Without a request id, two events for one tool use cannot be told apart: each gets a key
		// of its own.
		r.key = fmt.Sprintf("hook_event:%s#%d", m.ToolUseID, t.reqs.nextID.Add(1))
	}
	ctx, ok := t.reqs.begin(t.ctx, r.key, true)
	if !ok {
		e := m.Input.Base().HookEventName
		t.logger.Warn("subprocess: duplicate request id denied", "request_id", m.RequestID, "event", string(e))
		t.writeHookResponse(m.RequestID, m.ToolUseID, e, hooks.Refusal(e, "duplicate request id "+m.RequestID+"; denied by the SDK"))
		return nil
	}
	return func() { t.serveHook(ctx, r) } // tracked by t.reqs
}

// serveHook runs a hook request's chain on the calling goroutine; its answer comes from
// finishHook, called once, on this goroutine or, when a handler outlives its deadline, on the
// deadline's (HookServer.Serve).
func (t *Transport) serveHook(ctx context.Context, r *hookRequest) {
	e := r.in.Base().HookEventName
	answer := func(res hooks.Result) { t.finishHook(ctx, r, res) }
	if t.cfg.Hooks == nil || !t.cfg.Hooks.Has(e) {
		// Nothing registered for this event (an unknown callback, or a stale registration).
		answer(hooks.Result{Answer: hooks.Refusal(e, "no Go hook is registered for "+string(e)+"; denied by the SDK (fail-closed)")})
		return
	}
	t.cfg.Hooks.Serve(ctx, r.in, r.key, answer)
}

// finishHook answers a hook request with its chain's result, unless it was cancelled.
func (t *Transport) finishHook(ctx context.Context, r *hookRequest, res hooks.Result) {
	defer t.reqs.done(true)
	e := r.in.Base().HookEventName
	out := res.Answer
	if r.guard && !res.Cancelled {
		v, reason := permissionVerdict(res)
		other, otherReason, ok := t.reqs.decide(ctx, r.toolUseID, sideGuard, v, reason, true, t.cfg.PermissionTimeout+time.Second)
		if !ok {
			res.Cancelled = true
		} else if v == verdictAllow && other == verdictDeny {
			out = hooks.Refusal(e, otherReason)
		}
	} else if r.guard {
		t.reqs.decide(ctx, r.toolUseID, sideGuard, verdictNone, "", false, 0)
	}
	if res.Cancelled || !t.reqs.retire(r.key) {
		return // the CLI cancelled it, or the transport closed: nobody reads an answer
	}
	if t.cfg.OnRoundTrip != nil {
		r.times.answered = time.Now()
	}
	if r.spec {
		t.writeHookResponse(r.requestID, r.toolUseID, e, out)
		t.traceRoundTrip(r.key, "hook_event", e, r.times)
		return
	}
	t.answerHook(r.key, out)
	t.traceRoundTrip(r.key, "hook_callback", e, r.times)
}

// permissionVerdict is the verdict of a PermissionRequest chain, from the engine's reading of its
// answer (Result.Decision): the transport reads no hook answer itself.
func permissionVerdict(res hooks.Result) (verdict, string) {
	switch res.Decision {
	case shared.DecisionAllow:
		return verdictAllow, ""
	case shared.DecisionDeny:
		return verdictDeny, res.Reason
	}
	return verdictNone, ""
}

// refuseHook answers a hook request the SDK will not run with e's denial, or with an error answer
// for events that do not guard an action (the CLI reads it as "no opinion" and does not wait).
func (t *Transport) refuseHook(id string, e shared.HookEvent, reason string, times roundTripTimes) {
	times.answered = times.decoded
	if deny := hooks.Refusal(e, reason); deny != nil {
		t.answerHook(id, deny)
	} else {
		t.answerError(id, reason)
	}
	t.traceRoundTrip(id, "hook_callback", e, times)
}

// startPermission handles a can_use_tool request, as startHookCallback does.
func (t *Transport) startPermission(m *parser.ControlRequest, times roundTripTimes) (serve func()) {
	ctx, ok := t.reqs.begin(t.ctx, m.RequestID, false)
	if !ok {
		t.logger.Warn("subprocess: duplicate request id denied", "request_id", m.RequestID, "subtype", m.Subtype)
		times.answered = times.decoded
		t.answerSuccess(m.RequestID, denyPermission("duplicate request id "+m.RequestID+"; denied by the SDK"))
		t.traceRoundTrip(m.RequestID, m.Subtype, "", times)
		return nil
	}
	return func() { t.servePermission(ctx, m.RequestID, m.CanUseTool, times) } // tracked by t.reqs
}

// servePermission decides a can_use_tool request and answers it, unless it was cancelled.
func (t *Transport) servePermission(ctx context.Context, id string, req *shared.CanUseTool, times roundTripTimes) {
	defer t.reqs.done(false)
	res := t.decidePermission(ctx, req)
	if ctx.Err() != nil {
		return
	}
	if req.ToolUseID != "" && t.cfg.Hooks != nil && t.cfg.Hooks.Has(shared.HookEventPermissionRequest) {
		// A PermissionRequest hook may come for this tool call: join its decision (see toolCall).
		v := verdictNone
		switch res.Behavior {
		case shared.PermissionAllow:
			v = verdictAllow
		case shared.PermissionDeny:
			v = verdictDeny
		}
		expected, limit := t.cfg.Hooks.PermissionHook(req.ToolName)
		other, reason, ok := t.reqs.decide(ctx, req.ToolUseID, sidePrompt, v, res.Message, expected, limit)
		if !ok {
			return
		}
		if v == verdictAllow && other == verdictDeny {
			if reason == "" {
				reason = "denied by a PermissionRequest hook"
			}
			res = denyPermission(reason)
		}
	}
	if !t.reqs.retire(id) {
		return
	}
	if t.cfg.OnRoundTrip != nil {
		times.answered = time.Now()
	}
	t.answerSuccess(id, res)
	t.traceRoundTrip(id, "can_use_tool", "", times)
}

func denyPermission(msg string) shared.PermissionResult {
	return shared.PermissionResult{Behavior: shared.PermissionDeny, Message: msg}
}

// decidePermission runs the permission callback on a goroutine of its own and returns its
// decision, or a denial when it fails, panics, or has not returned by PermissionTimeout. When ctx
// ends first the result is a denial nobody reads. A callback that ignores its ctx runs on after
// its deadline; its result is dropped.
func (t *Transport) decidePermission(ctx context.Context, req *shared.CanUseTool) shared.PermissionResult {
	if t.cfg.CanUseTool == nil {
		return denyPermission("no permission callback is set; denied by the SDK")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, t.cfg.PermissionTimeout, shared.ErrPermissionTimeout)
	defer cancel()
	type outcome struct {
		r   *shared.PermissionResult
		err error
	}
	done := make(chan outcome, 1)
	panicked := make(chan any, 1)
	go func() { // the callback's goroutine: it ends when the callback returns
		defer func() {
			if p := recover(); p != nil {
				t.logger.Error("subprocess: permission callback panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				panicked <- p
			}
		}()
		r, err := t.cfg.CanUseTool(ctx, req)
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		return permissionResult(o.r, o.err)
	case p := <-panicked:
		return denyPermission(fmt.Sprintf("permission callback panicked: %v; denied by the SDK", p))
	case <-ctx.Done():
		if context.Cause(ctx) == shared.ErrPermissionTimeout {
			t.logger.Warn("subprocess: permission callback timed out", "tool", req.ToolName, "timeout", t.cfg.PermissionTimeout)
			return denyPermission(fmt.Sprintf("permission callback did not answer within %v; denied by the SDK (fail-closed)", t.cfg.PermissionTimeout))
		}
		return denyPermission("permission request cancelled")
	}
}

// permissionResult checks the callback's answer: anything but a clear allow or deny denies.
func permissionResult(r *shared.PermissionResult, err error) shared.PermissionResult {
	switch {
	case err != nil:
		return denyPermission("permission callback failed: " + err.Error())
	case r == nil:
		return denyPermission("permission callback returned no result; denied by the SDK")
	case r.Behavior == shared.PermissionAllow:
		out := *r
		out.Message, out.Interrupt = "", false
		return out
	case r.Behavior == shared.PermissionDeny:
		out := *r
		if out.Message == "" {
			out.Message = "denied"
		}
		return out
	}
	return denyPermission(fmt.Sprintf("permission callback returned behavior %q; denied by the SDK", r.Behavior))
}

// answerUndecodable answers a control request or hook event whose line could not be decoded (cut
// short, too long, or of the wrong shape), if its request id can be read: the CLI must not wait
// for an answer, and an event that guards an action is denied.
func (t *Transport) answerUndecodable(line []byte, cause error) {
	h := parser.Peek(line)
	reason := "the SDK could not decode this request: " + cause.Error()
	switch h.Type {
	case "control_request":
		if h.RequestID == "" {
			return
		}
		switch h.Subtype {
		case "hook_callback":
			e := eventOf(h)
			if deny := hooks.Refusal(e, reason); deny != nil {
				t.answerHook(h.RequestID, deny)
				return
			}
		case "can_use_tool":
			t.answerSuccess(h.RequestID, denyPermission(reason))
			return
		}
		t.answerError(h.RequestID, reason)
	case "hook_event":
		e := shared.HookEvent(h.HookEventName)
		t.writeHookResponse(h.RequestID, h.ToolUseID, e, hooks.Refusal(e, reason))
	}
}

// traceRoundTrip reports an answered CLI request to Config.OnRoundTrip.
func (t *Transport) traceRoundTrip(id, subtype string, e shared.HookEvent, times roundTripTimes) {
	if f := t.cfg.OnRoundTrip; f != nil {
		f(shared.RoundTrip{RequestID: id, Subtype: subtype, Event: e, Read: times.read, Decoded: times.decoded, Answered: times.answered, Written: time.Now()})
	}
}

// eventOf returns the hook event of a hook request that could not be decoded: the one named in its
// input, or else the one its callback id was registered for.
func eventOf(h parser.Head) shared.HookEvent {
	if e := shared.HookEvent(h.HookEventName); e.IsKnown() {
		return e
	}
	if e, ok := hooks.CallbackID(h.CallbackID).Event(); ok {
		return e
	}
	return shared.HookEvent(h.HookEventName)
}
