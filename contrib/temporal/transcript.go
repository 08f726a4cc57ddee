package temporalagent

import (
	"bytes"
	"context"
	"fmt"
	"os"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// restoreTranscript makes sure the CLI on this worker has session id's transcript up to message
// at (or whole, for ""): if its own copy lacks it (another worker ran the session, or ran it
// further), the store's copy replaces it (sessions.Dir.CopyFromStore; the stale copy is kept
// beside it, renamed *.jsonl.stale). Without a readable store it does nothing, and the CLI fails
// to resume what it does not have.
func (a *Activities) restoreTranscript(ctx context.Context, cwd, id, at string) error {
	store, ok := a.store.(sessions.ReadableStore)
	if !ok {
		return nil
	}
	dir := sessions.Dir(a.configDir)
	path, err := dir.TranscriptPath(cwd, id)
	if err != nil {
		return fmt.Errorf("temporalagent: resuming session %s: %w", id, err)
	}
	if local, err := os.ReadFile(path); err == nil {
		if at == "" || bytes.Contains(local, []byte(`"uuid":"`+at+`"`)) {
			return nil
		}
		if err := os.Rename(path, path+".stale"); err != nil {
			return fmt.Errorf("temporalagent: resuming session %s: %w", id, err)
		}
	}
	if err := dir.CopyFromStore(ctx, store, cwd, id); err != nil {
		return fmt.Errorf("temporalagent: resuming session %s from the store: %w", id, err)
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
