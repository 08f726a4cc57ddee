package subprocess

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// The CLI's stdin and stdout are non-blocking pipes in the runtime's poller. Reading and writing
// them with os.File costs each read and write a runtime system-call entry (entersyscall), and that
// entry wakes the runtime's sysmon thread whenever it sleeps deeply, i.e. whenever the process was
// idle: on every hook request the CLI sends after milliseconds of work. Woken so, sysmon polls every
// 20 µs for as long as the request runs, on a CPU the SDK and the CLI need (a quarter of the SDK's
// CPU per request on a 2-vCPU machine). A read or write of a non-blocking descriptor does not
// block, so it needs no such entry: rawPipeReader and writeNow make them as raw system calls, and
// wait for the descriptor through the poller (syscall.RawConn) as os.File does.

// rawPipeReader reads a non-blocking pipe with raw read system calls, waiting in the poller while
// it is empty. An error of the poller (the file was closed) is left to f.Read to report, as
// os.File reports it.
type rawPipeReader struct {
	f  *os.File
	rc syscall.RawConn
	fn func(fd uintptr) bool // readFd, made once (a closure per Read would allocate)

	p     []byte // the buffer of the Read in progress
	n     int
	errno syscall.Errno
}

// newRawPipeReader returns a reader of f, or f itself if f is not a non-blocking descriptor (a raw
// read could then block the thread and its P).
func newRawPipeReader(f *os.File) io.Reader {
	rc, ok := rawNonBlocking(f)
	if !ok {
		return f
	}
	r := &rawPipeReader{f: f, rc: rc}
	r.fn = r.readFd
	return r
}

// Read reads into p; it is called by one goroutine at a time (the stdout reader's bufio.Reader).
func (r *rawPipeReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.errno = p, 0, 0
	err := r.rc.Read(r.fn)
	n, errno := r.n, r.errno
	r.p = nil
	switch {
	case err != nil:
		return r.f.Read(p) // the poller's error (a closed file), worded as os.File words it
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readFd reads once; it returns false to wait for the pipe to become readable.
func (r *rawPipeReader) readFd(fd uintptr) bool {
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.p[0])), uintptr(len(r.p)))
		switch errno {
		case 0:
			r.n = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		r.errno = errno
		return true
	}
}

// rawNonBlocking returns f's raw access if its descriptor is non-blocking (os.Pipe's are: they
// are in the poller); only then may it be read and written with raw system calls.
func rawNonBlocking(f *os.File) (syscall.RawConn, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	var flags uintptr
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		flags, _, errno = syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil || errno != 0 || flags&syscall.O_NONBLOCK == 0 {
		return nil, false
	}
	return rc, true
}

// rawWrite writes b to the non-blocking descriptor fd with one raw system call.
func rawWrite(fd uintptr, b []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), 0
}
