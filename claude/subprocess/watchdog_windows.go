//go:build windows

package subprocess

import "os"

// startWatchdog returns nil: on Windows the CLI is not ended when the SDK's process dies (a job
// object would do it; not built).
func startWatchdog(int, string) *os.File { return nil }
