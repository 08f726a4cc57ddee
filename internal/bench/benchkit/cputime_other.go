//go:build !unix

package benchkit

import "time"

// processCPU returns 0: this system's process CPU time is not read here.
func processCPU() time.Duration { return 0 }
