package cputime

import "testing"

// TestSelfGrowsWithWork: the CPU time read after some work is larger than before it.
func TestSelfGrowsWithWork(t *testing.T) {
	before := Self()
	if before <= 0 {
		t.Fatalf("Self() = %v, want a positive CPU time", before)
	}
	x := 0
	for i := 0; Self() == before; i++ {
		x += i * i // spin until the kernel accounts more CPU time; a broken Self never ends it
	}
	_ = x
}
