package subprocess

import (
	"context"
	"sync"
	"time"
)

// hookCtx is the ctx of one handler run: its chain's ctx (see chainRun's Context methods) with the
// handler's deadline. It replaces a context.WithTimeout plus a separate watchdog timer: one timer
// both ends the ctx with context.DeadlineExceeded and answers for the handler (chainRun.overrun),
// and a cancel of the chain's ctx reaches it through the chain's ctx watch (chainRun.ctxDone), so
// it registers nothing with its parent. It is Done when the handler returns.
//
// It behaves like the context package's own: Err is nil until Done is closed, then
// context.DeadlineExceeded or the parent's error; context.Cause gives the same (or the parent's
// cause); contexts derived from it are cancelled with it without a goroutine (AfterFunc).
type hookCtx struct {
	c        *chainRun
	gen      int // the handler run it belongs to (chainRun.gen)
	deadline time.Time
	timer    *time.Timer      // guarded by mu; nil while the watchdog waits for the handoff
	deferred watchdogDeferrer // the ctx whose handoff arms the watchdog, if it waits

	mu     sync.Mutex
	done   chan struct{} // made on first use; closed when err is set
	err    error
	cause  error
	afters afterFuncs
}

// hookAfter is one AfterFunc registration.
type hookAfter struct {
	f       func()
	stopped bool
}

// afterFuncs are the AfterFunc registrations of a ctx of this package (hookCtx, flight), guarded
// by the ctx's mutex; its end takes them and starts each on a goroutine of its own.
type afterFuncs []*hookAfter

// register is the ctx's AfterFunc, with the semantics of context.AfterFunc: fn runs on a
// goroutine of its own once the ctx has ended (*err set, under mu), at once if it has; stop
// unregisters it and reports whether it did so before fn started.
func (l *afterFuncs) register(mu *sync.Mutex, err *error, fn func()) (stop func() bool) {
	a := &hookAfter{f: fn}
	mu.Lock()
	if *err != nil {
		mu.Unlock()
		go fn()
		return func() bool { return false }
	}
	*l = append(*l, a)
	mu.Unlock()
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		if a.stopped || *err != nil {
			return false
		}
		a.stopped = true
		for i, b := range *l {
			if b == a {
				*l = append((*l)[:i], (*l)[i+1:]...)
				break
			}
		}
		return true
	}
}

// cancelCtxKeyProbe records the key with which context.Cause looks for its cancelCtx, so that a
// hookCtx can answer it itself (nil: Cause then asks Err) instead of forwarding it to the chain's
// ctx, whose cause is not the handler's.
type cancelCtxKeyProbe struct {
	context.Context
	key any
}

func (p *cancelCtxKeyProbe) Value(key any) any { p.key = key; return nil }
func (p *cancelCtxKeyProbe) Err() error        { return context.Canceled }

var cancelCtxKey = func() any {
	p := &cancelCtxKeyProbe{Context: context.Background()}
	_ = context.Cause(p)
	return p.key
}()

// start arms the handler's watchdog: at d, the ctx ends with DeadlineExceeded and the chain answers
// for the handler if it is still running. A handler of a request that runs inline on the stdout
// reader gets its timer only at the handoff, after handoffDelay (flight.deferWatchdog): most
// handlers return before, and arming a runtime timer wakes another thread.
func (h *hookCtx) start(c *chainRun, gen int, d time.Duration) {
	h.c, h.gen = c, gen
	h.deadline = time.Now().Add(d)
	if w, ok := c.ctx.(watchdogDeferrer); ok && d > handoffDelay && w.deferWatchdog(h) {
		h.deferred = w
		return
	}
	h.mu.Lock()
	h.timer = time.AfterFunc(d, h.fire)
	h.mu.Unlock()
}

// arm arms a deferred watchdog (the handoff happened) for what is left until the deadline, unless
// the ctx has ended.
func (h *hookCtx) arm() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil || h.timer != nil {
		return
	}
	h.timer = time.AfterFunc(time.Until(h.deadline), h.fire)
}

func (h *hookCtx) fire() {
	h.cancel(context.DeadlineExceeded, nil)
	h.c.overrun(h.gen)
}

// stop stops the watchdog and ends the ctx (the handler returned). The ctx ends first, so that a
// handoff arming the watchdog at the same time (arm) finds it ended.
func (h *hookCtx) stop() {
	if h.deferred != nil {
		h.deferred.dropWatchdog(h)
	}
	h.cancel(context.Canceled, nil)
	h.mu.Lock()
	t := h.timer
	h.mu.Unlock()
	if t != nil {
		t.Stop()
	}
}

// cancel ends the ctx with err (and cause, if not nil), once.
func (h *hookCtx) cancel(err, cause error) {
	h.mu.Lock()
	if h.err != nil {
		h.mu.Unlock()
		return
	}
	if cause == nil {
		cause = err
	}
	h.err, h.cause = err, cause
	if h.done == nil {
		h.done = closedChan
	} else {
		close(h.done)
	}
	afters := h.afters
	h.afters = nil
	h.mu.Unlock()
	for _, a := range afters {
		go a.f()
	}
}

// closedChan is the Done channel of a hookCtx that ended before anyone asked for it.
var closedChan = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// syncParent ends the ctx if the chain's ctx has ended and the ctx watch has not yet said so.
func (h *hookCtx) syncParent() {
	if err := h.c.ctx.Err(); err != nil {
		h.cancel(err, context.Cause(h.c.ctx))
	}
}

func (h *hookCtx) Deadline() (time.Time, bool) {
	if d, ok := h.c.ctx.Deadline(); ok && d.Before(h.deadline) {
		return d, true
	}
	return h.deadline, true
}

func (h *hookCtx) Done() <-chan struct{} {
	h.mu.Lock()
	if h.done == nil {
		h.done = make(chan struct{})
	}
	d := h.done
	h.mu.Unlock()
	return d
}

func (h *hookCtx) Err() error {
	h.mu.Lock()
	err := h.err
	h.mu.Unlock()
	if err == nil {
		h.syncParent()
		h.mu.Lock()
		err = h.err
		h.mu.Unlock()
	}
	return err
}

func (h *hookCtx) Value(key any) any {
	if key == cancelCtxKey && cancelCtxKey != nil {
		h.mu.Lock()
		cause := h.cause
		h.mu.Unlock()
		if cause != nil && cause != h.err {
			// A parent's cause: let Cause find the parent's cancelCtx.
			return h.c.Value(key)
		}
		return nil // context.Cause then returns Err
	}
	return h.c.Value(key)
}

// AfterFunc lets the context package cancel contexts derived from h when h ends, without a
// goroutine each; it has the semantics of context.AfterFunc.
func (h *hookCtx) AfterFunc(f func()) (stop func() bool) {
	return h.afters.register(&h.mu, &h.err, f)
}
