//go:build !linux

package subprocess

func newHandoffTimer(fire func()) handoffTimer { return newRuntimeHandoffTimer(fire) }
