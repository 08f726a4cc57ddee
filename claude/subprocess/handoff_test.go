package subprocess

import (
	"testing"
	"time"
)

// TestRuntimeHandoffTimer: the runtime-timer handoff timer (the one used off Linux, or where no
// timerfd can be made) fires once per arming, after handoffDelay, and disarm leaves nothing
// pending.
func TestRuntimeHandoffTimer(t *testing.T) {
	fired := make(chan time.Time, 10)
	ht := newRuntimeHandoffTimer(func() { fired <- time.Now() })
	ht.disarm() // before any arming: nothing to stop
	for range 3 {
		start := time.Now()
		ht.arm()
		select {
		case at := <-fired:
			if at.Sub(start) < handoffDelay {
				t.Errorf("fired after %v, before handoffDelay (%v)", at.Sub(start), handoffDelay)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the armed timer did not fire")
		}
	}
	ht.arm()
	if !ht.t.Stop() {
		t.Fatal("the armed timer was not pending")
	}
	ht.arm()
	ht.disarm()
	if ht.t.Stop() {
		t.Error("disarm left the timer pending")
	}
	ht.close()
}
