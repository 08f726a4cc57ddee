package subprocess

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// TestRawPipeReader: the raw reader of a pipe reads what is written, waits (in the poller) while
// the pipe is empty, reports io.EOF when the writer closes, and os.ErrClosed once it is closed
// itself, as os.File does. A blocking descriptor is read through os.File instead.
func TestRawPipeReader(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rd := newRawPipeReader(r)
	if _, ok := rd.(*rawPipeReader); !ok {
		t.Fatalf("newRawPipeReader(os.Pipe) = %T, want the raw reader", rd)
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 10000) // more than the pipe holds
	go func() {
		w.Write(want[:100])
		w.Write(want[100:])
		w.Close()
	}()
	got, err := io.ReadAll(rd)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadAll = %d bytes, %v; want %d bytes as written", len(got), err, len(want))
	}
	r.Close()
	if _, err := rd.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Read after Close = %v, want os.ErrClosed", err)
	}

	// A descriptor in blocking mode (not in the poller) is not read raw.
	br, bw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer bw.Close()
	defer br.Close()
	br.Fd() // puts the descriptor in blocking mode
	if rd := newRawPipeReader(br); rd != io.Reader(br) {
		t.Errorf("newRawPipeReader(a blocking descriptor) = %T, want the *os.File itself", rd)
	}
}
