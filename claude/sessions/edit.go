package sessions

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json"
)

// Rename gives session id the title title, as the CLI's /rename does: it appends a custom-title
// entry to the transcript (the latest one counts; "" clears the title). The CLI shows it, and
// keeps it when it resumes the session. The session may be running.
func (d Dir) Rename(cwd, id, title string) error {
	return d.appendEntry(cwd, id, metaEntry{Type: "custom-title", CustomTitle: &title, SessionID: id})
}

// Tag sets the tag of session id, as the CLI does: it appends a tag entry to the transcript (the
// latest one counts; "" clears the tag). The session may be running.
func (d Dir) Tag(cwd, id, tag string) error {
	return d.appendEntry(cwd, id, metaEntry{Type: "tag", Tag: &tag, SessionID: id})
}

// metaEntry is a metadata line in the CLI's format.
type metaEntry struct {
	Type        string  `json:"type"`
	CustomTitle *string `json:"customTitle,omitempty"`
	Tag         *string `json:"tag,omitempty"`
	SessionID   string  `json:"sessionId"`
	UUID        string  `json:"uuid,omitempty"`
	Timestamp   string  `json:"timestamp,omitempty"`
}

// appendEntry appends e to session id's transcript in one write, after a newline if the last
// line has none.
func (d Dir) appendEntry(cwd, id string, e metaEntry) error {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return err
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := openRegular(path, os.O_RDWR|os.O_APPEND) // never a link: the write stays in the config directory
	if err != nil {
		return notFound(err, "session "+id)
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err = f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte("\n"), line...)
		}
	}
	if err == nil {
		_, err = f.Write(append(line, '\n'))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sessions: writing %s: %w", path, err)
	}
	return nil
}

// Delete removes session id's transcript and its directory (subagent transcripts, stored tool
// results). It fails with ErrNotFound if there is no transcript. Do not delete a running session.
// The CLI keeps a few other things by session id that Delete leaves (docs/SESSIONS.md).
func (d Dir) Delete(cwd, id string) error {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return notFound(err, "session "+id)
	}
	if err := os.RemoveAll(filepath.Join(filepath.Dir(path), id)); err != nil {
		return fmt.Errorf("sessions: deleting session %s: %w", id, err)
	}
	return nil
}

// newUUID returns a random version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
