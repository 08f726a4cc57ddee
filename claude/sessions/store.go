package sessions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Key names one transcript: a session's, or one of its subagents'.
type Key struct {
	// ProjectKey is the key of the session's working directory (ProjectKey).
	ProjectKey string
	// SessionID is the session's id.
	SessionID string
	// AgentID is "" for the session's own transcript, else the subagent's id.
	AgentID string
}

// KeyOf returns the Key of the CLI transcript at path:
// ".../projects/<project key>/<session id>.jsonl" or
// ".../projects/<project key>/<session id>/subagents/agent-<agent id>.jsonl". It fails with
// ErrInvalidID for any other path.
func KeyOf(path string) (Key, error) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	name, ok := strings.CutSuffix(parts[len(parts)-1], ".jsonl")
	var k Key
	switch {
	case !ok:
	case len(parts) >= 4 && parts[len(parts)-2] == "subagents":
		if agent, ok := strings.CutPrefix(name, "agent-"); ok && isAgentID(agent) {
			k = Key{ProjectKey: parts[len(parts)-4], SessionID: parts[len(parts)-3], AgentID: agent}
		}
	case len(parts) >= 2:
		k = Key{ProjectKey: parts[len(parts)-2], SessionID: name}
	}
	if err := k.validate(); err != nil {
		return Key{}, fmt.Errorf("%w (path %s)", err, path)
	}
	return k, nil
}

// validate checks that k names a transcript and no other file.
func (k Key) validate() error {
	if !isProjectKey(k.ProjectKey) {
		return fmt.Errorf("%w: project key %q", ErrInvalidID, k.ProjectKey)
	}
	if !isUUID(k.SessionID) {
		return fmt.Errorf("%w: session %q", ErrInvalidID, k.SessionID)
	}
	if k.AgentID != "" && !isAgentID(k.AgentID) {
		return fmt.Errorf("%w: agent %q", ErrInvalidID, k.AgentID)
	}
	return nil
}

