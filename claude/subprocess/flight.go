package subprocess

import (
	"context"
	"sync"
	"time"
)

// flight is the ctx of one CLI request in progress (a hook or permission request). It ends when
// the CLI cancels the request (control_cancel_request), when it is answered (endFlight), or when
// the transport's ctx ends (Close, process exit: cancelFlights). It replaces a
// context.WithCancel(t.ctx) plus the chain's context.AfterFunc: a chain running under it registers
// itself (chainWatcher) without an allocation, and its Done channel is made only if asked for.
type flight struct {
	mu     sync.Mutex
	done   chan struct{} // made on first use; closed when err is set
	err    error
	chain  *chainRun // the chain watching it (chainWatcher)
	afters afterFuncs
	// inline: the request runs on the stdout reader, whose handoff timer fires after
	// handoffDelay (Transport.inline). Until then a handler's watchdog is not armed: the handoff
	// arms it (handedOff), so that a quick handler costs no timer of its own.
	inline bool
	watch  *hookCtx // the handler whose watchdog waits for the handoff
}

// watchdogDeferrer is a ctx whose requests run on the stdout reader (the transport's flight): a
// handler's watchdog may wait for the reader's handoff, which arms it (see hookCtx.start). Like
// chainWatcher, it lets the executor use the transport's ctx without knowing its type.
type watchdogDeferrer interface {
	// deferWatchdog reports whether h's watchdog waits for the handoff.
	deferWatchdog(h *hookCtx) bool
	// dropWatchdog forgets h: its handler returned first.
	dropWatchdog(h *hookCtx)
}

// deferWatchdog reports whether h's watchdog may wait for the handoff (which then arms it).
func (f *flight) deferWatchdog(h *hookCtx) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.inline || f.err != nil {
		return false
	}
	f.watch = h
	return true
}

// dropWatchdog forgets h: its handler returned before the handoff.
func (f *flight) dropWatchdog(h *hookCtx) {
	f.mu.Lock()
	if f.watch == h {
		f.watch = nil
	}
	f.mu.Unlock()
}

// handedOff is the handoff: the request runs on past handoffDelay, no longer on the reader. The
// waiting watchdog is armed (for what is left of its time), and later handlers arm their own.
func (f *flight) handedOff() {
	f.mu.Lock()
	h := f.watch
	f.inline, f.watch = false, nil
	f.mu.Unlock()
	if h != nil {
		h.arm()
	}
}

// chainWatcher is a ctx that tells a chain itself when it ends, so that the chain needs no
// context.AfterFunc for its ctx watch.
type chainWatcher interface {
	// watchChain arranges for c.ctxDone to run on a goroutine of its own when the ctx ends (at
	// once if it has), like context.AfterFunc.
	watchChain(c *chainRun)
	// unwatchChain undoes watchChain; c.ctxDone may still run if the ctx ended before.
	unwatchChain(c *chainRun)
}

func (f *flight) cancel() {
	f.mu.Lock()
	if f.err != nil {
		f.mu.Unlock()
		return
	}
	f.err = context.Canceled
	if f.done == nil {
		f.done = closedChan
	} else {
		close(f.done)
	}
	c, afters := f.chain, f.afters
	f.chain, f.afters = nil, nil
	f.mu.Unlock()
	if c != nil {
		go c.ctxDone()
	}
	for _, a := range afters {
		go a.f()
	}
}

func (f *flight) watchChain(c *chainRun) {
	f.mu.Lock()
	if f.err != nil {
		f.mu.Unlock()
		go c.ctxDone()
		return
	}
	f.chain = c
	f.mu.Unlock()
}

func (f *flight) unwatchChain(c *chainRun) {
	f.mu.Lock()
	if f.chain == c {
		f.chain = nil
	}
	f.mu.Unlock()
}

func (f *flight) Deadline() (time.Time, bool) { return time.Time{}, false }

func (f *flight) Done() <-chan struct{} {
	f.mu.Lock()
	if f.done == nil {
		f.done = make(chan struct{})
	}
	d := f.done
	f.mu.Unlock()
	return d
}

func (f *flight) Err() error {
	f.mu.Lock()
	err := f.err
	f.mu.Unlock()
	return err
}

// Value: the transport's ctx carries no values.
func (f *flight) Value(any) any { return nil }

// AfterFunc lets the context package cancel contexts derived from f (and run context.AfterFunc)
// without a goroutine each; it has the semantics of context.AfterFunc.
func (f *flight) AfterFunc(fn func()) (stop func() bool) {
	return f.afters.register(&f.mu, &f.err, fn)
}
