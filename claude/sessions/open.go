package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegularFile says a transcript (or a file beside it) is not a regular file: a symbolic
// link, a FIFO, a device, a directory. The CLI writes only regular files there, so such a file was
// put there by someone else; the SDK neither reads nor writes it (a FIFO or a device would block a
// reader forever, or never end a line; a link would take a write outside the config directory).
// Remove the file.
var ErrNotRegularFile = errors.New("sessions: not a regular file")

// openRegular opens path with flag and returns it only if it is a regular file and not a
// symbolic link; with O_CREATE a new file is made with mode 0600. The open itself never blocks (on Unix, O_NONBLOCK and O_NOFOLLOW; the mode
// is read from the open file, so a file swapped in between is still caught).
func openRegular(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|openFlags, 0o600)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() { // ELOOP, EISDIR, ENXIO
			return nil, notRegular(path, fi.Mode())
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, fi.Mode())
	}
	if err := afterOpen(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func notRegular(path string, mode fs.FileMode) error {
	kind := "a " + mode.Type().String() + " file"
	switch {
	case mode&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	case mode.IsDir():
		kind = "a directory"
	}
	return fmt.Errorf("%w: %s is %s (the CLI writes only regular files there; remove it)", ErrNotRegularFile, path, kind)
}
