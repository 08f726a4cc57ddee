//go:build windows

package subprocess

import (
	"io/fs"
	"os/exec"
)

// executable reports whether fi may be run: any regular file, on Windows.
func executable(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }

// exitSignal returns "": Windows processes are not killed by signals.
func exitSignal(*exec.ExitError) string { return "" }
