package sessions

import (
	"bytes"
	"cmp"
	"context"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Summary is what ListStore and StatStore need of one session, folded from its entries as they
// are appended (FoldSummary), so that a store can keep it beside the transcript and listing a
// project reads one summary per session instead of every transcript. The official SDKs' sidecar
// (fold_session_summary, listSessionSummaries) serves the same purpose.
//
// A store keeps it as it is (it encodes to JSON with the json tags below) and gives it back from
// SummaryStore.Summaries. Every field is set-once or latest-wins, so folding a batch never needs
// the entries of earlier batches.
type Summary struct {
	// SessionID is the session's id.
	SessionID string `json:"sessionId"`
	// Modified is when the store last wrote the summary, by the same clock as the
	// Transcript.Modified that ReadableStore.List gives for the session: FoldSummary leaves it as
	// it was; the store sets it when it stores the summary. A summary older than the transcript
	// is stale, and ListStore reads that session's entries instead.
	Modified time.Time `json:"modified,omitzero"`
	// Size is the bytes of the session's entries, one a line (as Info.Size of ListStore).
	Size int64 `json:"size"`
	// Started is the time of the first entry that has one.
	Started time.Time `json:"started,omitzero"`
	// Cwd and GitBranch are those of the first entry that has a cwd.
	Cwd       string `json:"cwd,omitempty"`
	GitBranch string `json:"gitBranch,omitempty"`
	// FirstPrompt is the text of the first user prompt (not a tool result, not a meta entry).
	FirstPrompt string `json:"firstPrompt,omitempty"`
	// The latest of each metadata entry: custom-title, ai-title, tag, last-prompt, summary.
	CustomTitle string `json:"customTitle,omitempty"`
	AITitle     string `json:"aiTitle,omitempty"`
	Tag         string `json:"tag,omitempty"`
	LastPrompt  string `json:"lastPrompt,omitempty"`
	Recap       string `json:"summary,omitempty"`
	// Model is that of the latest assistant entry (not the CLI's "<synthetic>" ones).
	Model string `json:"model,omitempty"`
	// Sidechain is true if an entry with a uuid is a sidechain's (a subagent's transcript):
	// ListStore leaves such a session out, as Dir.List does.
	Sidechain bool `json:"sidechain,omitempty"`
}

// FoldSummary returns prev with the entries appended to key folded in. A SummaryStore calls it in
// Append, for a session's own key only (key.AgentID == ""; a subagent's entries are not the
// session's), with the summary it stored before (the zero Summary for the first Append), and
// stores what it returns, with Modified set. An entry that is not a JSON object is counted in
// Size and otherwise skipped.
func FoldSummary(prev Summary, key Key, entries []jsontext.Value) Summary {
	s := prev
	s.SessionID = key.SessionID
	for _, raw := range entries {
		s.Size += int64(len(entryLine(raw))) + 1
		e, ok := decodeListEntry(raw)
		if !ok {
			continue
		}
		e.foldHead(&s.Sidechain, &s.Started, &s.Cwd, &s.GitBranch, &s.FirstPrompt)
		switch e.Type {
		case "custom-title":
			s.CustomTitle = e.CustomTitle
		case "ai-title":
			s.AITitle = e.AITitle
		case "tag":
			s.Tag = e.Tag
		case "last-prompt":
			s.LastPrompt = e.LastPrompt
		case "summary":
			s.Recap = e.Summary
		case "assistant":
			if e.Model != "" && e.Model != "<synthetic>" {
				s.Model = e.Model
			}
		}
	}
	return s
}

// Info returns the session's Info as ListStore gives it (Path "", LastActivity Modified), and
// whether ListStore lists it (a session without a prompt or title, or a sidechain's, is not).
func (s Summary) Info() (Info, bool) {
	info := Info{ID: s.SessionID, CustomTitle: s.CustomTitle, Tag: s.Tag, FirstPrompt: s.FirstPrompt,
		LastPrompt: s.LastPrompt, Started: s.Started, LastActivity: s.Modified, Model: s.Model, Cwd: s.Cwd,
		GitBranch: s.GitBranch, Size: s.Size}
	info.Title = cmp.Or(s.CustomTitle, s.AITitle, s.LastPrompt, s.Recap, s.FirstPrompt)
	return info, !s.Sidechain && info.Title != ""
}

// SummaryStore is a ReadableStore that keeps a Summary of each session, folded in Append
// (FoldSummary), so that ListStore reads one summary per session instead of loading every
// transcript. Beyond ReadableStore's, its contract, which storetest.Run checks:
//
//   - Summaries returns, for each session of projectKey entries were appended to (its own key,
//     not a subagent's), the FoldSummary of all its entries in order, with Modified not before
//     the Transcript.Modified that List gives for it once the Append returned (a store that
//     writes the two apart may give an older one: ListStore then loads the session, correctly
//     but more slowly). None for a project nothing was appended to.
//   - The fold of one session is serialised: Appends of one key never race on its summary (the
//     mirror calls Append one at a time per session; other writers must hold a lock or use a
//     transaction).
type SummaryStore interface {
	ReadableStore
	// Summaries returns the summaries of the sessions of a project.
	Summaries(ctx context.Context, projectKey string) ([]Summary, error)
}

// entryLine returns an entry as one line of a transcript: as it is, or compacted if it has a
// newline of its own (a store may give an entry back re-indented).
func entryLine(e jsontext.Value) []byte {
	if bytes.IndexByte(e, '\n') >= 0 {
		v := jsontext.Value(bytes.Clone(e))
		if v.Compact() == nil {
			return v
		}
	}
	return e
}
