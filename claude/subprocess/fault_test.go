package subprocess

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Faults at the transport level: a CLI that stops reading its stdin, every way a handler can fail
// for every event, and the line reader under arbitrary input (FuzzReadLine). The session-level
// faults are in internal/replay.

// stalledCLI starts a transport whose fake CLI sends n hook requests and then stops reading: the
// answers (a deny with a 2 KiB reason each, so that they overflow the 64 KiB pipe) cannot all be
// written. It returns once every handler has run.
func stalledCLI(t *testing.T, n int, cfg Config) *Transport {
	t.Helper()
	var ran atomic.Int32
	all := make(chan struct{})
	reason := strings.Repeat("r", 2048)
	cfg.Hooks = executor(t, shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		if ran.Add(1) == int32(n) {
			close(all)
		}
		return shared.Deny(reason), nil
	})}}})
	var verbs []string
	for i := range n {
		verbs = append(verbs, "out "+hookCallbackLine(fmt.Sprintf("s%d", i), toolInput(shared.HookEventPreToolUse, "Bash", "x")))
	}
	verbs = append(verbs, "hang")
	tr := startFake(t, cfg, script(verbs...))
	select {
	case <-all:
	case <-time.After(30 * time.Second):
		t.Fatalf("only %d of %d handlers ran", ran.Load(), n)
	}
	return tr
}

// TestStalledCLIWritesFailFast: once one write has stalled for WriteTimeout, the stream on stdin
// is broken (a line may be half written): every later write fails at once with ErrStalled instead
// of waiting WriteTimeout again behind the others, so that no hook goroutine waits for long.
func TestStalledCLIWritesFailFast(t *testing.T) {
	t.Parallel()
	const writeTimeout = 300 * time.Millisecond
	tr := stalledCLI(t, 100, Config{WriteTimeout: writeTimeout, CloseGrace: 50 * time.Millisecond})
	// ~70 answers wait for the pipe; one at a time, each for WriteTimeout, they would take 20 s.
	start := time.Now()
	err := tr.WriteMessage(map[string]string{"type": "user"})
	if d := time.Since(start); d > 10*writeTimeout {
		t.Errorf("a write behind the stalled ones took %v", d)
	}
	if !errors.Is(err, shared.ErrStalled) {
		t.Errorf("WriteMessage = %v, want shared.ErrStalled", err)
	}
	start = time.Now()
	if err := tr.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
}

// TestCloseInterruptsAStalledWrite: a CLI that stops reading while writes wait (WriteTimeout an
// hour here): Close neither waits for them nor for their timeout; every blocked writer returns.
func TestCloseInterruptsAStalledWrite(t *testing.T) {
	t.Parallel()
	tr := stalledCLI(t, 100, Config{WriteTimeout: time.Hour, CloseGrace: 50 * time.Millisecond})
	writeErr := make(chan error, 1)
	go func() { writeErr <- tr.WriteMessage(map[string]string{"type": "user"}) }()
	closed := make(chan error, 1)
	go func() { closed <- tr.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close blocks behind a write to a CLI that stopped reading")
	}
	select {
	case err := <-writeErr:
		if err == nil {
			t.Error("a write to the stalled CLI succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a blocked write did not return after Close")
	}
}

// FuzzReadLine: whatever the CLI writes, the line reader returns the lines that splitting on '\n'
// gives (without a final "\r"), reports a line longer than max as too long with its size, reads
// every byte once, and never depends on the read buffer's size.
func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"", "a\nb\n", "a\r\nb", "\n\n\r\n", "\r\r\n", strings.Repeat("x", 40) + "\nshort\n", "\x00\xff\n{\"type\":", "a\rb\n"} {
		f.Add([]byte(s), uint8(16), uint8(8))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLine, bufSize uint8) {
		max := int(maxLine) + 1
		size := int(bufSize)%64 + 16 // bufio's minimum is 16
		br := bufio.NewReaderSize(iotestHalf(bytes.NewReader(data)), size)
		var want []string
		parts := strings.Split(string(data), "\n")
		if parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1] // the input ends with a newline, or is empty
		}
		for _, p := range parts {
			l := strings.TrimRight(p, "\r")
			switch {
			case len(p) > max+1 || len(l) > max:
				want = append(want, fmt.Sprintf("TOO LONG %d", len(p)))
			default:
				want = append(want, l)
			}
		}
		var got []string
		for range len(data) + 2 {
			line, n, err := readLine(br, max)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("readLine: %v", err)
			}
			if line == nil {
				got = append(got, fmt.Sprintf("TOO LONG %d", n))
				continue
			}
			got = append(got, string(line))
		}
		if strings.Join(got, "\x00|") != strings.Join(want, "\x00|") || len(got) != len(want) {
			t.Errorf("readLine(%q, max %d, buffer %d):\n got  %q\n want %q", data, max, size, got, want)
		}
	})
}

// iotestHalf returns r reading at most half of each request (at least one byte), so that lines
// arrive in pieces as they do from a pipe.
func iotestHalf(r io.Reader) io.Reader { return halfReader{r} }

type halfReader struct{ r io.Reader }

func (h halfReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:(len(p)+1)/2]
	}
	return h.r.Read(p)
}
