//go:build unix

package proctest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// Gone reports whether pid no longer runs: there is no such process, or it is a zombie (read
// from /proc where there is one).
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		_, noProc := os.Stat("/proc/self")
		return noProc == nil // without /proc, the signal check is all there is
	}
	// "pid (comm) S ...": the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}
