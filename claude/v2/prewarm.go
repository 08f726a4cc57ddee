package v2

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Prewarm: a session started before it is needed, so that the first turn does not wait for the
// CLI's start (process start, module load, configuration, MCP handshakes, initialize): the
// TypeScript SDK's startup(). Its options, working directory included, are fixed when it is
// started; a program that serves sessions of several kinds keeps a spare per kind.

// Spare is a session being started, or started, ahead of need (Prewarm). Its methods are safe for
// concurrent use.
type Spare struct {
	done chan struct{} // closed when CreateSession has returned
	s    *Session
	err  error

	mu    sync.Mutex
	taken bool
}

// ErrSpareTaken is Take's error for a spare already taken or closed.
var ErrSpareTaken = errors.New("v2: the spare session was already taken or closed")

// Prewarm starts a session with opts in the background and returns at once; Take hands it over.
// ctx bounds the spare's whole session, as CreateSession's does (cancelling it closes the session,
// taken or not). Options are checked as CreateSession checks them: an invalid one is Take's error.
// A spare that is not taken must be closed (Close) to end its CLI.
func Prewarm(ctx context.Context, opts ...Option) *Spare {
	sp := &Spare{done: make(chan struct{})}
	go func() { // the start's goroutine: it ends when CreateSession returns (bounded by ctx and the request timeout)
		defer close(sp.done)
		sp.s, sp.err = CreateSession(ctx, opts...)
	}()
	return sp
}

// Take waits until the spare has started (or ctx ends) and returns its session, which the caller
// then owns (and closes). A spare is taken once: later calls, and calls after Close, return
// ErrSpareTaken. A start that failed returns CreateSession's error. When ctx ends first, Take
// returns ctx's cause and the spare is still there to take or close.
func (sp *Spare) Take(ctx context.Context) (*Session, error) {
	select {
	case <-sp.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("v2: waiting for the spare session: %w", context.Cause(ctx))
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.taken {
		return nil, ErrSpareTaken
	}
	sp.taken = true
	return sp.s, sp.err
}

// Ready is closed when the spare's start has ended, successfully or not.
func (sp *Spare) Ready() <-chan struct{} { return sp.done }

// Close ends a spare that was not taken: it waits for the start to end and closes its session. On a
// taken spare it does nothing (the session is the taker's). It returns the session's Close error.
func (sp *Spare) Close() error {
	<-sp.done // bounded: CreateSession returns by its ctx and request timeout
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.taken {
		return nil
	}
	sp.taken = true
	if sp.s == nil {
		return nil
	}
	return sp.s.Close()
}
