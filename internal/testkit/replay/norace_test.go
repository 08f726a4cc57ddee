//go:build !race

package replay

// raceEnabled: the race detector slows byte-by-byte work (JSON scanning) about tenfold.
const raceEnabled = false
