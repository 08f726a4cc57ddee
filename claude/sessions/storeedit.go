package sessions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// DeletableStore is a Store that can delete what was appended to it. DeleteFromStore needs one.
// Beyond Store's, its contract, which storetest.Run checks: Delete of a session's own key (AgentID
// "") deletes the session's entries and those of all its subagents; Delete of a subagent's key
// deletes only that subagent's; afterwards Load of a deleted key is ErrNotFound and List does
// not give it. Deleting a key that holds nothing is no error.
type DeletableStore interface {
	Store
	// Delete deletes key's entries (and, for a session's key, its subagents').
	Delete(ctx context.Context, key Key) error
}

// ErrStoreCannotDelete says DeleteFromStore was given a store that is not a DeletableStore (an
// append-only log, write-once object storage): nothing was deleted. It wraps
// errors.ErrUnsupported.
var ErrStoreCannotDelete = fmt.Errorf("sessions: the store cannot delete (it is not a sessions.DeletableStore): %w", errors.ErrUnsupported)

// RenameInStore gives session id of projectKey the title title in store, as Dir.Rename does in a
// config directory (the official SDKs' renameSession with a store): it appends a custom-title
// entry (with a fresh uuid and the time) to the session's key; the latest one counts, "" clears
// the title. The session may be running. It fails with ErrInvalidID if projectKey or id is not
// of the CLI's form.
func RenameInStore(ctx context.Context, store Store, projectKey, id, title string) error {
	return appendMeta(ctx, store, projectKey, id, metaEntry{Type: "custom-title", CustomTitle: &title})
}

// TagInStore sets the tag of session id of projectKey in store, as Dir.Tag does in a config
// directory (the official SDKs' tagSession with a store): it appends a tag entry (with a fresh
// uuid and the time); the latest one counts, "" clears the tag.
func TagInStore(ctx context.Context, store Store, projectKey, id, tag string) error {
	return appendMeta(ctx, store, projectKey, id, metaEntry{Type: "tag", Tag: &tag})
}

// appendMeta appends the metadata entry e to session id's key.
func appendMeta(ctx context.Context, store Store, projectKey, id string, e metaEntry) error {
	key := Key{ProjectKey: projectKey, SessionID: id}
	if err := key.validate(); err != nil {
		return err
	}
	e.SessionID, e.UUID, e.Timestamp = id, newUUID(), time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	if err := store.Append(ctx, key, []jsontext.Value{mustMarshal(e)}); err != nil {
		return fmt.Errorf("sessions: appending a %s entry to %s: %w", e.Type, describeKey(key), err)
	}
	return nil
}

// DeleteFromStore deletes session id of projectKey, and its subagents' transcripts, from store
// (the official SDKs' deleteSession with a store). A store that cannot delete fails it with
// ErrStoreCannotDelete (the Python SDK does nothing then; here nothing happens quietly). Do not
// delete a running session: its mirror would append to it again.
func DeleteFromStore(ctx context.Context, store Store, projectKey, id string) error {
	key := Key{ProjectKey: projectKey, SessionID: id}
	if err := key.validate(); err != nil {
		return err
	}
	ds, ok := store.(DeletableStore)
	if !ok {
		return fmt.Errorf("%w: deleting %s", ErrStoreCannotDelete, describeKey(key))
	}
	if err := ds.Delete(ctx, key); err != nil {
		return fmt.Errorf("sessions: deleting %s from the store: %w", describeKey(key), err)
	}
	return nil
}

// ForkInStore copies session id of projectKey to a new session in store and returns its id, as
// Dir.Fork does in a config directory (the official SDKs' forkSession with a store): the same
// entries, with fresh uuids, forkedFrom and a title, appended in one Append to the new session's
// key. It fails with ErrNotFound if the store lacks the session, ErrMessageNotFound if
// opts.UpTo is not one of its messages, ErrNothingToFork if it has none, and with an error for
// an entry that is not one JSON object; then nothing is appended.
func ForkInStore(ctx context.Context, store ReadableStore, projectKey, id string, opts ForkOptions) (string, error) {
	key := Key{ProjectKey: projectKey, SessionID: id}
	if err := key.validate(); err != nil {
		return "", err
	}
	loaded, err := store.Load(ctx, key)
	if err != nil {
		return "", fmt.Errorf("sessions: loading %s from the store: %w", describeKey(key), err)
	}
	entries := make([]forkEntry, 0, len(loaded))
	for i, raw := range loaded {
		e, err := decodeForkEntry(entryLine(raw))
		if err != nil {
			return "", fmt.Errorf("sessions: forking %s: entry %d in the store: %w", describeKey(key), i+1, err)
		}
		entries = append(entries, e)
	}
	newID, lines, err := fork(entries, id, opts, time.Now())
	if err != nil {
		return "", err
	}
	out := make([]jsontext.Value, len(lines))
	for i, l := range lines {
		out[i] = l
	}
	dst := Key{ProjectKey: projectKey, SessionID: newID}
	if err := store.Append(ctx, dst, out); err != nil {
		return "", fmt.Errorf("sessions: appending the fork %s: %w", describeKey(dst), err)
	}
	return newID, nil
}
