// Package auditlog appends JSON records to a JSON Lines file, one line per record, safely from
// many goroutines and processes at once.
//
// Each record is marshalled first and written with a single write call on a file opened with
// O_APPEND, under a mutex. O_APPEND makes the kernel place every write at the end of the file
// atomically, so lines from concurrent writers (goroutines or processes) never interleave, and the
// mutex keeps one process's lines in the order they were logged. A crash can at worst leave the
// last line cut short: readers should skip a final line without its newline.
package auditlog

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// Log is an open audit file. It is safe for concurrent use.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (or creates, mode 0600) the file at path for appending.
func Open(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("auditlog: %w", err)
	}
	return &Log{f: f}, nil
}

// Write appends v, marshalled as JSON, as one line. A value that does not marshal writes nothing.
func (l *Log) Write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("auditlog: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("auditlog: %w", os.ErrClosed)
	}
	if _, err := l.f.Write(b); err != nil { // one write call per line
		return fmt.Errorf("auditlog: %w", err)
	}
	return nil
}

// Close closes the file. Later writes fail with os.ErrClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
