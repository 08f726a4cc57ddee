package sessions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

func TestKeyOf(t *testing.T) {
	cases := []struct {
		path string
		want sessions.Key
		ok   bool
	}{
		{"/h/.claude/projects/-w-p/" + idA + ".jsonl", sessions.Key{ProjectKey: "-w-p", SessionID: idA}, true},
		{"/h/.claude/projects/-w-p/" + idA + "/subagents/agent-a12_b.jsonl", sessions.Key{ProjectKey: "-w-p", SessionID: idA, AgentID: "a12_b"}, true},
		{"/h/.claude/projects/-w-p/" + idA + ".json", sessions.Key{}, false},
		{"/h/.claude/projects/-w-p/notes.jsonl", sessions.Key{}, false},
		{"/h/.claude/projects/../" + idA + ".jsonl", sessions.Key{}, false},
		{"/h/.claude/projects/-w-p/" + idA + "/subagents/agent-.jsonl", sessions.Key{}, false},
		{idA + ".jsonl", sessions.Key{}, false},
	}
	for _, tc := range cases {
		got, err := sessions.KeyOf(tc.path)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("KeyOf(%q) = %+v, %v; want %+v (ok %v)", tc.path, got, err, tc.want, tc.ok)
		}
		if !tc.ok && !errors.Is(err, sessions.ErrInvalidID) {
			t.Errorf("KeyOf(%q) error %v is not ErrInvalidID", tc.path, err)
		}
	}
}

// FileStore writes the CLI's layout, one compacted entry per line, and refuses keys that would
// name another file and entries that are not JSON objects.
func TestFileStore(t *testing.T) {
	dir := sessions.Dir(t.TempDir())
	s := sessions.FileStore{Dir: dir}
	ctx := context.Background()
	k := sessions.Key{ProjectKey: sessions.ProjectKey("/w/p"), SessionID: idA}
	if err := s.Append(ctx, k, []jsontext.Value{jsontext.Value(userLine), jsontext.Value("{\n \"type\": \"tag\", \"tag\": \"a\\u00e9\"\n}")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, k, []jsontext.Value{jsontext.Value(assistantLine)}); err != nil {
		t.Fatal(err)
	}
	sub := k
	sub.AgentID = "a1"
	if err := s.Append(ctx, sub, []jsontext.Value{jsontext.Value(userLine)}); err != nil {
		t.Fatal(err)
	}
	p, _ := dir.TranscriptPath("/w/p", idA)
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := userLine + "\n" + `{"type":"tag","tag":"a\u00e9"}` + "\n" + assistantLine + "\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("store file (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(p), idA, "subagents", "agent-a1.jsonl")); err != nil {
		t.Errorf("subagent copy: %v", err)
	}
	if ids, _ := dir.Subagents("/w/p", idA); !cmp.Equal(ids, []string{"a1"}) {
		t.Errorf("Subagents of the copy = %q", ids)
	}
	for _, bad := range []sessions.Key{{ProjectKey: "..", SessionID: idA}, {ProjectKey: "-w", SessionID: "../x"}, {ProjectKey: "-w", SessionID: idA, AgentID: "../a"}} {
		if err := s.Append(ctx, bad, nil); !errors.Is(err, sessions.ErrInvalidID) {
			t.Errorf("Append(%+v) = %v, want ErrInvalidID", bad, err)
		}
	}
	for _, e := range []string{`[1]`, `{"a":`, `{} {}`} {
		if err := s.Append(ctx, k, []jsontext.Value{jsontext.Value(e)}); err == nil {
			t.Errorf("Append of %q succeeded", e)
		}
	}
}
