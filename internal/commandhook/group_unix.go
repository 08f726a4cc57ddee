//go:build unix

package commandhook

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, so that killGroup ends the tools it
// started too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the command's process group.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
