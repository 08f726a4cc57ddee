package auditlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type rec struct {
	Writer int    `json:"writer"`
	Seq    int    `json:"seq"`
	Pad    string `json:"pad"`
}

// TestConcurrentWritersKeepLinesWhole writes from many goroutines through two Logs on the same
// file (as two processes would) and checks that every line is a whole record.
func TestConcurrentWritersKeepLinesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	logs := make([]*Log, 2)
	for i := range logs {
		l, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		logs[i] = l
	}
	const writers, each = 16, 200
	pad := strings.Repeat("x", 3000) // lines well over one pipe buffer's atomic size
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := logs[w%2].Write(rec{Writer: w, Seq: i, Pad: pad}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	next := make([]int, writers)
	n := 0
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not a whole record: %v", n+1, err)
		}
		if r.Seq != next[r.Writer] {
			t.Fatalf("writer %d: got seq %d, want %d (lines of one writer out of order)", r.Writer, r.Seq, next[r.Writer])
		}
		next[r.Writer]++
		n++
	}
	if n != writers*each {
		t.Errorf("got %d lines, want %d", n, writers*each)
	}
}

func TestWriteAfterClose(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(rec{}); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Write after Close = %v, want os.ErrClosed", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestUnmarshalableWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Write(func() {}); err == nil {
		t.Error("Write of a func succeeded")
	}
	if b, _ := os.ReadFile(path); len(b) != 0 {
		t.Errorf("file holds %q", b)
	}
}
