package subprocess

import "time"

// handoffTimer is the stdout reader's handoff timer (Transport.inline): armed when a request starts
// running on the reader, disarmed when it ends; if it fires, its func runs on a goroutine of its
// own. Methods are called with Transport.hmu held.
type handoffTimer interface {
	arm()
	disarm()
	// close stops it for good (the transport has finished).
	close()
}

// runtimeHandoffTimer is a handoffTimer on a runtime timer (time.AfterFunc). Arming a runtime
// timer wakes another thread of the process (so that some thread will run it), which is why Linux
// uses a timerfd instead (handoff_linux.go).
type runtimeHandoffTimer struct {
	t    *time.Timer
	fire func()
}

func newRuntimeHandoffTimer(fire func()) *runtimeHandoffTimer {
	return &runtimeHandoffTimer{fire: fire}
}

func (r *runtimeHandoffTimer) arm() {
	if r.t == nil {
		r.t = time.AfterFunc(handoffDelay, r.fire)
		return
	}
	r.t.Reset(handoffDelay)
}

func (r *runtimeHandoffTimer) disarm() {
	if r.t != nil {
		r.t.Stop()
	}
}

func (r *runtimeHandoffTimer) close() { r.disarm() }
