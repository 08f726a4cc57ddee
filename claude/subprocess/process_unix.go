//go:build unix

package subprocess

import (
	"io/fs"
	"os/exec"
	"strconv"
	"syscall"
)

// executable reports whether fi may be run.
func executable(fi fs.FileInfo) bool { return fi.Mode()&0o111 != 0 }

// signalNames are the conventional names of the signals a CLI is likely to die of.
var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGALRM: "SIGALRM", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL",
	syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGTERM: "SIGTERM",
	syscall.SIGTRAP: "SIGTRAP", syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
}

// exitSignal names the signal that killed the process ("SIGKILL"), or returns "".
func exitSignal(ee *exec.ExitError) string {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	if name, ok := signalNames[ws.Signal()]; ok {
		return name
	}
	return "signal " + strconv.Itoa(int(ws.Signal()))
}
