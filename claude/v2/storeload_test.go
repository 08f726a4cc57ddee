package v2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// failingLoadStore is a ReadableStore whose Load and List fail, or wait for the context to end.
type failingLoadStore struct {
	sessions.FileStore
	fail error // nil: wait for ctx
}

func (s failingLoadStore) Load(ctx context.Context, _ sessions.Key) ([]jsontext.Value, error) {
	if s.fail != nil {
		return nil, s.fail
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// Resuming from a store that fails, or never answers, fails CreateSession with an error that names
// the store and the session, by the request timeout, before the CLI starts (the CLI path is the
// test binary, which would not speak the protocol); no file is left in the config directory.
func TestResumeFromStoreFailures(t *testing.T) {
	const id = "0a4ad2a5-98a6-4c7b-9a1c-9f2c1e0b5a01"
	cases := []struct {
		name  string
		store failingLoadStore
		want  error
		text  string
	}{
		{"Load fails", failingLoadStore{fail: errors.New("database down")}, nil, "database down"},
		{"Load never answers", failingLoadStore{}, context.DeadlineExceeded, "deadline"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only catches a hang
			defer cancel()
			s, err := v2.CreateSession(ctx, v2.WithCLIPath(os.Args[0]), v2.WithCwd(t.TempDir()),
				v2.WithBaseEnv("HOME="+home), v2.WithResume(id), v2.WithSessionStore(tc.store),
				v2.WithRequestTimeout(50*time.Millisecond))
			if err == nil {
				s.Close()
				t.Fatal("CreateSession succeeded")
			}
			if !strings.Contains(err.Error(), "v2: resuming session "+id+" from the session store") || !strings.Contains(err.Error(), tc.text) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("CreateSession: %v", err)
			}
			filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("a file was left: %s", p)
				}
				return nil
			})
		})
	}
}
