package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// Memory is a store that keeps everything in memory: a sessions.SummaryStore and a
// sessions.DeletableStore, the reference for a store of your own (it passes Run) and a store for
// tests. Loads counts its Load calls. The zero Memory is empty and ready; it is safe for
// concurrent use.
type Memory struct {
	mu          sync.Mutex
	transcripts map[sessions.Key]*memTranscript
	summaries   map[sessions.Key]sessions.Summary // by session key (AgentID "")
	loads       int
}

type memTranscript struct {
	entries  []jsontext.Value
	modified time.Time
}

var (
	_ sessions.SummaryStore   = (*Memory)(nil)
	_ sessions.DeletableStore = (*Memory)(nil)
)

// Append keeps a copy of entries under key and, for a session's own key, folds them into its
// summary (sessions.FoldSummary), both stamped with the same time.
func (m *Memory) Append(ctx context.Context, key sessions.Key, entries []jsontext.Value) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	kept := make([]jsontext.Value, len(entries))
	for i, e := range entries {
		if !e.IsValid() || e.Kind() != '{' {
			return fmt.Errorf("storetest: Memory.Append: entry %d is not one JSON object", i)
		}
		kept[i] = bytes.Clone(e)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.transcripts == nil {
		m.transcripts, m.summaries = map[sessions.Key]*memTranscript{}, map[sessions.Key]sessions.Summary{}
	}
	now := time.Now()
	t := m.transcripts[key]
	if t == nil {
		t = &memTranscript{}
		m.transcripts[key] = t
	}
	t.entries, t.modified = append(t.entries, kept...), now
	if key.AgentID == "" {
		s := sessions.FoldSummary(m.summaries[key], key, kept)
		s.Modified = now
		m.summaries[key] = s
	}
	return nil
}

// Load returns the entries appended to key, in order; sessions.ErrNotFound if none were.
func (m *Memory) Load(ctx context.Context, key sessions.Key) ([]jsontext.Value, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.loads++
	t := m.transcripts[key]
	if t == nil {
		return nil, fmt.Errorf("%w: %+v", sessions.ErrNotFound, key)
	}
	out := make([]jsontext.Value, len(t.entries))
	for i, e := range t.entries {
		out[i] = bytes.Clone(e) // the caller's to change
	}
	return out, nil
}

// List returns the transcripts of projectKey.
func (m *Memory) List(ctx context.Context, projectKey string) ([]sessions.Transcript, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []sessions.Transcript
	for k, t := range m.transcripts {
		if k.ProjectKey == projectKey {
			out = append(out, sessions.Transcript{Key: k, Modified: t.modified})
		}
	}
	return out, nil
}

// Summaries returns the summaries of projectKey's sessions.
func (m *Memory) Summaries(ctx context.Context, projectKey string) ([]sessions.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []sessions.Summary
	for k, s := range m.summaries {
		if k.ProjectKey == projectKey {
			out = append(out, s)
		}
	}
	return out, nil
}

// Delete deletes key's entries; for a session's key, its subagents' and its summary too.
func (m *Memory) Delete(ctx context.Context, key sessions.Key) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.transcripts {
		if k == key || key.AgentID == "" && k.ProjectKey == key.ProjectKey && k.SessionID == key.SessionID {
			delete(m.transcripts, k)
		}
	}
	delete(m.summaries, key)
	return nil
}

// Loads returns how many times Load was called.
func (m *Memory) Loads() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.loads
}
