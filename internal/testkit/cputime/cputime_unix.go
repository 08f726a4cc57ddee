//go:build unix

// Package cputime reads the CPU time of the calling process, for benchmarks that report what a
// process (not its children) spent.
package cputime

import (
	"syscall"
	"time"
)

// Self returns the process's CPU time so far: all its threads, user and system, not its
// children. It returns 0 if the system cannot tell.
func Self() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
