package sessions

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Info describes one stored session, as List and Stat read it from the start and the end of its
// transcript (the CLI's own session picker reads the same parts).
type Info struct {
	// ID is the session id (the transcript's name).
	ID string
	// Path is the transcript's path.
	Path string
	// Title is what the CLI shows for the session: CustomTitle, else the title the CLI generated,
	// else LastPrompt, else a summary, else FirstPrompt.
	Title string
	// CustomTitle is the title the user gave (the CLI's /rename, Rename); "" if none.
	CustomTitle string
	// Tag is the session's tag (Tag); "" if none.
	Tag string
	// FirstPrompt is the text of the first user prompt, LastPrompt that of the latest one.
	FirstPrompt string
	LastPrompt  string
	// Started is the time of the first entry; LastActivity the transcript's modification time.
	Started      time.Time
	LastActivity time.Time
	// Model is the model of the latest assistant message read; "" if none.
	Model string
	// Cwd and GitBranch are those recorded at the session's start.
	Cwd       string
	GitBranch string
	// Size is the transcript's size in bytes.
	Size int64
}

// window is how much of a transcript's start and of its end List reads.
const window = 64 << 10

// List returns the sessions run in cwd, newest first (by LastActivity, then ID). Subagent
// transcripts are not sessions and are not listed; nor is a transcript with no user prompt and no
// title (the CLI skips those too). A project with no sessions gives an empty list and no error.
// ctx stops the listing between transcripts.
func (d Dir) List(ctx context.Context, cwd string) ([]Info, error) {
	dir := d.ProjectDir(cwd)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: listing %s: %w", dir, err)
	}
	var out []Info
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !isUUID(id) || !e.Type().IsRegular() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		info, keep, err := stat(filepath.Join(dir, e.Name()), id)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrNotRegularFile) {
			continue // deleted, or replaced by something else than a transcript, meanwhile
		}
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, info)
		}
	}
	sortByActivity(out)
	return out, nil
}

// Stat returns the Info of session id, run in cwd. It fails with ErrNotFound if there is no such
// transcript, and with ErrInvalidID if id is not a UUID.
func (d Dir) Stat(cwd, id string) (Info, error) {
	path, err := d.TranscriptPath(cwd, id)
	if err != nil {
		return Info{}, err
	}
	info, _, err := stat(path, id)
	return info, notFound(err, "session "+id)
}

