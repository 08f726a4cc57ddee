package subprocess

import (
	"context"
	"testing"
	"time"
)

// A flight behaves as a context.WithCancel: Done, Err, context.Cause, derived contexts and
// context.AfterFunc (with stop) follow its cancel.
func TestFlightContext(t *testing.T) {
	f := &flight{}
	var ctx context.Context = f
	child, stopChild := context.WithCancel(ctx)
	defer stopChild()
	ran := make(chan struct{})
	context.AfterFunc(ctx, func() { close(ran) })
	stopped := context.AfterFunc(ctx, func() { t.Error("a stopped AfterFunc ran") })
	if !stopped() {
		t.Fatal("stop = false before the cancel")
	}
	if ctx.Err() != nil || context.Cause(ctx) != nil {
		t.Fatal("ended early")
	}
	f.cancel()
	f.cancel() // idempotent
	<-ctx.Done()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("derived ctx not cancelled")
	}
	<-ran
	if ctx.Err() != context.Canceled || context.Cause(ctx) != context.Canceled || child.Err() != context.Canceled {
		t.Fatalf("Err %v, Cause %v, child %v", ctx.Err(), context.Cause(ctx), child.Err())
	}
	// After the cancel: AfterFunc runs at once, a derived ctx is born done.
	late := make(chan struct{})
	context.AfterFunc(ctx, func() { close(late) })
	<-late
	c2, stop2 := context.WithCancel(ctx)
	defer stop2()
	if c2.Err() == nil {
		t.Fatal("ctx derived from a cancelled flight is not done")
	}
}
