package sessions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// copyBatch is how many entries CopyToStore gives to one Append.
const copyBatch = 500

// agentMetadataType is the type of the entry that carries, in a subagent's mirrored stream, what
// the CLI keeps locally in the agent-<id>.meta.json file beside its transcript.
const agentMetadataType = "agent_metadata"

// CopyToStore copies session id of cwd, and its subagents' transcripts, from d into store (the
// official SDKs' importSessionToStore): each transcript's lines in order, 500 to an Append, under
// the keys the CLI would mirror them to; a subagent's .meta.json goes as an "agent_metadata" entry,
// as the CLI mirrors it. Copying the same session twice appends its entries twice (a store that
// deduplicates by "uuid" keeps one of each). A line that is not a JSON object fails it with a
// *LineError; a missing transcript with ErrNotFound.
func (d Dir) CopyToStore(ctx context.Context, store Store, cwd, id string) error {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return err
	}
	key := Key{ProjectKey: filepath.Base(filepath.Dir(path)), SessionID: id}
	if err := copyFile(ctx, store, key, path, nil); err != nil {
		return err
	}
	agents, err := d.Subagents(cwd, id)
	if err != nil {
		return err
	}
	for _, agent := range agents {
		sub, err := d.subagentPath(cwd, id, agent)
		if err != nil {
			return err
		}
		var meta jsontext.Value
		if data, err := os.ReadFile(strings.TrimSuffix(sub, ".jsonl") + ".meta.json"); err == nil {
			var m map[string]jsontext.Value
			if json.Unmarshal(data, &m) == nil {
				m["type"] = jsontext.Value(`"` + agentMetadataType + `"`)
				meta, _ = json.Marshal(m)
			}
		}
		k := key
		k.AgentID = agent
		if err := copyFile(ctx, store, k, sub, meta); err != nil {
			return err
		}
	}
	return nil
}

// copyFile appends the lines of the transcript at path, and then extra if not nil, to key in store.
func copyFile(ctx context.Context, store Store, key Key, path string, extra jsontext.Value) error {
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return notFound(err, "transcript "+path)
	}
	defer f.Close()
	var batch []jsontext.Value
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := store.Append(ctx, key, batch); err != nil {
			return fmt.Errorf("sessions: copying %s to the store: %w", path, err)
		}
		batch = batch[:0]
		return nil
	}
	for l, err := range lines(f, path, 0) {
		if err != nil {
			return err
		}
		if v := jsontext.Value(l.data); !v.IsValid() || v.Kind() != '{' {
			return &LineError{Path: path, Line: l.n, Err: errors.New("not one JSON object")}
		}
		if batch = append(batch, jsontext.Value(l.data)); len(batch) == copyBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if extra != nil {
		batch = append(batch, extra)
	}
	return flush()
}

// CopyFromStore copies session id of cwd from store into d, when d lacks it, so that the CLI can
// resume it with d as its config directory: the session's transcript and its subagents'
// transcripts (with their .meta.json, from the "agent_metadata" entries). The key is that of cwd
// in d (ProjectKey of cwd, symbolic links resolved): a session run in another directory is under
// another key. Files d already has are left as they are: if it has the session's transcript,
// CopyFromStore reads nothing and returns nil. A session the store lacks too is ErrNotFound.
// Each file is written whole under a temporary name and then renamed, so the CLI never reads a
// part of it.
func (d Dir) CopyFromStore(ctx context.Context, store ReadableStore, cwd, id string) error {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	key := Key{ProjectKey: filepath.Base(filepath.Dir(path)), SessionID: id}
	entries, err := store.Load(ctx, key)
	if err != nil {
		return fmt.Errorf("sessions: loading session %s from the store: %w", id, err)
	}
	listed, err := store.List(ctx, key.ProjectKey)
	if err != nil {
		return fmt.Errorf("sessions: listing project %s in the store: %w", key.ProjectKey, err)
	}
	// The subagents first: the session's transcript, written last, is what the CLI looks for.
	for _, t := range listed {
		if t.Key.SessionID != id || t.Key.AgentID == "" {
			continue
		}
		sub, err := d.subagentPath(cwd, id, t.Key.AgentID)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(sub); err == nil {
			continue
		}
		subEntries, err := store.Load(ctx, t.Key)
		if err != nil {
			return fmt.Errorf("sessions: loading subagent %s of session %s from the store: %w", t.Key.AgentID, id, err)
		}
		var meta jsontext.Value
		kept := subEntries[:0:0]
		for _, e := range subEntries {
			if entryTypeOf(e) == agentMetadataType {
				meta = e // the latest counts
				continue
			}
			kept = append(kept, e)
		}
		if meta != nil {
			var m map[string]jsontext.Value
			if err := json.Unmarshal(meta, &m); err != nil {
				return fmt.Errorf("sessions: subagent %s of session %s: the store's agent_metadata: %w", t.Key.AgentID, id, err)
			}
			delete(m, "type")
			data, _ := json.Marshal(m)
			if err := writeNew(strings.TrimSuffix(sub, ".jsonl")+".meta.json", append(data, '\n')); err != nil {
				return err
			}
		}
		if err := writeEntries(sub, kept); err != nil {
			return err
		}
	}
	return writeEntries(path, entries)
}

// entryTypeOf returns an entry's "type" ("" if it has none or cannot be read).
func entryTypeOf(e jsontext.Value) string {
	var t entryType
	if json.Unmarshal(e, &t) != nil {
		return ""
	}
	return t.Type
}

// writeEntries writes entries, one compacted JSON object a line, to a new file at path.
func writeEntries(path string, entries []jsontext.Value) error {
	var buf bytes.Buffer
	for _, e := range entries {
		v := jsontext.Value(bytes.Clone(e))
		if err := v.Compact(); err != nil || v.Kind() != '{' {
			return fmt.Errorf("sessions: writing %s: an entry from the store is not one JSON object", path)
		}
		buf.Write(v)
		buf.WriteByte('\n')
	}
	return writeNew(path, buf.Bytes())
}

// writeNew writes data to path, which must not exist, through a temporary file in its directory
// renamed into place. A file that appeared at path meanwhile is kept: data is dropped.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sessions: writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".store-*.tmp")
	if err != nil {
		return fmt.Errorf("sessions: writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename, there is nothing left to remove
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sessions: writing %s: %w", path, err)
	}
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("sessions: writing %s: %w", path, err)
	}
	return nil
}
