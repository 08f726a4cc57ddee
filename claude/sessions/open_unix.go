//go:build unix

package sessions

import (
	"os"
	"syscall"
)

// openFlags: the open of a FIFO returns at once (O_NONBLOCK), and a symbolic link is not followed
// (O_NOFOLLOW).
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW

// afterOpen checks, on Unix, that the file that was opened is the one Lstat sees: nothing to do,
// O_NOFOLLOW refused a link.
func afterOpen(*os.File, string) error { return nil }
