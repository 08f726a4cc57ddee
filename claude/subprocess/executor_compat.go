package subprocess

import "time"

// The declarations below are what executor.go and hookctx.go still name of the transport's old
// fast path (its flight context and the reader hand-off, both deleted). No transport value
// implements them any more, so the executor takes its ordinary path. Delete this file when the
// executor's rewrite (context.WithTimeout and a select, no watchers) lands.

// chainWatcher was the transport's flight context watching a chain itself.
type chainWatcher interface {
	watchChain(c *chainRun)
	unwatchChain(c *chainRun)
}

// watchdogDeferrer was the transport's flight context deferring a handler's watchdog.
type watchdogDeferrer interface {
	deferWatchdog(h *hookCtx) bool
	dropWatchdog(h *hookCtx)
}

// handoffDelay was how long a request ran on the reader before the hand-off.
const handoffDelay = time.Millisecond
