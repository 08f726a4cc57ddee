package temporalagent

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// TranscriptLoader reads a session's transcript back from a store: the entries given to its
// Append, in order. It is what lets a worker resume a session another worker ran.
type TranscriptLoader interface {
	Load(ctx context.Context, key sessions.Key) ([]jsontext.Value, error)
}

// FileLoader loads what a sessions.FileStore with the same Dir wrote.
type FileLoader struct {
	Dir sessions.Dir
}

// Load reads key's transcript; a transcript that does not exist is no entries.
func (l FileLoader) Load(ctx context.Context, key sessions.Key) ([]jsontext.Value, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path := filepath.Join(string(l.Dir), "projects", key.ProjectKey, key.SessionID+".jsonl")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("temporalagent: loading transcript: %w", err)
	}
	var out []jsontext.Value
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			out = append(out, jsontext.Value(bytes.Clone(line)))
		}
	}
	return out, sc.Err()
}

// restoreTranscript makes sure the CLI on this worker has session id's transcript up to message
// at (or whole, for ""): if its own copy lacks it, the loader's copy replaces it. Without a
// loader it does nothing, and the CLI fails to resume what it does not have.
func (a *Activities) restoreTranscript(ctx context.Context, cwd, id, at string) error {
	if a.loader == nil {
		return nil
	}
	path, err := sessions.Dir(a.configDir).TranscriptPath(cwd, id)
	if err != nil {
		return fmt.Errorf("temporalagent: resuming session %s: %w", id, err)
	}
	if local, err := os.ReadFile(path); err == nil && (at == "" || bytes.Contains(local, []byte(`"uuid":"`+at+`"`))) {
		return nil
	}
	entries, err := a.loader.Load(ctx, sessions.Key{ProjectKey: sessions.ProjectKey(cwd), SessionID: id})
	if err != nil {
		return fmt.Errorf("temporalagent: loading session %s from the store: %w", id, err)
	}
	if len(entries) == 0 {
		return nil // the CLI reports the missing session
	}
	var buf bytes.Buffer
	for _, e := range entries {
		buf.Write(e)
		buf.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("temporalagent: restoring session %s: %w", id, err)
	}
	tmp := path + ".restore"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("temporalagent: restoring session %s: %w", id, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("temporalagent: restoring session %s: %w", id, err)
	}
	return nil
}

// lastMessage returns the uuid of the last user or assistant message of session id's transcript
// on this worker, or "" if it has none.
func (a *Activities) lastMessage(cwd, id string) string {
	last := ""
	for m, err := range sessions.Dir(a.configDir).Messages(cwd, id) {
		if err != nil {
			continue
		}
		if u := messageUUID(m); u != "" {
			last = u
		}
	}
	return last
}

// recordingStore passes Appends to the worker's store and tells the turn's tracker which
// messages the store has, so that the resume point is always one the store can give back.
type recordingStore struct {
	inner sessions.Store
	tr    *tracker
	kick  func()
}

func (s recordingStore) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if err := s.inner.Append(ctx, key, entries); err != nil {
		return err
	}
	if key.AgentID != "" {
		return nil
	}
	var uuids []string
	for _, e := range entries {
		var head struct {
			UUID string `json:"uuid"`
		}
		if jsonv2.Unmarshal(e, &head) == nil && head.UUID != "" {
			uuids = append(uuids, head.UUID)
		}
	}
	if s.tr.storedUUIDs(uuids) {
		s.kick()
	}
	return nil
}
