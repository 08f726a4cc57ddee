//go:build !unix

package cputime

import "time"

// Self returns 0: this system's process CPU time is not read here.
func Self() time.Duration { return 0 }
