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
	inner  sessions.Store
	tr     *tracker
	kick   func()
	prompt string // the prompt this attempt sends: its entry is the turn's first resume point
}

func (s recordingStore) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if err := s.inner.Append(ctx, key, entries); err != nil {
		return err
	}
	if key.AgentID != "" {
		return nil
	}
	var uuids []string
	advanced := false
	for _, e := range entries {
		var head entryHead
		if jsonv2.Unmarshal(e, &head) == nil && head.UUID != "" {
			uuids = append(uuids, head.UUID)
			if head.isPrompt(s.prompt) && s.tr.promptStored(head.UUID) {
				advanced = true
			}
		}
	}
	if s.tr.storedUUIDs(uuids) || advanced {
		s.kick()
	}
	return nil
}

// entryHead is what recordingStore reads of a transcript entry.
type entryHead struct {
	UUID        string `json:"uuid"`
	Type        string `json:"type"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		Content jsontext.Value `json:"content"`
	} `json:"message"`
}

// isPrompt reports the entry of prompt: a user entry of the main conversation whose content is
// that text (a string, or one text block).
func (h entryHead) isPrompt(prompt string) bool {
	if h.Type != "user" || h.IsMeta || h.IsSidechain || len(h.Message.Content) == 0 || prompt == "" {
		return false
	}
	var text string
	if jsonv2.Unmarshal(h.Message.Content, &text) == nil {
		return text == prompt
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	return jsonv2.Unmarshal(h.Message.Content, &blocks) == nil && len(blocks) == 1 && blocks[0].Type == "text" && blocks[0].Text == prompt
}