// stat reads a transcript's start and end; keep is false for a transcript List skips.
func stat(path, id string) (info Info, keep bool, err error) {
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return Info{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Info{}, false, err
	}
	info = Info{ID: id, Path: path, Size: fi.Size(), LastActivity: fi.ModTime()}
	head := make([]byte, min(fi.Size(), 2*window))
	if _, err := io.ReadFull(f, head); err != nil {
		return Info{}, false, fmt.Errorf("sessions: reading %s: %w", path, err)
	}
	tail := head
	if fi.Size() > 2*window {
		head = head[:window]
		tail = make([]byte, window)
		if _, err := f.ReadAt(tail, fi.Size()-window); err != nil {
			return Info{}, false, fmt.Errorf("sessions: reading %s: %w", path, err)
		}
		// The first line of the end is most likely a part of one.
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	return info, fillInfo(&info, head, tail), nil
}

// fillInfo reads info's fields from the start and the end of a transcript (the same bytes if it
// is short), and reports whether List keeps the session.
func fillInfo(info *Info, head, tail []byte) (keep bool) {
	var aiTitle, summary string
	sidechain := false
	for _, line := range bytes.Split(head, []byte("\n")) {
		e, ok := decodeListEntry(line)
		if !ok {
			continue // blank, torn at the window's end, or not ours
		}
		e.foldHead(&sidechain, &info.Started, &info.Cwd, &info.GitBranch, &info.FirstPrompt)
		readMeta(&e, info, &aiTitle, &summary)
	}
	for _, line := range bytes.Split(tail, []byte("\n")) {
		e, ok := decodeListEntry(line)
		if !ok {
			continue
		}
		readMeta(&e, info, &aiTitle, &summary)
		if e.Type == "assistant" && e.Model != "" && e.Model != "<synthetic>" {
			info.Model = e.Model
		}
	}
	info.Title = cmp.Or(info.CustomTitle, aiTitle, info.LastPrompt, summary, info.FirstPrompt)
	return !sidechain && info.Title != ""
}

// readMeta takes the metadata of entry e; later entries win.
func readMeta(e *listEntry, info *Info, aiTitle, summary *string) {
	switch e.Type {
	case "custom-title":
		info.CustomTitle = e.CustomTitle
	case "ai-title":
		*aiTitle = e.AITitle
	case "tag":
		info.Tag = e.Tag
	case "last-prompt":
		info.LastPrompt = e.LastPrompt
	case "summary":
		*summary = e.Summary
	}
}

// listEntry is what List reads of a transcript line. Names are the CLI's.
type listEntry struct {
	Type        string
	UUID        string
	IsSidechain bool
	IsMeta      bool
	Timestamp   string
	Cwd         string
	GitBranch   string
	// Prompt is a user entry's text (string content, or first text block); Model an assistant's.
	Prompt string
	Model  string
	// The metadata entries' values.
	CustomTitle, AITitle, Tag, LastPrompt, Summary string
}

// foldHead folds e into what a transcript's first entries say of the session, each kept from the
// first entry that has it: the start time, the cwd and its branch, the first prompt; and whether
// any entry is a sidechain's. List (fillInfo) and a store's summaries (FoldSummary) share it.
func (e *listEntry) foldHead(sidechain *bool, started *time.Time, cwd, branch, prompt *string) {
	*sidechain = *sidechain || e.UUID != "" && e.IsSidechain
	if started.IsZero() && e.Timestamp != "" {
		*started, _ = time.Parse(time.RFC3339Nano, e.Timestamp)
	}
	if *cwd == "" && e.Cwd != "" {
		*cwd, *branch = e.Cwd, e.GitBranch
	}
	if *prompt == "" && e.Type == "user" && !e.IsMeta {
		*prompt = e.Prompt
	}
}

// decodeListEntry decodes a line for List; ok is false for a line that is not a JSON object. A
// field of an unexpected type is left empty, and the others are still read.
func decodeListEntry(line []byte) (e listEntry, ok bool) {
	// Fast path: every field of the expected type.
	var t struct {
		Type        string `json:"type"`
		UUID        string `json:"uuid"`
		IsSidechain bool   `json:"isSidechain"`
		IsMeta      bool   `json:"isMeta"`
		Timestamp   string `json:"timestamp"`
		Cwd         string `json:"cwd"`
		GitBranch   string `json:"gitBranch"`
		Message     struct {
			Model   string         `json:"model"`
			Content jsontext.Value `json:"content"`
		} `json:"message"`
		CustomTitle string `json:"customTitle"`
		AITitle     string `json:"aiTitle"`
		Tag         string `json:"tag"`
		LastPrompt  string `json:"lastPrompt"`
		Summary     string `json:"summary"`
	}
	if json.Unmarshal(line, &t) == nil {
		e = listEntry{Type: t.Type, UUID: t.UUID, IsSidechain: t.IsSidechain, IsMeta: t.IsMeta,
			Timestamp: t.Timestamp, Cwd: t.Cwd, GitBranch: t.GitBranch}
		switch t.Type {
		case "user":
			e.Prompt = contentText(t.Message.Content)
		case "assistant":
			e.Model = t.Message.Model
		case "custom-title":
			e.CustomTitle = t.CustomTitle
		case "ai-title":
			e.AITitle = t.AITitle
		case "tag":
			e.Tag = t.Tag
		case "last-prompt":
			e.LastPrompt = t.LastPrompt
		case "summary":
			e.Summary = t.Summary
		}
		return e, true
	}
	// Slow path: every field raw, so that one of an unexpected type fails alone.
	var f struct {
		Type        jsontext.Value `json:"type"`
		UUID        jsontext.Value `json:"uuid"`
		IsSidechain jsontext.Value `json:"isSidechain"`
		IsMeta      jsontext.Value `json:"isMeta"`
		Timestamp   jsontext.Value `json:"timestamp"`
		Cwd         jsontext.Value `json:"cwd"`
		GitBranch   jsontext.Value `json:"gitBranch"`
		Message     jsontext.Value `json:"message"`
		CustomTitle jsontext.Value `json:"customTitle"`
		AITitle     jsontext.Value `json:"aiTitle"`
		Tag         jsontext.Value `json:"tag"`
		LastPrompt  jsontext.Value `json:"lastPrompt"`
		Summary     jsontext.Value `json:"summary"`
	}
	if json.Unmarshal(line, &f) != nil {
		return listEntry{}, false
	}
	str := func(v jsontext.Value) string {
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	flag := func(v jsontext.Value) bool {
		var b bool
		_ = json.Unmarshal(v, &b)
		return b
	}
	e = listEntry{Type: str(f.Type), UUID: str(f.UUID), IsSidechain: flag(f.IsSidechain), IsMeta: flag(f.IsMeta),
		Timestamp: str(f.Timestamp), Cwd: str(f.Cwd), GitBranch: str(f.GitBranch)}
	switch e.Type {
	case "user":
		e.Prompt = promptText(f.Message)
	case "assistant":
		var m struct {
			Model jsontext.Value `json:"model"`
		}
		if json.Unmarshal(f.Message, &m) == nil {
			e.Model = str(m.Model)
		}
	case "custom-title":
		e.CustomTitle = str(f.CustomTitle)
	case "ai-title":
		e.AITitle = str(f.AITitle)
	case "tag":
		e.Tag = str(f.Tag)
	case "last-prompt":
		e.LastPrompt = str(f.LastPrompt)
	case "summary":
		e.Summary = str(f.Summary)
	}
	return e, true
}

// promptText returns the text of a user message: its string content, or its first text block; ""
// for tool results.
func promptText(msg jsontext.Value) string {
	var m struct {
		Content jsontext.Value `json:"content"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return ""
	}
	return contentText(m.Content)
}

// contentText returns a message content's text: the string itself, or its first text block.
func contentText(content jsontext.Value) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) == nil {
		for _, b := range blocks {
			if b.Type == "text" {
				return b.Text
			}
		}
	}
	return ""
}

// sortByActivity sorts infos most recent activity first, then by id.
func sortByActivity(infos []Info) {
	slices.SortFunc(infos, func(a, b Info) int {
		if c := b.LastActivity.Compare(a.LastActivity); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
