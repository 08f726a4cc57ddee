package sessions

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrMessageNotFound says Fork was given a message UUID that is not in the transcript.
var ErrMessageNotFound = errors.New("sessions: message not found")

// ErrNothingToFork says the session to fork has no message (no user, assistant, attachment or
// system entry with a uuid outside a sidechain).
var ErrNothingToFork = errors.New("sessions: the session has no messages to fork")

// ForkOptions are Fork's and ForkInStore's choices.
type ForkOptions struct {
	// UpTo is the uuid of the last message the fork keeps (it and every message before it, in
	// the transcript's order); "" keeps them all.
	UpTo string
	// Title is the fork's title (a custom-title entry; spaces around it trimmed). Default: the
	// original's custom title, else its generated title, else its first prompt, else "Forked
	// session", followed by " (fork)".
	Title string
}

// forkTypes are the types of the entries a fork copies: the conversation's, with a uuid.
var forkTypes = map[string]bool{"user": true, "assistant": true, "attachment": true, "system": true, "progress": true}

// forkEntry is what the fork reads of an entry.
type forkEntry struct {
	raw         []byte
	typ         string
	uuid        string
	parent      string
	logical     string
	timestamp   string
	sidechain   bool
	sessionID   string
	replacement jsontext.Value // a content-replacement entry's replacements
}

