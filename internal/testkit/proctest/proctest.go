// Package proctest has the process checks the SDK's tests share: whether a process is gone, and
// waiting (boundedly) until it is, and which goroutines are left.
package proctest

import (
	"runtime"
	"strings"
	"time"
)

// WaitGone reports whether pid is gone within limit. A killed process takes a moment to exit, and a
// process that is not our child gives us nothing to wait on, so this polls.
func WaitGone(pid int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for !Gone(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// Goroutines returns the stacks of the goroutines whose stack mentions any of marks (for example
// "claude/subprocess.(*Transport)"), separated by blank lines, or "" when there are none.
func Goroutines(marks ...string) string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var left []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, m := range marks {
			if strings.Contains(g, m) {
				left = append(left, g)
				break
			}
		}
	}
	return strings.Join(left, "\n\n")
}

// WaitNoGoroutines gives goroutines on their way out a bounded chance to finish (a Close has
// returned, but a goroutine that closed a channel may still be returning), like goleak, and returns
// the stacks of those still there after limit (see Goroutines), or "".
func WaitNoGoroutines(limit time.Duration, marks ...string) string {
	deadline := time.Now().Add(limit)
	for {
		left := Goroutines(marks...)
		if left == "" || time.Now().After(deadline) {
			return left
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}
