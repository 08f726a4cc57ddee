package temporalagent

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// FileLedger is a Ledger in a directory: per turn, a file of entries (JSON lines, synced on each
// write) and a file naming its owner and lease, changed under an exclusive lock (flock) on a
// third. Workers on one machine, or on a file system whose locks hold across machines, can share
// it. It needs a Unix system (flock); elsewhere its methods fail.
type FileLedger struct {
	// Dir is the directory; it is created when missing.
	Dir string
}

// fileOwner is a turn's owner file.
type fileOwner struct {
	Attempt    int
	LeaseUntil time.Time
}

// Claim implements Ledger.
func (l FileLedger) Claim(ctx context.Context, turn string, attempt int, lease time.Duration) ([]LedgerEntry, time.Duration, error) {
	var entries []LedgerEntry
	var wait time.Duration
	err := l.locked(ctx, turn, func(base string, o *fileOwner) error {
		if o.Attempt > attempt {
			return fmt.Errorf("%w (attempt %d, owner %d)", ErrFenced, attempt, o.Attempt)
		}
		now := time.Now()
		if o.Attempt < attempt && o.LeaseUntil.After(now) {
			wait = o.LeaseUntil.Sub(now)
		}
		o.Attempt, o.LeaseUntil = attempt, now.Add(wait+lease)
		var err error
		entries, err = readEntries(base + ".jsonl")
		return err
	})
	return entries, wait, err
}

// Renew implements Ledger.
func (l FileLedger) Renew(ctx context.Context, turn string, attempt int, lease time.Duration) error {
	return l.locked(ctx, turn, func(_ string, o *fileOwner) error {
		if o.Attempt != attempt {
			return fmt.Errorf("%w (attempt %d, owner %d)", ErrFenced, attempt, o.Attempt)
		}
		o.LeaseUntil = time.Now().Add(lease)
		return nil
	})
}

// Append implements Ledger.
func (l FileLedger) Append(ctx context.Context, turn string, attempt int, e LedgerEntry) error {
	return l.locked(ctx, turn, func(base string, o *fileOwner) error {
		if o.Attempt != attempt {
			return fmt.Errorf("%w (attempt %d, owner %d)", ErrFenced, attempt, o.Attempt)
		}
		b, err := jsonv2.Marshal(e)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(base+".jsonl", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(b, '\n')); err != nil {
			f.Close()
			return err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// locked runs fn on turn's owner under the turn's lock, and writes the owner back (synced, by
// rename) when fn succeeds.
func (l FileLedger) locked(ctx context.Context, turn string, fn func(base string, o *fileOwner) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	sum := sha256.Sum256([]byte(turn))
	base := filepath.Join(l.Dir, hex.EncodeToString(sum[:16]))
	unlock, err := lockFile(base + ".lock")
	if err != nil {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	defer unlock()
	var o fileOwner
	if b, err := os.ReadFile(base + ".owner"); err == nil {
		if err := jsonv2.Unmarshal(b, &o); err != nil {
			return fmt.Errorf("temporalagent: ledger: %s.owner: %w", base, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	before := o
	if err := fn(base, &o); err != nil {
		if errors.Is(err, ErrFenced) {
			return err
		}
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	if o == before {
		return nil
	}
	return writeSynced(base+".owner", o)
}

// writeSynced writes v as JSON to path through a synced temporary file and a rename.
func writeSynced(path string, v any) error {
	b, err := jsonv2.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("temporalagent: ledger: %w", err)
	}
	return nil
}

// readEntries reads a turn's entries; a missing file is none.
func readEntries(path string) ([]LedgerEntry, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []LedgerEntry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 4*maxRecordedResult)
	for sc.Scan() {
		var e LedgerEntry
		if err := jsonv2.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
