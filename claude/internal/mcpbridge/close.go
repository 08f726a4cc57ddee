package mcpbridge

import (
	"context"
	"fmt"
	"slices"
)

// Close closes the servers' connections (cancelling their handlers in flight; every HandleMCP
// waiting for a reply returns ErrClosed) and waits for the forwarders. It does not wait for the
// handlers: Wait does. It returns nil; calling it again does nothing.
func (b *Bridge) Close() error {
	b.once.Do(func() {
		b.mu.Lock()
		b.cancel()
		for _, c := range b.servers {
			b.shutLocked(c)
		}
		b.servers = map[string]*conn{}
		b.mu.Unlock()
		b.wg.Wait()
	})
	return nil
}

// HandlersRunningError is Wait's error: the servers with a handler still running, of a
// connection closed (Close, Remove, a reconnect), when Wait's ctx ended. Such a handler ignores
// its ctx; its result is dropped.
type HandlersRunningError struct {
	Servers []string // sorted, each once
	Err     error    // the ctx's cause
}

func (e *HandlersRunningError) Error() string {
	return fmt.Sprintf("mcpbridge: handlers of in-process MCP server(s) %v still running after their ctx ended (%v); a handler must return when its ctx ends", e.Servers, e.Err)
}

func (e *HandlersRunningError) Unwrap() error { return e.Err }

// Wait waits until every handler of the connections closed so far (Close, Remove, reconnects)
// has returned, or ctx ends: then it returns a *HandlersRunningError naming their servers.
func (b *Bridge) Wait(ctx context.Context) error {
	b.mu.Lock()
	shut := slices.Clone(b.shut)
	b.mu.Unlock()
	var running []string
	for _, c := range shut {
		select {
		case <-c.ended:
			continue
		case <-ctx.Done():
		}
		select {
		case <-c.ended:
		default:
			running = append(running, c.name)
		}
	}
	b.mu.Lock()
	b.shut = slices.DeleteFunc(b.shut, func(c *conn) bool {
		select {
		case <-c.ended:
			return true
		default:
			return false
		}
	})
	b.mu.Unlock()
	if len(running) == 0 {
		return nil
	}
	slices.Sort(running)
	return &HandlersRunningError{Servers: slices.Compact(running), Err: context.Cause(ctx)}
}
