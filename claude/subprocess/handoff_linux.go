package subprocess

import (
	"os"
	"syscall"
	"unsafe"
)

// fdHandoffTimer is a handoffTimer on a Linux timerfd in the runtime's poller. Arming and
// disarming it are raw system calls (timerfd_settime) that wake nothing: no runtime timer, so no
// other thread is woken to watch one, and no system-call entry, so no sysmon wake-up (see
// rawpipe.go). One goroutine waits on the timerfd for the transport's life and starts fire on a
// goroutine of its own at each expiry, as time.AfterFunc does; it ends when close closes the
// timerfd.
type fdHandoffTimer struct {
	f    *os.File
	rc   syscall.RawConn
	fire func()

	on, off         timerSpec        // handoffDelay once; zero (disarmed)
	armFn, disarmFn func(fd uintptr) // made once: a closure per call would allocate
	readFn          func(fd uintptr) bool
	buf             [8]byte // an expiry count, read and dropped
	done            chan struct{}
}

// timerSpec is the kernel's struct itimerspec on 64-bit Linux: an interval and a value.
type timerSpec struct {
	intervalSec, intervalNsec int64
	valueSec, valueNsec       int64
}

// newHandoffTimer returns a timerfd handoff timer, or a runtime one where a timerfd cannot be made.
func newHandoffTimer(fire func()) handoffTimer {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		return newRuntimeHandoffTimer(fire) // timerSpec is laid out for 64-bit
	}
	const clockMonotonic = 1
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		return newRuntimeHandoffTimer(fire)
	}
	f := os.NewFile(fd, "handoff-timerfd")
	rc, ok := rawNonBlocking(f)
	if !ok {
		f.Close()
		return newRuntimeHandoffTimer(fire)
	}
	t := &fdHandoffTimer{f: f, rc: rc, fire: fire, done: make(chan struct{})}
	t.on.valueNsec = int64(handoffDelay)
	t.armFn = func(fd uintptr) { t.settime(fd, &t.on) }
	t.disarmFn = func(fd uintptr) { t.settime(fd, &t.off) }
	t.readFn = t.readExpiry
	go t.wait()
	return t
}

func (t *fdHandoffTimer) settime(fd uintptr, spec *timerSpec) {
	syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(spec)), 0, 0, 0)
}

func (t *fdHandoffTimer) arm()    { _ = t.rc.Control(t.armFn) }
func (t *fdHandoffTimer) disarm() { _ = t.rc.Control(t.disarmFn) }

// close closes the timerfd, which ends wait, and waits for it.
func (t *fdHandoffTimer) close() {
	t.f.Close()
	<-t.done
}

// wait is the timer's goroutine: it waits in the poller for each expiry and starts fire.
func (t *fdHandoffTimer) wait() {
	defer close(t.done)
	for {
		if err := t.rc.Read(t.readFn); err != nil {
			return // closed
		}
		go t.fire()
	}
}

// readExpiry reads an expiry; false (not expired) waits for the timerfd to become readable.
func (t *fdHandoffTimer) readExpiry(fd uintptr) bool {
	for {
		_, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf[0])), uintptr(len(t.buf)))
		switch errno {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		return true
	}
}
