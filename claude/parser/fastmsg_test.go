package parser

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// cliStreamLines returns the CLI's real stdout lines in testdata: compact, as the CLI writes them
// (cli-stream-2.1.330.jsonl), and the re-serialised samples of stream-samples.jsonl.
func cliStreamLines(t testing.TB) [][]byte {
	t.Helper()
	b, err := os.ReadFile("testdata/cli-stream-2.1.330.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	b, err = os.ReadFile("testdata/stream-samples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if msg := gjson.GetBytes(l, "msg"); msg.IsObject() {
			lines = append(lines, []byte(msg.Raw))
		}
	}
	return lines
}

// fastKind is one message type with a fast decoder: the fast decoder and the general one
// (encoding/json), both returning the message as any for go-cmp.
type fastKind struct {
	typ     string
	fast    func([]byte) (any, bool)
	general func([]byte) (any, error)
}

func wrapFast[T any](f func([]byte) (T, bool)) func([]byte) (any, bool) {
	return func(l []byte) (any, bool) { m, ok := f(l); return m, ok }
}

func wrapGeneral[T any](f func([]byte) (T, error)) func([]byte) (any, error) {
	return func(l []byte) (any, error) { m, err := f(l); return m, err }
}

var fastKinds = []fastKind{
	{"system", wrapFast(fastSystem), wrapGeneral(generalSystem)},
	{"assistant", wrapFast(fastAssistant), wrapGeneral(generalAssistant)},
	{"user", wrapFast(fastUser), wrapGeneral(generalUser)},
	{"result", wrapFast(fastResult), wrapGeneral(generalResult)},
	{"stream_event", wrapFast(fastStreamEvent), wrapGeneral(generalStreamEvent)},
}

// checkFastMessage runs every fast decoder on line (whatever its type: they do not look at it) and
// fails if one takes a line that is not valid JSON, or decodes it otherwise than encoding/json. It
// returns the types whose fast decoder took the line.
func checkFastMessage(t *testing.T, line []byte) (took []string) {
	t.Helper()
	for _, k := range fastKinds {
		// Each decoder gets a copy of its own, so that a decoder that wrote into the line would be
		// seen in the comparison.
		own := bytes.Clone(line)
		got, ok := k.fast(own)
		if !ok {
			continue
		}
		took = append(took, k.typ)
		if !json.Valid(line) || !gjson.ValidBytes(line) {
			t.Fatalf("%s: the fast decoder took %q, which is not valid JSON", k.typ, line)
		}
		want, err := k.general(bytes.Clone(line))
		if err != nil {
			t.Fatalf("%s: the fast decoder took %s, encoding/json fails: %v", k.typ, line, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: the fast decoder differs for %s (-encoding/json +fast):\n%s", k.typ, line, diff)
		}
		if s, ok := stringIntoLine(reflect.ValueOf(got), own); !ok {
			t.Fatalf("%s: the string %q is a view of the line, not a copy", k.typ, s)
		}
	}
	return took
}

// stringIntoLine returns a string inside v whose bytes lie inside line, the bytes v was decoded
// from: strings must be copies, that neither keep the line alive nor change with it. (v's Raw and
// json.RawMessage fields are views of the line by design; go-cmp checks their contents.)
func stringIntoLine(v reflect.Value, line []byte) (string, bool) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(line)))
	end := start + uintptr(len(line))
	return walkStrings(v, func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return s == "" || p < start || p >= end
	})
}

func walkStrings(v reflect.Value, ok func(string) bool) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return walkStrings(v.Elem(), ok)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if s, good := walkStrings(v.Field(i), ok); !good {
				return s, false
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", true
		}
		for i := 0; i < v.Len(); i++ {
			if s, good := walkStrings(v.Index(i), ok); !good {
				return s, false
			}
		}
	case reflect.String:
		if s := v.String(); !ok(s) {
			return s, false
		}
	}
	return "", true
}

// Every real line of the CLI of the five types takes the fast path of its type, and decodes as
// with encoding/json.
func TestFastMessagesRealLines(t *testing.T) {
	seen := map[string]int{}
	for _, l := range cliStreamLines(t) {
		typ := gjson.GetBytes(l, "type").String()
		took := checkFastMessage(t, l)
		isFast := false
		for _, k := range fastKinds {
			if k.typ == typ {
				isFast = true
			}
		}
		if isFast && !strings.Contains(" "+strings.Join(took, " ")+" ", " "+typ+" ") {
			t.Errorf("the %s fast decoder refused a real line: %s", typ, l)
		}
		seen[typ]++
	}
	for _, k := range fastKinds {
		if seen[k.typ] == 0 {
			t.Errorf("no real %s line in testdata", k.typ)
		}
	}
}

