//go:build windows

package procgroup

import (
	"os"
	"os/exec"
	"strconv"
)

// Own does nothing on Windows: there are no process groups; Terminate and Kill end the tree.
func Own(*exec.Cmd) {}

// Terminate ends p and every process it started (taskkill /T walks the tree while p still runs),
// then p itself in case taskkill is missing. Windows has no SIGTERM for a console process: this is
// already the hard stop.
func Terminate(p *os.Process) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}

// Kill is Terminate: after p exited, its orphans can no longer be found by tree.
func Kill(p *os.Process) { Terminate(p) }
