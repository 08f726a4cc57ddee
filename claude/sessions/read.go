package sessions

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// DefaultMaxLineSize is the longest transcript line read: 100 MiB, as the SDK's bound on a line of
// the live stream. A longer line is a *LineError with ErrLineTooLong, and reading goes on.
const DefaultMaxLineSize = 100 << 20

// ErrLineTooLong says a transcript line is longer than the bound. It is the Err of a *LineError.
var ErrLineTooLong = errors.New("sessions: line too long")

// LineError says one transcript line could not be read: Err is ErrLineTooLong, or the JSON
// decoder's error (a *jsontext.SyntacticError for a line that is not JSON, a *json.SemanticError
// for one whose fields have the wrong shape). Reading goes on at the next line.
type LineError struct {
	// Path is the transcript's path ("" for ReadMessages).
	Path string
	// Line is the 1-based line number.
	Line int
	Err  error
}

// Error describes the failure.
func (e *LineError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("sessions: line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("sessions: %s:%d: %v", e.Path, e.Line, e.Err)
}

// Unwrap returns Err.
func (e *LineError) Unwrap() error { return e.Err }

// Messages returns the messages of session id, run in cwd, in the order they were written: a
// *shared.UserMessage for each user entry (prompts and tool results), a *shared.AssistantMessage
// for each assistant entry (one per content block, as the live stream has them) and a
// *shared.SystemMessage for each system entry (compaction boundaries, notices). Other entries
// (attachments, titles, queue operations, ...) are skipped. Each message has the fields of the
// live stream's message with the same UUID, except the assistant's StopReason and Usage, which
// the transcript has final where the stream had them partial; Raw is the transcript line.
//
// Messages yields every entry of the file, in file order: after a resume at an earlier message
// (v2.WithResumeAt without a fork) or a rewind, that includes the branch the CLI no longer follows
// (each message's Raw has its "parentUuid"). The file is read as the iteration goes, and never
// whole. A line that cannot be read is yielded
// as a *LineError, and the iteration goes on; a torn last line is not an error. A missing
// transcript is one ErrNotFound error; an invalid id one ErrInvalidID error.
func (d Dir) Messages(cwd, id string) iter.Seq2[shared.Message, error] {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return errSeq(err)
	}
	return readFile(path, "session "+id)
}

// SubagentMessages returns the messages of the transcript of subagent agentID in session id, as
// Messages does (Subagents lists the ids). Their ParentToolUseID is, as on the live stream, the id
// of the tool_use that started the subagent, read from the agent-<id>.meta.json file the CLI keeps
// beside the transcript (nil without one).
func (d Dir) SubagentMessages(cwd, id, agentID string) iter.Seq2[shared.Message, error] {
	path, err := d.subagentPath(cwd, id, agentID)
	if err != nil {
		return errSeq(err)
	}
	return func(yield func(shared.Message, error) bool) {
		parent := subagentToolUseID(strings.TrimSuffix(path, ".jsonl") + ".meta.json")
		for m, err := range readFile(path, "agent "+agentID+" of session "+id) {
			setParent(m, parent)
			if !yield(m, err) {
				return
			}
		}
	}
}

// maxMetaSize bounds the subagent metadata file read.
const maxMetaSize = 1 << 20

// subagentToolUseID returns the toolUseId of a subagent's metadata file, or nil.
func subagentToolUseID(path string) *string {
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	var meta struct {
		ToolUseID string `json:"toolUseId"`
	}
	if json.UnmarshalRead(io.LimitReader(f, maxMetaSize), &meta) != nil || meta.ToolUseID == "" {
		return nil
	}
	return &meta.ToolUseID
}

// ReadMessages returns the messages of the transcript read from r, as Messages does, with lines of
// at most maxLineSize bytes (0: DefaultMaxLineSize). Use it for a transcript kept elsewhere (a
// Store's copy). An error reading r ends the iteration, yielded last. It does not close r.
func ReadMessages(r io.Reader, maxLineSize int) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		readMessages(r, "", maxLineSize, yield)
	}
}

func readFile(path, what string) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		f, err := openRegular(path, os.O_RDONLY)
		if err != nil {
			yield(nil, notFound(err, what))
			return
		}
		defer f.Close()
		readMessages(f, path, 0, yield)
	}
}

func errSeq(err error) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) { yield(nil, err) }
}

func readMessages(r io.Reader, path string, max int, yield func(shared.Message, error) bool) {
	for line, err := range lines(r, path, max) {
		if err != nil {
			if !yield(nil, err) {
				return
			}
			continue
		}
		m, err := decodeMessage(line.data)
		if err != nil {
			if !yield(nil, &LineError{Path: path, Line: line.n, Err: err}) {
				return
			}
			continue
		}
		if m != nil && !yield(m, nil) {
			return
		}
	}
}

// rawLine is one line of a transcript and its 1-based number.
type rawLine struct {
	data []byte
	n    int
}

