package sessions

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

// ErrMessageNotFound says Fork was given a message UUID that is not in the transcript.
var ErrMessageNotFound = errors.New("sessions: message not found")

// Fork copies session id to a new session and returns the new id: the lines up to and including
// the entry whose uuid is atUUID (all of them if atUUID is ""), each with its sessionId set to
// the new id, into a new transcript in the same project, line for line (blank lines kept, so a
// line number means the same line in both). Resuming the fork (v2.WithResume) goes on
// from that entry; the original is unchanged. It fails with ErrMessageNotFound, and writes
// nothing, if atUUID is not there; a line that cannot be read fails it with a *LineError.
// Subagent transcripts are not copied.
func (d Dir) Fork(cwd, id, atUUID string) (string, error) {
	src, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return "", err
	}
	in, err := openRegular(src, os.O_RDONLY)
	if err != nil {
		return "", notFound(err, "session "+id)
	}
	defer in.Close()
	newID := newUUID()
	dst := filepath.Join(filepath.Dir(src), newID+".jsonl")
	tmp, err := os.CreateTemp(filepath.Dir(src), ".fork-*.tmp")
	if err != nil {
		return "", fmt.Errorf("sessions: forking %s: %w", id, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	w := bufio.NewWriter(tmp)
	found := atUUID == ""
	written := 0 // lines written so far: blank lines are kept, so that the fork's line n is the original's
	for line, err := range lines(in, src, 0) {
		if err != nil {
			tmp.Close()
			return "", err
		}
		out, uuid, err := withSessionID(line.data, newID)
		if err != nil {
			tmp.Close()
			return "", &LineError{Path: src, Line: line.n, Err: err}
		}
		for ; written < line.n-1; written++ {
			w.WriteByte('\n')
		}
		w.Write(out)
		w.WriteByte('\n')
		written++
		if atUUID != "" && uuid == atUUID {
			found = true
			break
		}
	}
	if !found {
		tmp.Close()
		return "", fmt.Errorf("%w: %q in session %s", ErrMessageNotFound, atUUID, id)
	}
	err = w.Flush()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		return "", fmt.Errorf("sessions: forking %s: %w", id, err)
	}
	return newID, nil
}

// withSessionID re-encodes line with its top-level sessionId (if any) set to id, every other
// member as it was, and returns its top-level uuid.
func withSessionID(line []byte, id string) (out []byte, uuid string, err error) {
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf, jsontext.PreserveRawStrings(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, "", err
	}
	if tok.Kind() != '{' {
		return nil, "", fmt.Errorf("sessions: a %v, not an object", tok.Kind())
	}
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, "", err
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil, "", err
		}
		key := name.String()
		if err := enc.WriteToken(name); err != nil {
			return nil, "", err
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil, "", err
		}
		switch key {
		case "sessionId":
			err = enc.WriteToken(jsontext.String(id))
		case "uuid":
			_ = json.Unmarshal(v, &uuid)
			err = enc.WriteValue(v)
		default:
			err = enc.WriteValue(v)
		}
		if err != nil {
			return nil, "", err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, "", err
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, "", err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, "", fmt.Errorf("sessions: data after the object")
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), uuid, nil
}

// newUUID returns a random version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
