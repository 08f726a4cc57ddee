package parser_test

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// The fixtures in testdata are copies of shared/protocol/stream-samples.jsonl and
// shared/protocol/hook-callback-inputs.txt: real lines of the CLI 2.1.330.

type streamSample struct {
	Label string         `json:"label"`
	Run   string         `json:"run"`
	Dir   string         `json:"dir"`
	Msg   jsontext.Value `json:"msg"` // the line's bytes, as captured
}

func loadStreamSamples(t testing.TB) []streamSample {
	t.Helper()
	b, err := os.ReadFile("testdata/stream-samples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []streamSample
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var s streamSample
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatalf("stream-samples.jsonl line %d: %v", i+1, err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no stream samples")
	}
	return out
}

type hookCallbackSample struct {
	Event string // from the "### <Event> from <file>" header
	Line  []byte
}

func loadHookCallbacks(t testing.TB) []hookCallbackSample {
	t.Helper()
	f, err := os.Open("testdata/hook-callback-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []hookCallbackSample
	event := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "### "):
			event, _, _ = strings.Cut(strings.TrimPrefix(line, "### "), " ")
		case strings.HasPrefix(line, "{"):
			if event == "" {
				t.Fatalf("message before any header: %.80s", line)
			}
			out = append(out, hookCallbackSample{Event: event, Line: []byte(line)})
			event = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no hook callbacks")
	}
	return out
}

// loadCLIStream returns the lines of testdata/cli-stream-2.1.330.jsonl: the stdout of the CLI
// 2.1.330 in two internal/bench runs (seq and par, 10 Bash tool calls each), as it wrote them
// (compact JSON; the control_response to initialize left out).
func loadCLIStream(t testing.TB) [][]byte {
	t.Helper()
	b, err := os.ReadFile("testdata/cli-stream-2.1.330.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) < 4 {
		t.Fatalf("only %d lines in cli-stream-2.1.330.jsonl", len(lines))
	}
	return lines
}

// jsonEqual reports the difference between two JSON texts, compared as values.
func jsonDiff(t testing.TB, want, got []byte) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v: %.200s", err, want)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v: %.200s", err, got)
	}
	return cmp.Diff(w, g)
}
