//go:build windows

package commandhook

import (
	"os"
	"os/exec"
	"strconv"
)

// ownGroup does nothing on Windows: there are no process groups; killGroup ends the tree.
func ownGroup(*exec.Cmd) {}

// killGroup ends the command and the processes it started (taskkill /T walks the tree while the
// command still runs), then the command itself in case taskkill is missing.
func killGroup(p *os.Process) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}
