//go:build !unix

package sessions

import (
	"os"
)

// openFlags: no O_NONBLOCK or O_NOFOLLOW outside Unix (there, a FIFO cannot be made in a
// directory; a link is checked by afterOpen).
const openFlags = 0

// afterOpen refuses a path that is a symbolic link (Windows follows links on open; a link swapped
// in after this check is the residual risk on Windows, where making links needs a privilege).
func afterOpen(_ *os.File, path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notRegular(path, fi.Mode())
	}
	return nil
}
