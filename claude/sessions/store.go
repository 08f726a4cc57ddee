package sessions

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	if k.ProjectKey == "" || strings.Trim(k.ProjectKey, "-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
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

// FileStore is a Store that writes transcripts under Dir in the CLI's layout
// (Dir/projects/<project key>/<session id>.jsonl, subagents beside it), so that Dir's methods
// (List, Messages, ...) read the copies. Each Append is one write (entries can be lost or torn
// only at the end of a file, as in the CLI's own transcripts). It is safe for concurrent use for
// distinct keys.
type FileStore struct {
	Dir Dir
}

var _ Store = FileStore{}

// Append appends entries, one per line, to key's transcript, creating it if need be.
func (s FileStore) Append(ctx context.Context, key Key, entries []jsontext.Value) error {
	if err := key.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	path := filepath.Join(string(s.Dir), "projects", key.ProjectKey, key.SessionID+".jsonl")
	if key.AgentID != "" {
		path = filepath.Join(string(s.Dir), "projects", key.ProjectKey, key.SessionID, "subagents", "agent-"+key.AgentID+".jsonl")
	}
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
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
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