// isProjectKey reports whether s has the form of a project key: letters, digits and '-'.
func isProjectKey(s string) bool {
	return s != "" && strings.Trim(s, "-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// Store keeps copies of transcripts away from the CLI's config directory (a database, an object
// store, another disk): v2.WithSessionStore feeds it as the CLI writes. Append adds entries, each
// one transcript line (a JSON object), to the end of the transcript key names. The contract, as
// v2.WithSessionStore keeps it:
//
//   - Order: for one session, Append is called by one goroutine at a time, with the entries in the
//     order the CLI wrote them; the next call waits for the previous one to return.
//   - At least once: an Append that returns an error is called again with the same entries (three
//     attempts in all), so a Store that wrote some of them before failing sees them again. Each
//     entry that has a "uuid" can be deduplicated by it.
//   - Crash: the CLI writes its own transcript first and then reports the entries; what the Store
//     did not get (the SDK process died, the attempts failed) is still in the CLI's transcript:
//     copy the missing tail from there (Dir.TranscriptPath).
//
// Append must honour ctx (it is bounded by the session's request timeout) and not keep entries
// past its return (their memory may be reused).
type Store interface {
	Append(ctx context.Context, key Key, entries []jsontext.Value) error
}

// ReadableStore is a Store that gives back what it was given. Resuming a session from a store
// (v2.WithSessionStore with v2.WithResume on a machine that lacks the transcript), Dir.CopyFromStore
// and reading a session from a store (StoreMessages) need one; a Store that can only take entries
// (an append-only log) still mirrors. The contract, beyond Store's, which
// storetest.Run checks:
//
//   - Load returns the entries of key in the order they were appended, each the same JSON value
//     as appended (equal once decoded: a store may re-encode, reorder an object's members or
//     change whitespace), an error wrapping ErrNotFound for a key no entry was appended to, and
//     never the entries of another key (the project, session and agent ids are compared exactly).
//     Entries appended more than once by the at-least-once delivery may be returned more than
//     once, or once if the store deduplicates them by "uuid".
//   - List returns one Transcript for each key of projectKey that entries were appended to, the
//     session's own and each of its subagents', in no particular order; none for a projectKey
//     nothing was appended to (and no error).
//   - Append of no entries changes nothing (it creates no key).
//   - Each call honours ctx, and is safe for concurrent use.
type ReadableStore interface {
	Store
	// Load returns the entries appended to key, in order.
	Load(ctx context.Context, key Key) ([]jsontext.Value, error)
	// List returns the transcripts the store holds for a project.
	List(ctx context.Context, projectKey string) ([]Transcript, error)
}

// Transcript is one transcript a ReadableStore holds.
type Transcript struct {
	// Key names it.
	Key Key
	// Modified is when entries were last appended to it, by the store's clock.
	Modified time.Time
}

// FileStore is a Store that writes transcripts under Dir in the CLI's layout
// (Dir/projects/<project key>/<session id>.jsonl, subagents beside it), so that Dir's methods
// (List, Messages, ...) read the copies. Each Append is one write (entries can be lost or torn
// only at the end of a file, as in the CLI's own transcripts). It is safe for concurrent use for
// distinct keys.
type FileStore struct {
	Dir Dir
}

var _ ReadableStore = FileStore{}

// path returns the file of key's transcript.
func (s FileStore) path(key Key) string {
	if key.AgentID != "" {
		return filepath.Join(string(s.Dir), "projects", key.ProjectKey, key.SessionID, "subagents", "agent-"+key.AgentID+".jsonl")
	}
	return filepath.Join(string(s.Dir), "projects", key.ProjectKey, key.SessionID+".jsonl")
}

// Append appends entries, one per line, to key's transcript, creating it if need be (not for no
// entries).
func (s FileStore) Append(ctx context.Context, key Key, entries []jsontext.Value) error {
	if err := key.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	path := s.path(key)
	var buf []byte
	for _, e := range entries {
		// One line each: compacted (whitespace only: strings and numbers stay as they are).
		v := jsontext.Value(bytes.Clone(e))
		if err := v.Compact(); err != nil || v.Kind() != '{' {
			return fmt.Errorf("sessions: appending to %s: an entry is not one JSON object", path)
		}
		buf = append(append(buf, v...), '\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sessions: appending to %s: %w", path, err)
	}
	f, err := openRegular(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND) // a FIFO or a link put there is refused, never waited on
	if err != nil {
		return fmt.Errorf("sessions: appending to %s: %w", path, err)
	}
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sessions: appending to %s: %w", path, err)
	}
	return nil
}

// Load returns the entries of key's transcript, one a line. A last line that is not whole JSON
// is left out (a write the process did not finish); any other line that is not a JSON object
// fails Load with a *LineError. A missing transcript is ErrNotFound.
func (s FileStore) Load(ctx context.Context, key Key) ([]jsontext.Value, error) {
	if err := key.validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path := s.path(key)
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return nil, notFound(err, "transcript "+path)
	}
	defer f.Close()
	var entries []jsontext.Value
	for l, err := range lines(f, path, 0) {
		if err != nil {
			return nil, err
		}
		if v := jsontext.Value(l.data); !v.IsValid() || v.Kind() != '{' {
			return nil, &LineError{Path: path, Line: l.n, Err: errors.New("not one JSON object")}
		}
		entries = append(entries, jsontext.Value(l.data))
	}
	return entries, ctx.Err()
}

// List returns the transcripts under Dir/projects/projectKey, each with its file's modification
// time: the sessions' (<session id>.jsonl) and their subagents'. Other files are left out.
func (s FileStore) List(ctx context.Context, projectKey string) ([]Transcript, error) {
	if !isProjectKey(projectKey) {
		return nil, fmt.Errorf("%w: project key %q", ErrInvalidID, projectKey)
	}
	project := filepath.Join(string(s.Dir), "projects", projectKey)
	items, err := os.ReadDir(project)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: listing %s: %w", project, err)
	}
	var out []Transcript
	add := func(k Key, path string) {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && k.validate() == nil {
			out = append(out, Transcript{Key: k, Modified: fi.ModTime()})
		}
	}
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := it.Name()
		if id, ok := strings.CutSuffix(name, ".jsonl"); ok && isUUID(id) {
			add(Key{ProjectKey: projectKey, SessionID: id}, filepath.Join(project, name))
			continue
		}
		if !it.IsDir() || !isUUID(name) {
			continue
		}
		subs, err := os.ReadDir(filepath.Join(project, name, "subagents"))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("sessions: listing %s: %w", project, err)
		}
		for _, sub := range subs {
			agent, ok := strings.CutPrefix(sub.Name(), "agent-")
			if agent, ok2 := strings.CutSuffix(agent, ".jsonl"); ok && ok2 {
				add(Key{ProjectKey: projectKey, SessionID: name, AgentID: agent}, filepath.Join(project, name, "subagents", sub.Name()))
			}
		}
	}
	return out, nil
}

var _ DeletableStore = FileStore{}

// Delete removes key's transcript; for a session's key (AgentID ""), also its directory beside
// it (subagent transcripts and their .meta.json, stored tool results). A key with no transcript
// is no error.
func (s FileStore) Delete(ctx context.Context, key Key) error {
	if err := key.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	path := s.path(key)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sessions: deleting %s: %w", path, err)
	}
	if key.AgentID != "" {
		if err := os.Remove(strings.TrimSuffix(path, ".jsonl") + ".meta.json"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("sessions: deleting %s: %w", path, err)
		}
		return nil
	}
	dir := filepath.Join(filepath.Dir(path), key.SessionID)
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("sessions: deleting %s: %w", dir, err)
	}
	return nil
}
