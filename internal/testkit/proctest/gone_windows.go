//go:build windows

package proctest

import "os"

// Gone reports whether pid no longer runs: no process of that id can be opened.
func Gone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}