// lines yields the non-blank lines of r, each in its own slice, without the newline. A line over
// max bytes (0: DefaultMaxLineSize) is skipped with a *LineError; a last line without a newline
// is yielded only if it is one whole JSON value (else it is being written: not an error). An
// error reading r ends the iteration with that error.
func lines(r io.Reader, path string, max int) iter.Seq2[rawLine, error] {
	if max <= 0 {
		max = DefaultMaxLineSize
	}
	return func(yield func(rawLine, error) bool) {
		br := bufio.NewReaderSize(r, 64<<10)
		var buf []byte
		n := 0
		for {
			n++
			buf = buf[:0]
			tooLong := false
			var err error
			for {
				var chunk []byte
				chunk, err = br.ReadSlice('\n')
				if !tooLong {
					if len(buf)+len(chunk) > max+1 { // +1: the newline
						// Said at once, not at the line's end: a line that never ends (a
						// reader of endless bytes) still gives the caller its error to stop on.
						tooLong, buf = true, buf[:0]
						if !yield(rawLine{}, &LineError{Path: path, Line: n, Err: ErrLineTooLong}) {
							return
						}
					} else {
						buf = append(buf, chunk...)
					}
				}
				if err != bufio.ErrBufferFull {
					break
				}
			}
			switch {
			case err == io.EOF:
				// A last line without a newline: a transcript being written, unless it is whole.
				if t := bytes.TrimSpace(buf); !tooLong && len(t) > 0 && jsontext.Value(t).IsValid() {
					yield(rawLine{data: bytes.Clone(t), n: n}, nil)
				}
				return
			case err != nil:
				yield(rawLine{}, fmt.Errorf("sessions: reading %s: %w", path, err))
				return
			case tooLong:
				// Said when it passed max.
			default:
				if t := bytes.TrimSpace(buf); len(t) > 0 && !yield(rawLine{data: bytes.Clone(t), n: n}, nil) {
					return
				}
			}
		}
	}
}

// entryType is the type of a transcript line. Decoding a line into it also checks the whole line
// (JSON's grammar, duplicate names, UTF-8).
type entryType struct {
	Type string `json:"type"`
}

// messageEntry is what Messages reads of a user, assistant or system entry. Names are the CLI's.
type messageEntry struct {
	Subtype       string         `json:"subtype"`
	UUID          string         `json:"uuid"`
	SessionID     string         `json:"sessionId"`
	Cwd           string         `json:"cwd"`
	Level         string         `json:"level"`
	Message       jsontext.Value `json:"message"`
	ToolUseResult jsontext.Value `json:"toolUseResult"`
	Content       jsontext.Value `json:"content"`
}

// decodeMessage decodes one transcript line: a message for a user, assistant or system entry, nil
// for an entry of another type (whatever its fields), or the decoder's error.
func decodeMessage(line []byte) (shared.Message, error) {
	var t entryType
	if err := json.Unmarshal(line, &t); err != nil {
		return nil, err
	}
	if t.Type != "user" && t.Type != "assistant" && t.Type != "system" {
		return nil, nil
	}
	var e messageEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, err
	}
	switch t.Type {
	case "user":
		m := &shared.UserMessage{SessionID: e.SessionID, UUID: e.UUID, Raw: line}
		if err := unmarshalValue(e.Message, &m.Message); err != nil {
			return nil, err
		}
		if c := m.Message.Content; jsontext.Value(c).Kind() == '[' {
			if err := json.Unmarshal(c, &m.Blocks); err != nil {
				return nil, err
			}
		}
		if err := unmarshalValue(e.ToolUseResult, &m.ToolUseResult); err != nil {
			return nil, err
		}
		return m, nil
	case "assistant":
		m := &shared.AssistantMessage{SessionID: e.SessionID, UUID: e.UUID, Raw: line}
		if err := unmarshalValue(e.Message, &m.Message); err != nil {
			return nil, err
		}
		return m, nil
	default:
		m := &shared.SystemMessage{SystemHeader: shared.SystemHeader{Subtype: e.Subtype, SessionID: e.SessionID, UUID: e.UUID, Raw: line}, Cwd: e.Cwd, Level: e.Level}
		if e.Content.Kind() == '"' {
			if err := json.Unmarshal(e.Content, &m.Content); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
}

// unmarshalValue decodes v into p, leaving p alone when v is absent.
func unmarshalValue(v jsontext.Value, p any) error {
	if len(v) == 0 {
		return nil
	}
	return json.Unmarshal(v, p)
}

// Subagents returns the ids of the subagents of session id that have a transcript, sorted; none
// is not an error.
func (d Dir) Subagents(cwd, id string) ([]string, error) {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: listing %s: %w", dir, err)
	}
	var ids []string
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if a, ok2 := strings.CutPrefix(name, "agent-"); ok && ok2 && isAgentID(a) && e.Type().IsRegular() {
			ids = append(ids, a)
		}
	}
	return ids, nil
}

// setParent sets the ParentToolUseID of a subagent's user and assistant messages to parent, if
// not nil.
func setParent(m shared.Message, parent *string) {
	if parent == nil {
		return
	}
	switch m := m.(type) {
	case *shared.UserMessage:
		m.ParentToolUseID = parent
	case *shared.AssistantMessage:
		m.ParentToolUseID = parent
	}
}
