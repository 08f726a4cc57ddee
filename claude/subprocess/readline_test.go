package subprocess

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readAll reads every line of input with readLine and describes each: the line, or "TOO LONG n".
func readAll(t *testing.T, r io.Reader, bufSize, max int) []string {
	t.Helper()
	br := bufio.NewReaderSize(r, bufSize)
	var got []string
	for range 1000 {
		line, size, err := readLine(br, max)
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("readLine: %v", err)
		}
		if line == nil {
			got = append(got, fmt.Sprintf("TOO LONG %d", size))
			continue
		}
		if size < len(line) {
			t.Errorf("size %d < len(line) %d", size, len(line))
		}
		got = append(got, string(line))
	}
	t.Fatal("readLine does not reach EOF")
	return nil
}

func TestReadLine(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name  string
		input string
		max   int
		want  []string
	}{
		{"lines", "a\nbb\n", 10, []string{"a", "bb"}},
		{"empty input", "", 10, nil},
		{"blank lines", "\n\n", 10, []string{"", ""}},
		{"CRLF", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"last line without newline", "a\nlast", 10, []string{"a", "last"}},
		{"last line without newline, CR", "a\nlast\r", 10, []string{"a", "last"}},
		{"a lone CR is kept inside a line", "a\rb\n", 10, []string{"a\rb"}},
		{"exactly max", x(10) + "\n", 10, []string{x(10)}},
		{"exactly max with CRLF", x(10) + "\r\n", 10, []string{x(10)}},
		{"exactly max at EOF", x(10), 10, []string{x(10)}},
		{"max+1", x(11) + "\nok\n", 10, []string{"TOO LONG 11", "ok"}},
		{"max+1 at EOF", "ok\n" + x(11), 10, []string{"ok", "TOO LONG 11"}},
		{"max+1 with CRLF", x(11) + "\r\nok\n", 10, []string{"TOO LONG 12", "ok"}},
		{"far too long, then in sync", x(100) + "\n" + x(5) + "\n", 10, []string{"TOO LONG 100", x(5)}},
		{"longer than the buffer but within max", x(100) + "\n" + "y\n", 1000, []string{x(100), "y"}},
		{"two long lines in a row", x(50) + "\n" + x(60) + "\n" + "z", 40, []string{"TOO LONG 50", "TOO LONG 60", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The smallest bufio buffer (16) makes every long line span several ReadSlice calls;
			// a one-byte reader makes every line arrive in pieces.
			for _, bufSize := range []int{16, 4096} {
				for _, r := range []io.Reader{strings.NewReader(tt.input), iotest.OneByteReader(strings.NewReader(tt.input))} {
					if diff := cmp.Diff(tt.want, readAll(t, r, bufSize, tt.max)); diff != "" {
						t.Errorf("buffer %d, %T: lines (-want +got):\n%s", bufSize, r, diff)
					}
				}
			}
		})
	}
}

// TestReadLineCopies: the returned line survives later reads (the parser keeps it).
func TestReadLineCopies(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("first\nsecond\n"), 16)
	a, _, _ := readLine(br, 100)
	b, _, _ := readLine(br, 100)
	if string(a) != "first" || string(b) != "second" {
		t.Errorf("lines = %q, %q", a, b)
	}
}

func TestReadLineError(t *testing.T) {
	boom := errors.New("read failed")
	br := bufio.NewReaderSize(io.MultiReader(strings.NewReader("ok\npart"), iotest.ErrReader(boom)), 16)
	if l, _, err := readLine(br, 100); string(l) != "ok" || err != nil {
		t.Fatalf("first = %q, %v", l, err)
	}
	if _, _, err := readLine(br, 100); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the reader's error", err)
	}
}
