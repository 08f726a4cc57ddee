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
// and sessions without a prompt or title left out. Path is "" and Size the bytes of its entries,
// one a line. The Info of a session is its Summary's (Summary.Info): read from the store if it
// is a SummaryStore and the summary is not older than the transcript, else folded from the
// session's entries, loaded whole. So a SummaryStore lists a project with one List and one
// Summaries call; another store is asked to Load every session. ctx bounds it.
func ListStore(ctx context.Context, store ReadableStore, projectKey string) ([]Info, error) {
	listed, err := store.List(ctx, projectKey)
	if err != nil {
		return nil, fmt.Errorf("sessions: listing project %s in the store: %w", projectKey, err)
	}
	var summaries map[string]Summary
	if ss, ok := store.(SummaryStore); ok {
		sums, err := ss.Summaries(ctx, projectKey)
		if err != nil {
			return nil, fmt.Errorf("sessions: reading the summaries of project %s in the store: %w", projectKey, err)
		}
		summaries = make(map[string]Summary, len(sums))
		for _, s := range sums {
			summaries[s.SessionID] = s
		}
	}
	var out []Info
	for _, t := range listed {
		if t.Key.AgentID != "" || t.Key.ProjectKey != projectKey || !isUUID(t.Key.SessionID) {
			continue
		}
		s, ok := summaries[t.Key.SessionID]
		if !ok || s.Modified.Before(t.Modified) {
			if s, err = loadSummary(ctx, store, t.Key); err != nil {
				return nil, err
			}
		}
		s.Modified = t.Modified
		if info, keep := s.Info(); keep {
			out = append(out, info)
		}
	}
	sortByActivity(out)
	return out, nil
}

// StatStore returns the Info of session id of projectKey in store, as Dir.Stat does for a config
// directory (the official SDKs' getSessionInfo with a store): folded from its entries (loaded
// whole), with LastActivity the store's Transcript.Modified. It fails with ErrNotFound if the
// store has no entries for it, and with ErrInvalidID if id is not a UUID.
func StatStore(ctx context.Context, store ReadableStore, projectKey, id string) (Info, error) {
	key := Key{ProjectKey: projectKey, SessionID: id}
	if err := key.validate(); err != nil {
		return Info{}, err
	}
	s, err := loadSummary(ctx, store, key)
	if err != nil {
		return Info{}, err
	}
	listed, err := store.List(ctx, projectKey)
	if err != nil {
		return Info{}, fmt.Errorf("sessions: listing project %s in the store: %w", projectKey, err)
	}
	for _, t := range listed {
		if t.Key == key {
			s.Modified = t.Modified
		}
	}
	info, _ := s.Info()
	return info, nil
}

// loadSummary loads key's entries and folds them.
func loadSummary(ctx context.Context, store ReadableStore, key Key) (Summary, error) {
	entries, err := store.Load(ctx, key)
	if err != nil {
		return Summary{}, fmt.Errorf("sessions: loading %s from the store: %w", describeKey(key), err)
	}
	return FoldSummary(Summary{}, key, entries), nil
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
		b.Write(entryLine(e))
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
