package parser_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

var update = flag.Bool("update", false, "rewrite testdata/decoded.golden")

// TestDecodedGolden decodes every line of the three fixtures (real lines of the CLI 2.1.330) and
// compares what it decoded, field by field, with testdata/decoded.golden. The golden file was
// written by the parser this one replaced (the hand-written scanner, fast decoders and
// encoding/json, at commit fed219b): the JSON v2 parser decodes every kind of line the CLI writes
// to the same typed values. It was rewritten (-update) when the message kinds got their own types
// (issue 26): the lines of those kinds now dump as those types, with the fields they decode; and
// when results got a typed modelUsage (issue 38): the result lines dump it too, nothing else changed.
func TestDecodedGolden(t *testing.T) {
	var lines [][]byte
	for _, s := range loadStreamSamples(t) {
		lines = append(lines, s.Msg)
	}
	for _, h := range loadHookCallbacks(t) {
		lines = append(lines, h.Line)
	}
	lines = append(lines, loadCLIStream(t)...)
	var got bytes.Buffer
	for i, l := range lines {
		m, err := parser.Parse(l)
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		got.WriteString(dumpMessage(t, m))
		got.WriteByte('\n')
	}
	const golden = "testdata/decoded.golden"
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	wantLines, gotLines := strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")
	if len(wantLines) != len(gotLines) {
		t.Fatalf("%d decoded lines, the golden file has %d", len(gotLines), len(wantLines))
	}
	for i := range wantLines {
		if diff := cmp.Diff(wantLines[i], gotLines[i]); diff != "" {
			t.Errorf("line %d decoded differently (-before +now):\n%s", i, diff)
		}
	}
}

// dumpMessage returns m's Go type and fields as one line of JSON, with the hook input's Extra (a
// field the JSON of the types leaves out).
func dumpMessage(t *testing.T, m shared.Message) string {
	t.Helper()
	var in shared.HookInput
	switch v := m.(type) {
	case *parser.ControlRequest:
		if v.HookCallback != nil {
			in = v.HookCallback.Input
		}
	case *parser.HookEventLine:
		in = v.Input
	}
	d := struct {
		GoType  string
		Message shared.Message
		Input   string
		Extra   map[string]string
		Raw     string
		Blocks  any
	}{GoType: fmt.Sprintf("%T", m), Message: m}
	if in != nil {
		d.Input = fmt.Sprintf("%T", in)
		d.Raw = string(in.Base().Raw)
		for k, v := range in.Base().Extra {
			if d.Extra == nil {
				d.Extra = map[string]string{}
			}
			d.Extra[k] = string(v)
		}
	}
	if u, ok := m.(*shared.UserMessage); ok {
		d.Blocks = u.Blocks
	}
	b, err := json.Marshal(d, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	if err := (*jsontext.Value)(&b).Canonicalize(); err != nil {
		t.Fatal(err)
	}
	return string(b)
}
