package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// lockPrivate creates and locks dir's lock file. The lock lives as long as the returned file: a
// process that dies (SIGKILL too) leaves its private directory with a lock nobody holds, which
// sweepStale removes. The lock file is beside the directory, not in it, so that the confined CLI
// (which may write in its private directory) cannot remove or replace it.
func lockPrivate(dir string) (*os.File, error) {
	// Locked under another name, then renamed: a sweeper never sees the lock file unlocked.
	f, err := os.OpenFile(dir+".locking", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if err == nil {
		err = os.Rename(dir+".locking", dir+lockSuffix)
	}
	if err != nil {
		f.Close()
		_ = os.Remove(dir + ".locking")
		return nil, err
	}
	return f, nil
}

// unlockPrivate removes dir's lock file, then releases the lock.
func unlockPrivate(dir string, f *os.File) {
	if f == nil {
		return
	}
	_ = os.Remove(dir + lockSuffix)
	f.Close()
}

// sweepStale removes the private directories in tmp whose owner has gone without Close (its
// process was killed): their lock file is not locked. Directories of a live Plan (locked, in
// this process or another that shares tmp, whatever its PID namespace) and those without a lock
// file are left alone. Errors are ignored: sweeping is tidying, a start never fails on it.
func sweepStale(tmp string) {
	locks, _ := filepath.Glob(filepath.Join(tmp, privatePrefix+"*"+lockSuffix))
	for _, lock := range locks {
		f, err := os.OpenFile(lock, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			dir := strings.TrimSuffix(lock, lockSuffix)
			if fi, err := os.Lstat(dir); err == nil && fi.IsDir() || errors.Is(err, os.ErrNotExist) {
				_ = os.RemoveAll(dir)
				_ = os.Remove(lock)
			}
		}
		f.Close()
	}
}
