//go:build unix

package sessions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// within runs f and fails the test if it has not returned after a bound so generous that it only
// catches a hang.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return: it hangs", what)
		return nil
	}
}

// firstErr runs the iteration and returns its first error (it stops there).
func firstErr[M any](seq func(func(M, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestTranscriptNotARegularFile: a transcript that is a FIFO, a link to /dev/zero, a link to a
// file outside the config directory, or a directory is refused with ErrNotRegularFile by every
// call that opens it, at once; nothing is written through a link. Before the fix, Stat,
// Messages and Fork blocked forever in the open of a FIFO, Messages read /dev/zero forever (a
// line that never ends), and Rename and Tag appended to the file outside through the link.
func TestTranscriptNotARegularFile(t *testing.T) {
	const cwd = "/home/me/demo"
	kinds := []struct {
		name string
		make func(t *testing.T, path string) (outside string)
	}{
		{"fifo", func(t *testing.T, path string) string {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return ""
		}},
		{"link to /dev/zero", func(t *testing.T, path string) string {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"link outside the config directory", func(t *testing.T, path string) string {
			outside := filepath.Join(t.TempDir(), "victim.jsonl")
			if err := os.WriteFile(outside, []byte(`{"type":"user","uuid":"u1","sessionId":"`+idA+`","message":{"role":"user","content":"hi"}}`+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, path); err != nil {
				t.Fatal(err)
			}
			return outside
		}},
		{"directory", func(t *testing.T, path string) string {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
	}
	storeKey := sessions.Key{ProjectKey: sessions.ProjectKey(cwd), SessionID: idA}
	calls := []struct {
		name string
		call func(d sessions.Dir) error
	}{
		{"Stat", func(d sessions.Dir) error { _, err := d.Stat(cwd, idA); return err }},
		{"Messages", func(d sessions.Dir) error { return firstErr(d.Messages(cwd, idA)) }},
		{"Fork", func(d sessions.Dir) error { _, err := d.Fork(cwd, idA, sessions.ForkOptions{}); return err }},
		{"Rename", func(d sessions.Dir) error { return d.Rename(cwd, idA, "new title") }},
		{"Tag", func(d sessions.Dir) error { return d.Tag(cwd, idA, "tag") }},
		// The store's files and the copy from the CLI's directory: before, Append and Load
		// blocked in the open of a FIFO and Append wrote through a link.
		{"FileStore.Append", func(d sessions.Dir) error {
			return sessions.FileStore{Dir: d}.Append(context.Background(), storeKey, []jsontext.Value{jsontext.Value(`{"type":"user"}`)})
		}},
		{"FileStore.Load", func(d sessions.Dir) error {
			_, err := sessions.FileStore{Dir: d}.Load(context.Background(), storeKey)
			return err
		}},
		{"CopyToStore", func(d sessions.Dir) error {
			return d.CopyToStore(context.Background(), sessions.FileStore{Dir: sessions.Dir(filepath.Join(string(d), "store"))}, cwd, idA)
		}},
	}
	for _, k := range kinds {
		for _, c := range calls {
			t.Run(k.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				d := sessions.Dir(t.TempDir())
				path, err := d.TranscriptPath(cwd, idA)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				outside := k.make(t, path)
				var before []byte
				if outside != "" {
					before, _ = os.ReadFile(outside)
				}
				err = within(t, c.name, func() error { return c.call(d) })
				if !errors.Is(err, sessions.ErrNotRegularFile) {
					t.Errorf("%s = %v, want ErrNotRegularFile", c.name, err)
				}
				if outside != "" {
					if after, _ := os.ReadFile(outside); string(after) != string(before) {
						t.Errorf("%s wrote through the link to %s:\n%s", c.name, outside, after)
					}
				}
				// List skips it (it lists regular files only) and does not hang.
				if err := within(t, "List", func() error { _, err := d.List(context.Background(), cwd); return err }); err != nil {
					t.Errorf("List = %v", err)
				}
			})
		}
	}
}

// noNewline is a reader of noNewline bytes without a newline.
type noNewline struct{}

func (noNewline) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestEndlessLineSaidAtOnce: a line that never ends is reported with ErrLineTooLong as soon as it
// passes the maximum, so that a caller can stop; before, the reader read on forever.
func TestEndlessLineSaidAtOnce(t *testing.T) {
	err := within(t, "ReadMessages", func() error { return firstErr(sessions.ReadMessages(noNewline{}, 1024)) })
	if !errors.Is(err, sessions.ErrLineTooLong) {
		t.Errorf("ReadMessages = %v, want ErrLineTooLong", err)
	}
}