// decodeForkEntry reads what the fork needs of one entry; a member of an unexpected type is left
// empty. It fails for a value that is not one JSON object.
func decodeForkEntry(raw []byte) (forkEntry, error) {
	var f struct {
		Type              jsontext.Value `json:"type"`
		UUID              jsontext.Value `json:"uuid"`
		ParentUUID        jsontext.Value `json:"parentUuid"`
		LogicalParentUUID jsontext.Value `json:"logicalParentUuid"`
		Timestamp         jsontext.Value `json:"timestamp"`
		IsSidechain       jsontext.Value `json:"isSidechain"`
		SessionID         jsontext.Value `json:"sessionId"`
		Replacements      jsontext.Value `json:"replacements"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return forkEntry{}, err
	}
	str := func(v jsontext.Value) string {
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	var side bool
	_ = json.Unmarshal(f.IsSidechain, &side)
	e := forkEntry{raw: raw, typ: str(f.Type), uuid: str(f.UUID), parent: str(f.ParentUUID), logical: str(f.LogicalParentUUID),
		timestamp: str(f.Timestamp), sidechain: side, sessionID: str(f.SessionID)}
	if f.Replacements.Kind() == '[' {
		e.replacement = f.Replacements
	}
	return e, nil
}

// fork turns the entries of session id into those of a new session, as the official SDKs'
// forkSession does: the messages (user, assistant, attachment, system entries with a uuid, not
// a sidechain's) up to and including opts.UpTo, each with a fresh uuid (parentUuid and
// logicalParentUuid following them, progress entries skipped in the chain), the new session id,
// forkedFrom {sessionId, messageUuid} naming the original, isSidechain false, and the members
// that tie it to the original's team or subagent (teamName, agentName, slug,
// sourceToolAssistantUUID) removed; the last message's timestamp is now (the CLI resumes from the
// latest leaf). Then one content-replacement entry with the original's replacements, if it had
// any, and a custom-title entry. Other entries (titles, tags, file-history snapshots) are not
// copied.
func fork(entries []forkEntry, id string, opts ForkOptions, now time.Time) (newID string, out [][]byte, err error) {
	chain, replacements, summary := forkChain(entries, id)
	if chain, err = cutAt(chain, id, opts.UpTo); err != nil {
		return "", nil, err
	}
	fresh := make(map[string]string, len(chain))
	byUUID := make(map[string]forkEntry, len(chain))
	var written []forkEntry
	for _, e := range chain {
		fresh[e.uuid] = newUUID()
		byUUID[e.uuid] = e
		if e.typ != "progress" {
			written = append(written, e)
		}
	}
	if len(written) == 0 {
		return "", nil, fmt.Errorf("%w: session %s", ErrNothingToFork, id)
	}
	newID = newUUID()
	stamp := now.UTC().Format("2006-01-02T15:04:05.000Z")
	for i, e := range written {
		set := []member{
			{"uuid", quote(fresh[e.uuid])},
			{"parentUuid", forkParent(e, byUUID, fresh)},
			{"sessionId", quote(newID)},
			{"isSidechain", jsontext.Value("false")},
			{"forkedFrom", mustMarshal(forkedFrom{id, e.uuid})},
		}
		if e.logical != "" {
			logical := jsontext.Value("null") // its target was cut off
			if n := fresh[e.logical]; n != "" {
				logical = quote(n)
			}
			set = append(set, member{"logicalParentUuid", logical})
		}
		if i == len(written)-1 || e.timestamp == "" {
			set = append(set, member{"timestamp", quote(stamp)})
		}
		line, err := rewriteMembers(e.raw, set, "teamName", "agentName", "slug", "sourceToolAssistantUUID")
		if err != nil {
			return "", nil, err
		}
		out = append(out, line)
	}
	if len(replacements) > 0 {
		out = append(out, mustMarshal(struct {
			Type         string           `json:"type"`
			SessionID    string           `json:"sessionId"`
			Replacements []jsontext.Value `json:"replacements"`
			UUID         string           `json:"uuid"`
			Timestamp    string           `json:"timestamp"`
		}{"content-replacement", newID, replacements, newUUID(), stamp}))
	}
	title := strings.TrimSpace(opts.Title)
	if title == "" {
		title = firstNonEmpty(summary.CustomTitle, summary.AITitle, summary.FirstPrompt, "Forked session") + " (fork)"
	}
	out = append(out, mustMarshal(metaEntry{Type: "custom-title", CustomTitle: &title, SessionID: newID, UUID: newUUID(), Timestamp: stamp}))
	return newID, out, nil
}

// forkChain returns the entries a fork copies, the content replacements of session id, and the
// summary of all entries (for the title).
func forkChain(entries []forkEntry, id string) (chain []forkEntry, replacements []jsontext.Value, summary Summary) {
	for _, e := range entries {
		summary = FoldSummary(summary, Key{SessionID: id}, []jsontext.Value{e.raw})
		switch {
		case forkTypes[e.typ] && e.uuid != "" && !e.sidechain:
			chain = append(chain, e)
		case e.typ == "content-replacement" && e.sessionID == id && e.replacement != nil:
			var rs []jsontext.Value
			if json.Unmarshal(e.replacement, &rs) == nil {
				replacements = append(replacements, rs...)
			}
		}
	}
	return chain, replacements, summary
}

// cutAt returns chain up to and including the entry whose uuid is upTo (all of it for "").
func cutAt(chain []forkEntry, id, upTo string) ([]forkEntry, error) {
	if upTo == "" {
		return chain, nil
	}
	for i, e := range chain {
		if e.uuid == upTo {
			return chain[:i+1], nil
		}
	}
	return nil, fmt.Errorf("%w: %q in session %s", ErrMessageNotFound, upTo, id)
}

// forkParent returns the fork's parentUuid of e: the fresh uuid of its nearest ancestor that is
// not a progress entry, or null (also for a cycle of progress entries).
func forkParent(e forkEntry, byUUID map[string]forkEntry, fresh map[string]string) jsontext.Value {
	for p, hops := e.parent, 0; p != "" && hops <= len(byUUID); hops++ {
		pe, ok := byUUID[p]
		if !ok {
			break
		}
		if pe.typ != "progress" {
			return quote(fresh[p])
		}
		p = pe.parent
	}
	return jsontext.Value("null")
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// forkedFrom is the member of a fork's entry that names the original.
type forkedFrom struct {
	SessionID   string `json:"sessionId"`
	MessageUUID string `json:"messageUuid"`
}

// member is one object member to set.
type member struct {
	name  string
	value jsontext.Value
}

func quote(s string) jsontext.Value { return mustMarshal(s) }

func mustMarshal(v any) jsontext.Value {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only values of fixed types are marshalled here
	}
	return b
}

// rewriteMembers re-encodes the JSON object line with each member of set given its value (in
// place if it is there, at the end otherwise) and the members named in drop removed; every other
// member is kept as it was, string escapes included.
func rewriteMembers(line []byte, set []member, drop ...string) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf, jsontext.PreserveRawStrings(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("sessions: a %v, not an object", tok.Kind())
	}
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	done := make([]bool, len(set))
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name, key := name.Clone(), name.String() // valid past the next read
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if contains(drop, key) {
			continue
		}
		for i, m := range set {
			if m.name == key {
				v, done[i] = m.value, true
			}
		}
		if err := enc.WriteToken(name); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(v); err != nil {
			return nil, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	for i, m := range set {
		if done[i] {
			continue
		}
		if err := enc.WriteToken(jsontext.String(m.name)); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(m.value); err != nil {
			return nil, err
		}
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("sessions: data after the object")
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Fork copies session id of cwd to a new session in the same project and returns the new id, as
// the official SDKs' forkSession does (see ForkOptions): the messages up to and including
// opts.UpTo, each with a fresh uuid (so a store that deduplicates entries by uuid keeps both
// sessions whole), the new session id and forkedFrom {sessionId, messageUuid} naming the original
// message; the original's content replacements; and a custom-title entry. Resuming the fork
// (v2.WithResume) goes on from its last message; the original is unchanged. Subagent
// transcripts and file-history snapshots are not copied. It fails, and writes nothing, with
// ErrMessageNotFound if opts.UpTo is not a message of the session, with ErrNothingToFork if it has
// no message, and with a *LineError for a line that is not one JSON object.
func (d Dir) Fork(cwd, id string, opts ForkOptions) (string, error) {
	src, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return "", err
	}
	in, err := openRegular(src, os.O_RDONLY)
	if err != nil {
		return "", notFound(err, "session "+id)
	}
	defer in.Close()
	var entries []forkEntry
	for line, err := range lines(in, src, 0) {
		if err != nil {
			return "", err
		}
		e, err := decodeForkEntry(line.data)
		if err != nil {
			return "", &LineError{Path: src, Line: line.n, Err: err}
		}
		entries = append(entries, e)
	}
	newID, out, err := fork(entries, id, opts, time.Now())
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(src), ".fork-*.tmp")
	if err != nil {
		return "", fmt.Errorf("sessions: forking %s: %w", id, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	w := bufio.NewWriter(tmp)
	for _, l := range out {
		w.Write(l)
		w.WriteByte('\n')
	}
	err = w.Flush()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(filepath.Dir(src), newID+".jsonl"))
	}
	if err != nil {
		return "", fmt.Errorf("sessions: forking %s: %w", id, err)
	}
	return newID, nil
}
