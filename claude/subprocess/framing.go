package subprocess

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Framing: the CLI speaks one JSON value per line. readLineHead reads a line with an explicit
// maximum; lineWriter is the one writer of the CLI's stdin.

// readLine returns the next line without its line ending ("\n", "\r\n"). size is the line's length
// without the "\n". A line longer than max bytes (not counting a final '\r') is consumed up to its
// newline and returned as nil with its size, so the stream stays in sync. err is io.EOF at the
// end; a last line without a newline is returned with err == nil first. The line is a fresh copy:
// the caller may keep it.
func readLine(br *bufio.Reader, max int) (line []byte, size int, err error) {
	return readLineHead(br, max, nil)
}

// oversizedHead is how much of an oversized line readLineHead keeps: enough for the envelope of a
// request (type, request_id, subtype, callback_id), which the CLI writes first.
const oversizedHead = 4 << 10

// readLineHead is readLine; for a line that is too long it also stores the line's first bytes
// (at most oversizedHead) in *head when head is not nil, so that the request can still be answered.
func readLineHead(br *bufio.Reader, max int, head *[]byte) (line []byte, size int, err error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		data := chunk
		if err == nil {
			data = chunk[:len(chunk)-1]
		}
		size += len(data)
		if !tooLong {
			// Keep one byte beyond max: it may be the '\r' of a "\r\n".
			if size > max+1 {
				if head != nil {
					buf = append(buf, data...)
					*head = append([]byte(nil), buf[:min(len(buf), oversizedHead)]...)
				}
				tooLong, buf = true, nil
			} else {
				buf = append(buf, data...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && size == 0:
			return nil, 0, io.EOF
		case err != nil && err != io.EOF:
			return nil, 0, err
		}
		if !tooLong {
			for len(buf) > 0 && buf[len(buf)-1] == '\r' {
				buf = buf[:len(buf)-1]
			}
			tooLong = len(buf) > max
			if tooLong && head != nil {
				*head = append([]byte(nil), buf[:min(len(buf), oversizedHead)]...)
			}
		}
		if tooLong {
			return nil, size, nil
		}
		if buf == nil {
			buf = []byte{}
		}
		return buf, size, nil
	}
}

// lineWriter writes lines to the CLI's stdin: one mutex, one Write per line, each bounded by a
// write deadline. After a write failed, the line on stdin may be cut short: every later write
// fails at once with the same error.
type lineWriter struct {
	f       *os.File
	timeout time.Duration

	mu     sync.Mutex
	closed bool  // stdin is closed: writes fail with closedErr, or ErrClosed
	broken error // the error of a write that failed
	// closedErr is what writes fail with after the process ended on its own (a *ProcessError).
	closedErr error
	// closeOnce closes f without mu, so that a write blocked on a CLI that stopped reading returns
	// at once (with os.ErrClosed) instead of holding up the caller.
	closeOnce sync.Once
}

// encodeOptions: JSON v2, with object keys sorted (one line for one value), and omitempty
// leaving out false and 0 as it always did here: the output types still say omitempty where
// they mean omitzero, and the CLI's lines stay as they were.
var encodeOptions = json.JoinOptions(json.Deterministic(true), jsonv1.OmitEmptyWithLegacySemantics(true))

// answerOptions encode the SDK's answers to the CLI's requests: encodeOptions, with invalid
// UTF-8 in a string written as U+FFFD (jsontext.AllowInvalidUTF8), as hooks.Marshal does. A
// handler's reason may come from a file's bytes; an answer that could not be encoded would not be
// written, and the CLI would wait for its own timeout with nobody to get the error.
var answerOptions = json.JoinOptions(encodeOptions, jsontext.AllowInvalidUTF8(true))

// writeJSON encodes v (JSON v2 semantics, with opts: encodeOptions or answerOptions) and writes
// it as one line.
func (w *lineWriter) writeJSON(v any, opts json.Options) error {
	b, err := json.Marshal(v, opts)
	if err != nil {
		return fmt.Errorf("subprocess: encoding message: %w", err)
	}
	return w.writeLine(append(b, '\n'))
}

// writeLine writes line, a whole line with its newline, in one Write.
func (w *lineWriter) writeLine(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		if w.closedErr != nil {
			return w.closedErr
		}
		return shared.ErrClosed
	}
	if w.broken != nil {
		return w.broken
	}
	// Pipes without deadline support (Windows) write without one.
	_ = w.f.SetWriteDeadline(time.Now().Add(w.timeout))
	if _, err := w.f.Write(line); err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			err = fmt.Errorf("%w: %v", shared.ErrStalled, err)
		case errors.Is(err, os.ErrClosed):
			err = shared.ErrClosed // Close closed stdin under a blocked write
		default:
			err = fmt.Errorf("subprocess: writing to CLI: %w", err)
		}
		w.broken = err
		return err
	}
	return nil
}

// close closes stdin; later writes fail with err (the first non-nil one given), or ErrClosed.
// The file is closed before mu is taken, so that a blocked write ends first.
func (w *lineWriter) close(err error) {
	w.closeOnce.Do(func() { w.f.Close() })
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.closedErr == nil {
		w.closedErr = err
	}
}
