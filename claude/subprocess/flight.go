package subprocess

import (
	"context"
	"sync"
	"time"
)

// flight is the ctx of one CLI request in progress (a hook or permission request). It ends when
// the CLI cancels the request (control_cancel_request), when it is answered (endFlight), or when
// the transport's ctx ends (Close, process exit: cancelFlights).
//
// Shim (engine branch): the hook executor no longer defers its watchdogs through the flight nor
// watches it as a chainWatcher; the transport engineer replaces this file.
type flight struct {
	mu     sync.Mutex
	done   chan struct{} // made on first use; closed when err is set
	err    error
	afters []*flightAfter
	inline bool // the request runs on the stdout reader (Transport.inline); informational
}

// flightAfter is one AfterFunc registration.
type flightAfter struct {
	f       func()
	stopped bool
}

// handedOff is the handoff: the request runs on past handoffDelay, no longer on the reader.
func (f *flight) handedOff() {
	f.mu.Lock()
	f.inline = false
	f.mu.Unlock()
}

func (f *flight) cancel() {
	f.mu.Lock()
	if f.err != nil {
		f.mu.Unlock()
		return
	}
	f.err = context.Canceled
	if f.done == nil {
		f.done = make(chan struct{})
	}
	close(f.done)
	afters := f.afters
	f.afters = nil
	f.mu.Unlock()
	for _, a := range afters {
		go a.f()
	}
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

// AfterFunc has the semantics of context.AfterFunc: fn runs on a goroutine of its own once f has
// ended (at once if it has); stop unregisters it and reports whether it did so before fn started.
func (f *flight) AfterFunc(fn func()) (stop func() bool) {
	a := &flightAfter{f: fn}
	f.mu.Lock()
	if f.err != nil {
		f.mu.Unlock()
		go fn()
		return func() bool { return false }
	}
	f.afters = append(f.afters, a)
	f.mu.Unlock()
	return func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if a.stopped || f.err != nil {
			return false
		}
		a.stopped = true
		for i, b := range f.afters {
			if b == a {
				f.afters = append(f.afters[:i], f.afters[i+1:]...)
				break
			}
		}
		return true
	}
}
