//go:build !linux

package subprocess

// killTagged does nothing where there is no /proc to find tagged processes in: only the process
// group (Unix) or process tree (Windows) is stopped there.
func killTagged(string) {}
