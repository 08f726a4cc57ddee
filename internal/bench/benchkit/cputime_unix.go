//go:build unix

package benchkit

import (
	"syscall"
	"time"
)

// processCPU returns the process's CPU time so far: all its threads, user and system, not its
// children. It returns 0 if the system cannot tell. (The root module's tests have their own copy,
// internal/testkit/cputime: this module imports no other module's internal packages.)
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
