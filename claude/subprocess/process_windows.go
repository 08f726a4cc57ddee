//go:build windows

package subprocess

import (
	"io/fs"
	"os"
	"os/exec"
	"strconv"
)

// ownGroup does nothing on Windows: there are no process groups to signal. The stop sequence ends
// the CLI's process tree with taskkill instead.
func ownGroup(*exec.Cmd) {}

// terminateGroup ends the CLI and every process it started (taskkill /T walks the tree while the
// CLI still runs), then the CLI itself in case taskkill is missing. Windows has no SIGTERM for a
// console process: this is already the hard stop.
func terminateGroup(p *os.Process) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}

// killGroup is terminateGroup: after the CLI exited, its orphans can no longer be found by tree.
func killGroup(p *os.Process) { terminateGroup(p) }

// executable reports whether fi may be run: any regular file, on Windows.
func executable(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }

// exitSignal returns "": Windows processes are not killed by signals.
func exitSignal(*exec.ExitError) string { return "" }
