//go:build unix

package policy

import (
	"io/fs"
	"syscall"
)

// hardLinks returns how many names a regular file has (1 for any other file).
func hardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && fi.Mode().IsRegular() {
		return uint64(st.Nlink)
	}
	return 1
}
