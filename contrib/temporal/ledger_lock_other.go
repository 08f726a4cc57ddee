//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package temporalagent

import "errors"

// lockFile fails: FileLedger needs flock.
func lockFile(string) (func(), error) {
	return nil, errors.New("FileLedger needs flock (a Unix system): use contrib/temporal/pgledger")
}
