// Package proctest has the process checks the SDK's tests share: whether a process is gone, and
// waiting (boundedly) until it is. Linux only: it reads /proc.
package proctest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Gone reports whether pid no longer runs: there is no such process, or it is a zombie.
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// "pid (comm) S ...": the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

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