// Cases the fast decoders must leave to encoding/json, or decode exactly like it. took lists the
// types whose fast decoder takes the line.
func TestFastMessagesEdgeCases(t *testing.T) {
	const (
		asst = `"type":"assistant","message":{"id":"m","role":"assistant","model":"x","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}],"stop_reason":null,"usage":{"input_tokens":1}},"parent_tool_use_id":null,"session_id":"s","uuid":"u"`
		user = `"type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"0","is_error":false}]},"parent_tool_use_id":null,"session_id":"s","uuid":"u","tool_use_result":{"stdout":"0"}`
		res  = `"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":2,"duration_ms":604,"duration_api_ms":259,"total_cost_usd":0.561012,"session_id":"s","usage":{},"permission_denials":[]`
		sys  = `"type":"system","subtype":"init","cwd":"/p","session_id":"s","tools":["Bash","Read"],"model":"x","permissionMode":"default"`
	)
	all := []string{"system", "assistant", "user", "result", "stream_event"} // a line of no field of theirs
	for _, tc := range []struct {
		name string
		line string
		took []string
	}{
		{"assistant", `{` + asst + `}`, all},
		{"user", `{` + user + `}`, all},
		{"result", `{` + res + `}`, all},
		{"system", `{` + sys + `}`, all},
		{"empty object", `{}`, all},
		{"leading space", ` {` + asst + `}`, all},
		{"text with escapes and non-ASCII", `{"type":"assistant","message":{"content":[{"type":"text","text":"a \"q\"\n\tcafé ✓"}]}}`, all},
		{"text with a \\u escape", `{"type":"assistant","message":{"content":[{"type":"text","text":"caf\u00e9"}]}}`, []string{"system", "result", "stream_event"}},
		{"\\u escape inside a raw value", `{` + user + `,"isReplay":true,"x":"\u0000"}`, all},
		{"invalid UTF-8", "{\"session_id\":\"\xff\"}", nil},
		{"key in another case", `{"Session_ID":"s"}`, nil},
		{"key of a nested struct in another case", `{"message":{"Role":"user"}}`, []string{"system", "result", "stream_event"}},
		{"escaped key", `{"session_\u0069d":"s"}`, nil},
		{"escaped unknown key", `{"x\u0069":"s"}`, nil},
		{"repeated key", `{"session_id":"a","session_id":"b"}`, nil},
		{"unknown keys repeated", `{"x":1,"x":2,"y":{"z":[1,2]}}`, all},
		{"long unknown key", `{"` + strings.Repeat("k", 40) + `":1}`, all},
		{"string field of another type", `{"session_id":1}`, nil},
		{"nulls", `{"session_id":null,"uuid":null,"parent_tool_use_id":null,"message":null,"event":null,"usage":null,"tools":null,"errors":null,"exit_code":null,"is_error":null,"num_turns":null,"total_cost_usd":null}`, all},
		{"empty arrays", `{"message":{"content":[]},"tools":[],"errors":[]}`, all},
		{"content blocks with null", `{"message":{"content":[null]}}`, []string{"system", "result", "stream_event"}},
		{"content of another type", `{"message":{"content":"text"}}`, []string{"system", "user", "result", "stream_event"}},
		{"string array with null", `{"tools":["a",null]}`, []string{"assistant", "user", "result", "stream_event"}},
		{"integer fields", `{"num_turns":-3,"duration_ms":9007199254740993,"exit_code":2}`, all},
		{"int with a fraction", `{"num_turns":1.0}`, []string{"system", "assistant", "user", "stream_event"}},
		{"int with an exponent", `{"duration_ms":1e3}`, []string{"system", "assistant", "user", "stream_event"}},
		{"int out of range", `{"exit_code":99999999999999999999}`, []string{"assistant", "user", "result", "stream_event"}},
		{"float out of range", `{"total_cost_usd":1e400}`, []string{"system", "assistant", "user", "stream_event"}},
		{"bool of another type", `{"is_error":"yes"}`, []string{"system", "assistant", "user", "stream_event"}},
		{"bool as false", `{"is_error":false,"isReplay":false}`, all},
		{"parent_tool_use_id set", `{"parent_tool_use_id":"toolu_1"}`, all},
		{"raw values keep their bytes", `{"event":{"a" : [1, 2]},"usage":[ ],"tool_use_result":"x\ny","message":{"content":"s"}}`, []string{"system", "user", "result", "stream_event"}},
		{"strings ending in backslashes", `{"session_id":"a\\\\","uuid":"\\\"","x":"\\","y":["]}\\\"{["],"model":"m"}`, all},
		{"long strings with escapes", `{"session_id":"` + strings.Repeat(`ab\"\\`, 40) + `","x":"` + strings.Repeat(`\\`, 70) + `","uuid":"` + strings.Repeat("é", 50) + `\""}`, all},
		{"brackets inside skipped strings", `{"x":{"a":"}","b":["]",{"c":"\"}"}]},"session_id":"s"}`, all},
		{"whitespace everywhere", " {\t\"session_id\" :\n\"s\" , \"message\" : { \"content\" : [ { \"type\" : \"text\" } ] } , \"x\" : [ 1 , true , null ] }\r\n", all},
		{"unterminated", `{"session_id":"a"`, nil},
		{"unterminated string", `{"session_id":"a}`, nil},
		{"trailing bytes", `{"session_id":"a"} x`, nil},
		{"two values", `{}{}`, nil},
		{"trailing comma", `{"session_id":"a",}`, nil},
		{"no colon", `{"session_id" "a"}`, nil},
		{"not an object", `["session_id"]`, nil},
		{"leading zero in a skipped number", `{"x":01}`, nil},
		{"bad fraction", `{"x":1.}`, nil},
		{"bad exponent", `{"x":1e}`, nil},
		{"bad literal", `{"x":tru}`, nil},
		{"bad literal in an array", `{"x":[nul]}`, nil},
		{"control byte in a string", "{\"x\":\"a\x01\"}", nil},
		{"bad escape", `{"x":"\q"}`, nil},
		{"short \\u escape", `{"x":"\u12"}`, nil},
		{"valid \\u escape in a skipped string", `{"x":"\u00e9\ud83d\ude00"}`, all},
		{"numbers in skipped values", `{"x":[0,-0,1.5,-2e10,3E+2,4e-3,0.0]}`, all},
		{"trailing whitespace", "{\"session_id\":\"a\"} \t\r\n", all},
		{"deep nesting", `{"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkFastMessage(t, []byte(tc.line))
			if diff := cmp.Diff(tc.took, got); diff != "" {
				t.Errorf("fast decoders taken (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzFastMessages: whatever a fast decoder takes, it decodes exactly as encoding/json.
func FuzzFastMessages(f *testing.F) {
	for _, l := range cliStreamLines(f) {
		if len(l) < 8<<10 {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"a\"\\/\b\f\n\r\t é"},{"type":"thinking","thinking":"","signature":"x"}],"usage":null},"parent_tool_use_id":"p","isReplay":true}`))
	f.Add([]byte(`{"type":"result","subtype":"error_during_execution","errors":["","[x]"],"num_turns":0,"exit_code":1,"deferred_tool_use":{"id":"t"},"Usage":{}}`))
	f.Add([]byte(`{"type":"system","subtype":"hook_response","hook_id":"h","exit_code":-1,"stdout":"o","stderr":"e","outcome":"success","tag":"t","level":"info","content":"c"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFastMessage(t, line)
	})
}

// BenchmarkDecodeMessage compares the fast and the general (encoding/json) decoder of each type on
// a real line of the CLI.
func BenchmarkDecodeMessage(b *testing.B) {
	lines := map[string][]byte{}
	for _, l := range cliStreamLines(b) {
		typ := gjson.GetBytes(l, "type").String()
		if lines[typ] == nil && (typ != "assistant" || bytes.Contains(l, []byte(`"tool_use"`))) &&
			(typ != "user" || bytes.Contains(l, []byte(`"tool_use_result"`))) {
			lines[typ] = l
		}
	}
	for _, k := range fastKinds {
		line := lines[k.typ]
		if line == nil {
			b.Fatalf("no %s line", k.typ)
		}
		b.Run(k.typ+"/fast", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := k.fast(line); !ok {
					b.Fatal("refused")
				}
			}
		})
		b.Run(k.typ+"/general", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := k.general(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
