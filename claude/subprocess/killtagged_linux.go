package subprocess

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killTagged sends SIGKILL to every process whose environment has tag: the tools the CLI started,
// also those that left its process group and session (CLI 2.1.330 starts Bash commands with
// setsid, so a `sleep 300 &` is reparented to init when its shell exits, out of reach of a signal
// to the process group). It reads /proc/PID/environ, so it sees only processes of the same user.
func killTagged(tag string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	entry := []byte(tag + "=1\x00")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		if bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...)) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
