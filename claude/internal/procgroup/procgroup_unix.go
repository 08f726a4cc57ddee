//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Own makes cmd start in a process group of its own, so that Terminate and Kill reach what it
// starts too. Call it before cmd.Start.
func Own(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// Terminate sends SIGTERM to p's process group.
func Terminate(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGTERM) }

// Kill sends SIGKILL to p's process group.
func Kill(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
