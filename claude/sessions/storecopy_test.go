package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// countingStore counts the Append calls of a FileStore.
type countingStore struct {
	sessions.FileStore
	appends atomic.Int32
}

func (s *countingStore) Append(ctx context.Context, k sessions.Key, es []jsontext.Value) error {
	s.appends.Add(1)
	return s.FileStore.Append(ctx, k, es)
}

// CopyToStore then CopyFromStore into another config directory gives back the session's
// transcript line for line, its subagent's and the subagent's .meta.json; a local copy is never
// overwritten; a session in neither is ErrNotFound.
func TestCopyToAndFromStore(t *testing.T) {
	ctx := context.Background()
	src := sessions.Dir(t.TempDir())
	var lines []string
	for i := range 1203 {
		lines = append(lines, fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"p%d"},"uuid":"u%d","sessionId":"%s"}`, i, i, idA))
	}
	main := writeTranscript(t, src, "/w/p", idA, time.Now(), lines...)
	subDir := filepath.Join(filepath.Dir(main), idA, "subagents")
	if err := os.MkdirAll(subDir, 0o700); err != nil {
		t.Fatal(err)
	}
	subLines := userLine + "\n" + assistantLine + "\n"
	meta := `{"agentType":"general-purpose","description":"sub","toolUseId":"toolu_01"}`
	must(t, os.WriteFile(filepath.Join(subDir, "agent-a1.jsonl"), []byte(subLines), 0o600))
	must(t, os.WriteFile(filepath.Join(subDir, "agent-a1.meta.json"), []byte(meta), 0o600))

	store := &countingStore{FileStore: sessions.FileStore{Dir: sessions.Dir(t.TempDir())}}
	must(t, src.CopyToStore(ctx, store, "/w/p", idA))
	if got := store.appends.Load(); got != 4 { // 500, 500, 203, and the subagent's
		t.Errorf("%d Append calls, want 4 (500 entries each at most)", got)
	}

	dst := sessions.Dir(t.TempDir())
	must(t, dst.CopyFromStore(ctx, store, "/w/p", idA))
	same := func(a, b string) {
		t.Helper()
		da, err := os.ReadFile(a)
		must(t, err)
		db, err := os.ReadFile(b)
		must(t, err)
		if diff := cmp.Diff(string(da), string(db)); diff != "" {
			t.Errorf("%s (-source +copy):\n%s", filepath.Base(a), diff)
		}
	}
	dstMain, _ := dst.TranscriptPath("/w/p", idA)
	same(main, dstMain)
	dstSub := filepath.Join(filepath.Dir(dstMain), idA, "subagents")
	same(filepath.Join(subDir, "agent-a1.jsonl"), filepath.Join(dstSub, "agent-a1.jsonl"))
	gotMeta, err := os.ReadFile(filepath.Join(dstSub, "agent-a1.meta.json"))
	must(t, err)
	if !jsonEqual(t, meta, string(gotMeta)) {
		t.Errorf(".meta.json = %s, want %s", gotMeta, meta)
	}

	// A local transcript stays as it is, though the store has more.
	must(t, os.WriteFile(dstMain, []byte(userLine+"\n"), 0o600))
	must(t, dst.CopyFromStore(ctx, store, "/w/p", idA))
	if data, _ := os.ReadFile(dstMain); string(data) != userLine+"\n" {
		t.Errorf("CopyFromStore changed a local transcript: %.80s...", data)
	}

	if err := sessions.Dir(t.TempDir()).CopyFromStore(ctx, store, "/w/p", idB); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("CopyFromStore of a session the store lacks = %v, want ErrNotFound", err)
	}
	if err := src.CopyToStore(ctx, store, "/w/p", idB); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("CopyToStore of a session the directory lacks = %v, want ErrNotFound", err)
	}
	if err := src.CopyFromStore(ctx, store, "/w/p", "../x"); !errors.Is(err, sessions.ErrInvalidID) {
		t.Errorf("CopyFromStore of a bad id = %v, want ErrInvalidID", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dstMain))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	va, vb := jsontext.Value(a), jsontext.Value(strings.TrimSpace(b))
	if va.Canonicalize() != nil || vb.Canonicalize() != nil {
		return false
	}
	return string(va) == string(vb)
}
