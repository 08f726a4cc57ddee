package subprocess

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel send SIGKILL to the CLI when the OS thread that started
// it ends (prctl PR_SET_PDEATHSIG): process.startAndWait keeps that thread for as long as the
// CLI runs, so in effect when this process dies, however it dies. Call it after procgroup.Own.
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
