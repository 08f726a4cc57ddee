package sessions

import (
	"bytes"
	"context"
	"fmt"
	"iter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ListStore returns the sessions store holds for projectKey (ProjectKey of the working
// directory, absolute, symbolic links resolved), as Dir.List does for a config directory:
// newest first (by LastActivity, which is the store's Transcript.Modified, then ID), subagents
// and sessions without a prompt or title left out, each Info read from the start and the end of
// the transcript; Path is "" and Size the bytes of its entries, one a line. It loads every
// session of the project (the official SDKs do the same without a summary index): for a project
// with many long sessions, keep your own index. ctx bounds it.
func ListStore(ctx context.Context, store ReadableStore, projectKey string) ([]Info, error) {
	listed, err := store.List(ctx, projectKey)
	if err != nil {
		return nil, fmt.Errorf("sessions: listing project %s in the store: %w", projectKey, err)
	}
	var out []Info
	for _, t := range listed {
		if t.Key.AgentID != "" || t.Key.ProjectKey != projectKey || !isUUID(t.Key.SessionID) {
			continue
		}
		entries, err := store.Load(ctx, t.Key)
		if err != nil {
			return nil, fmt.Errorf("sessions: loading session %s from the store: %w", t.Key.SessionID, err)
		}
		data := joinEntries(entries)
		info := Info{ID: t.Key.SessionID, Size: int64(len(data)), LastActivity: t.Modified}
		head, tail := data, data
		if len(data) > 2*window {
			head, tail = data[:window], data[len(data)-window:]
			if i := bytes.IndexByte(tail, '\n'); i >= 0 {
				tail = tail[i+1:]
			}
		}
		if fillInfo(&info, head, tail) {
			out = append(out, info)
		}
	}
	sortByActivity(out)
	return out, nil
}

// StoreMessages returns the messages of key's transcript in store, as Dir.Messages (for a
// session's key) and Dir.SubagentMessages (for a subagent's: their ParentToolUseID is the
// toolUseId of the transcript's "agent_metadata" entry) do for a config directory. The
// transcript is loaded whole, when the iteration starts, bounded by ctx; a key the store lacks is
// one ErrNotFound error.
func StoreMessages(ctx context.Context, store ReadableStore, key Key) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		entries, err := store.Load(ctx, key)
		if err != nil {
			yield(nil, fmt.Errorf("sessions: loading %s from the store: %w", describeKey(key), err))
			return
		}
		var parent *string
		if key.AgentID != "" {
			for _, e := range entries {
				var meta struct {
					Type      string `json:"type"`
					ToolUseID string `json:"toolUseId"`
				}
				if json.Unmarshal(e, &meta) == nil && meta.Type == agentMetadataType && meta.ToolUseID != "" {
					parent = &meta.ToolUseID
				}
			}
		}
		readMessages(bytes.NewReader(joinEntries(entries)), "store: "+describeKey(key), 0, func(m shared.Message, err error) bool {
			setParent(m, parent)
			return yield(m, err)
		})
	}
}

// joinEntries returns entries one a line, as in a transcript file (an entry with a newline of
// its own, which a store may give back re-indented, is compacted first).
func joinEntries(entries []jsontext.Value) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		if bytes.IndexByte(e, '\n') >= 0 {
			v := jsontext.Value(bytes.Clone(e))
			if v.Compact() == nil {
				e = v
			}
		}
		b.Write(e)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// describeKey names a key in errors.
func describeKey(k Key) string {
	if k.AgentID != "" {
		return fmt.Sprintf("subagent %s of session %s (project %s)", k.AgentID, k.SessionID, k.ProjectKey)
	}
	return fmt.Sprintf("session %s (project %s)", k.SessionID, k.ProjectKey)
}
