//go:build unix

package subprocess

import (
	"os"
	"os/exec"
	"strconv"

	"github.com/hookwire/agent-sdk-go/claude/internal/procgroup"
)

// watchdogScript is the watchdog, run by /bin/sh with the CLI's process group and the transport's
// tag as $1 and $2. It puts itself in the background (so that the SDK has no child to reap) and
// waits on fd 3, the read end of a pipe whose only write end is in the SDK's process: when that
// end closes (the session ended, or the SDK's process died, whatever killed it), it kills the
// CLI's process group, then, where there is a /proc, every process whose environment has the tag
// (what left the group with setsid: CLI Bash commands), until none is left (at most 10 rounds,
// against a fork racing the kill). grep's status is no guide: a process that ends during the scan
// makes it 2 whatever it found.
const watchdogScript = `(
  read _ <&3
  kill -s KILL -- "-$1" 2>/dev/null
  i=0
  while [ "$i" -lt 10 ]; do
    pids=$(grep -lsxzF "$2=1" /proc/[0-9]*/environ 2>/dev/null)
    [ -n "$pids" ] || break
    for f in $pids; do f=${f#/proc/}; kill -s KILL "${f%/environ}" 2>/dev/null; done
    i=$((i+1))
  done
) >/dev/null 2>&1 &`

// startWatchdog starts the watchdog of the CLI with process id pid (the leader of its process
// group) and returns the write end of its pipe, or nil if it could not start (then only the
// parent-death signal, on Linux, ends the CLI when this process dies). Closing the returned file
// lets the watchdog end what is left and exit; the kernel closes it when this process dies.
func startWatchdog(pid int, tag string) *os.File {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "agent-sdk-watchdog", strconv.Itoa(pid), tag)
	cmd.Env = []string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin"} // without the tag: it must not kill itself
	cmd.ExtraFiles = []*os.File{r}
	procgroup.Own(cmd) // out of the SDK's group: a Ctrl-C that kills the SDK must not kill it first
	if err := cmd.Run(); err != nil {
		w.Close()
		return nil
	}
	return w
}
