//go:build !linux

package subprocess

import "os/exec"

// setParentDeathSignal does nothing: only Linux has a parent-death signal. On other Unix
// systems the watchdog (watchdog_unix.go) ends the CLI's process group when this process dies.
func setParentDeathSignal(*exec.Cmd) {}
