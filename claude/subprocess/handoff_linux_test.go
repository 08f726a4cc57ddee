package subprocess

import (
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestFdHandoffTimer: the timerfd handoff timer fires once per arming, after handoffDelay; a
// disarmed one has no expiry pending in the kernel; close ends its goroutine. The transport uses
// it on Linux.
func TestFdHandoffTimer(t *testing.T) {
	fired := make(chan time.Time, 10)
	ht, ok := newHandoffTimer(func() { fired <- time.Now() }).(*fdHandoffTimer)
	if !ok {
		t.Fatal("newHandoffTimer did not make a timerfd timer on Linux")
	}
	wait := func() time.Time {
		t.Helper()
		select {
		case at := <-fired:
			return at
		case <-time.After(10 * time.Second):
			t.Fatal("the armed timer did not fire")
		}
		return time.Time{}
	}
	for range 3 {
		start := time.Now()
		ht.arm()
		if at := wait(); at.Sub(start) < handoffDelay {
			t.Errorf("fired after %v, before handoffDelay (%v)", at.Sub(start), handoffDelay)
		}
	}
	ht.arm()
	ht.disarm()
	var cur timerSpec
	if err := ht.rc.Control(func(fd uintptr) {
		if _, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_GETTIME, fd, uintptr(unsafe.Pointer(&cur)), 0); errno != 0 {
			t.Errorf("timerfd_gettime: %v", errno)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if cur != (timerSpec{}) {
		t.Errorf("disarmed timer: %+v, want no expiry pending", cur)
	}
	ht.close() // waits for the goroutine; a goroutine that did not end would hang the test
	select {
	case <-ht.done:
	default:
		t.Error("close returned before the timer's goroutine ended")
	}

	tr := startFake(t, Config{}, script("wait-eof"))
	if _, ok := tr.htimer.(*fdHandoffTimer); !ok {
		t.Errorf("the transport's handoff timer is a %T, want the timerfd one", tr.htimer)
	}
}
