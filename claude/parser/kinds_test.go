package parser_test

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// genericSystem are the system subtypes that decode into *shared.SystemMessage by design (its
// doc says which fields each has); every other system subtype of the schema has its own type.
var genericSystem = []string{"init", "informational", "hook_started", "hook_progress", "hook_response"}

// sdkKinds reads testdata/sdk-kinds.txt (gen_sdkkinds.go) and returns its lines of the given
// section ("message" or "control"): kind and TypeScript type name.
func sdkKinds(t *testing.T, section string) [][2]string {
	t.Helper()
	f, err := os.Open("testdata/sdk-kinds.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 3 && fs[0] == section {
			out = append(out, [2]string{fs[1], fs[2]})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s lines in testdata/sdk-kinds.txt", section)
	}
	return out
}

// TestEveryCLIKindTyped walks the message kinds the TypeScript Agent SDK declares (its SDKMessage
// union, extracted by gen_sdkkinds.go into testdata/sdk-kinds.txt) and fails for each one that
// Parse hands on untyped: a *shared.RawMessage, or a *shared.SystemMessage of a subtype it does
// not document. Regenerating the file for a new SDK version makes a new kind a failing test.
func TestEveryCLIKindTyped(t *testing.T) {
	for _, k := range sdkKinds(t, "message") {
		typ, sub, _ := strings.Cut(k[0], "/")
		line := fmt.Sprintf(`{"type":%q,"session_id":"s","uuid":"u"}`, typ)
		if sub != "" {
			line = fmt.Sprintf(`{"type":%q,"subtype":%q,"session_id":"s","uuid":"u"}`, typ, sub)
		}
		if typ == "assistant" || typ == "user" {
			line = fmt.Sprintf(`{"type":%q,"message":{"role":%q,"content":[]},"parent_tool_use_id":null}`, typ, typ)
		}
		m, err := parser.Parse([]byte(line))
		switch v := m.(type) {
		case nil:
			t.Errorf("%s (%s): %v", k[0], k[1], err)
		case *shared.RawMessage:
			t.Errorf("%s (%s) has no Go type: it arrives as a *shared.RawMessage", k[0], k[1])
		case *shared.SystemMessage:
			if !slices.Contains(genericSystem, v.Subtype) {
				t.Errorf("%s (%s) has no Go type: it arrives as a *shared.SystemMessage", k[0], k[1])
			}
		}
	}
}

// ignoredMembers are members of testdata/kinds.jsonl's lines that the Go types leave in Raw on
// purpose (paths inside the line, after its kind).
var ignoredMembers = map[string][]string{
	"system/init": {"memory_paths", "original_cwd", "additional_directories", "messaging_socket_path",
		"fast_mode_disabled_reason", "per_turn_effort_active", "ultrathink_available", "ultrathink_typed_raises",
		"view_mode", "analytics_disabled", "product_feedback_disabled", "served_by_anthropic"},
	"system/compact_boundary":  {"logical_parent_uuid", "compact_metadata.cumulative_dropped_tokens"},
	"system/task_notification": {"summary_is_report"},
}

// TestKindLines decodes a line of each kind, recorded from the real CLI 2.1.330 where it could be
// made to write it, else shaped after the TypeScript SDK 0.3.332's type (testdata/kinds.jsonl
// says which, and why the CLI does not write it offline), and checks that the typed message
// holds every member of the line: encoding the Go value back gives each member the line has, with
// the same value (members listed in ignoredMembers are left in Raw by design).
func TestKindLines(t *testing.T) {
	f, err := os.Open("testdata/kinds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Source string         `json:"source"`
			Line   jsontext.Value `json:"line"`
		}
		if err := jsonv2.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		h := parser.Peek(rec.Line)
		kind := h.Type
		if h.Subtype != "" && h.Type == "system" {
			kind += "/" + h.Subtype
		}
		t.Run(kind, func(t *testing.T) {
			m, err := parser.Parse(rec.Line)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if sm, ok := m.(*shared.SystemMessage); ok && !slices.Contains(genericSystem, sm.Subtype) {
				t.Fatalf("decoded as a generic *shared.SystemMessage")
			}
			if _, ok := m.(*shared.RawMessage); ok {
				t.Fatalf("decoded as a *shared.RawMessage")
			}
			if raw := reflect.ValueOf(m).Elem().FieldByName("Raw"); !raw.IsValid() || string(raw.Bytes()) != string(rec.Line) {
				t.Errorf("%T.Raw is not the line", m)
			}
			out, err := jsonv2.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var want, got map[string]any
			if err := jsonv2.Unmarshal(rec.Line, &want); err != nil {
				t.Fatal(err)
			}
			if err := jsonv2.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			delete(want, "type")
			for _, p := range ignoredMembers[kind] {
				deletePath(want, strings.Split(p, "."))
			}
			for k, v := range want {
				if _, ok := got[k]; !ok && isEmpty(v) { // an empty list the Go field omits
					continue
				}
				if diff := cmp.Diff(v, got[k]); diff != "" {
					t.Errorf("%T does not hold member %q as the line has it (%s) (-line +Go):\n%s", m, k, rec.Source, diff)
				}
			}
		})
	}
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

func deletePath(m map[string]any, path []string) {
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	if sub, ok := m[path[0]].(map[string]any); ok {
		deletePath(sub, path[1:])
	}
}

// A line of a typed kind whose shape its type does not fit (a newer CLI changed a field's type)
// is still handed on, as the generic message of its type, never dropped; a line that is not valid
// for the codec (duplicate names) still fails.
func TestKindShapeDrift(t *testing.T) {
	for _, tc := range []struct {
		line string
		want any
	}{
		{`{"type":"system","subtype":"api_retry","attempt":"two"}`, &shared.SystemMessage{}},
		{`{"type":"tool_progress","elapsed_time_seconds":"long"}`, &shared.RawMessage{}},
	} {
		m, err := parser.Parse([]byte(tc.line))
		if err != nil || reflect.TypeOf(m) != reflect.TypeOf(tc.want) {
			t.Errorf("Parse(%s) = %T, %v; want %T", tc.line, m, err, tc.want)
		}
	}
	if m, err := parser.Parse([]byte(`{"type":"system","subtype":"api_retry","attempt":1,"attempt":2}`)); err == nil {
		t.Errorf("Parse of duplicate names = %T, want an error", m)
	}
}
