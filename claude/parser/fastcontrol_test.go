package parser

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// realCallbackLines returns the real CLI's hook_callback lines of testdata (as captured, with
// spaces, and compacted as the CLI writes them), by event.
func realCallbackLines(t testing.TB) map[string][][]byte {
	t.Helper()
	f, err := os.Open("testdata/hook-callback-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if !bytes.HasPrefix(line, []byte("{")) {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, line); err != nil {
			t.Fatal(err)
		}
		e := gjson.GetBytes(line, "request.input.hook_event_name").String()
		out[e] = append(out[e], append([]byte(nil), line...), compact.Bytes())
	}
	if len(out) == 0 {
		t.Fatal("no hook callbacks in testdata")
	}
	return out
}

var rawEqual = cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })

// TestFastControlRequestTakesRealToolEvents: the real CLI's PreToolUse and PostToolUse callbacks
// take the one-pass decoder, and it decodes them as decodeControlRequest does; the other events
// are left to decodeControlRequest.
func TestFastControlRequestTakesRealToolEvents(t *testing.T) {
	for event, lines := range realCallbackLines(t) {
		for _, line := range lines {
			got, ok := fastControlRequest(line)
			tool := event == "PreToolUse" || event == "PostToolUse"
			if ok != tool {
				t.Errorf("%s: fast path taken = %v, want %v\n%s", event, ok, tool, line)
				continue
			}
			if !ok {
				continue
			}
			want, err := decodeControlRequest(line)
			if err != nil {
				t.Fatalf("%s: decodeControlRequest: %v", event, err)
			}
			if diff := cmp.Diff(want, got, rawEqual); diff != "" {
				t.Errorf("%s (-decodeControlRequest +fast):\n%s", event, diff)
			}
			// And Parse uses it.
			m, err := Parse(line)
			if err != nil {
				t.Fatalf("%s: Parse: %v", event, err)
			}
			if diff := cmp.Diff(want, m, rawEqual); diff != "" {
				t.Errorf("%s: Parse (-decodeControlRequest +Parse):\n%s", event, diff)
			}
		}
	}
}

// TestFastControlRequestCases: what the one-pass decoder takes it decodes as decodeControlRequest
// does, and it leaves to it what it must (ok false).
func TestFastControlRequestCases(t *testing.T) {
	const pre = `{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{%s},"tool_use_id":"t1"}}`
	const base = `"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"}`
	line := func(input string) string { return strings.Replace(pre, "%s", input, 1) }
	post := func(input string) string {
		return strings.Replace(strings.Replace(line(input), "PreToolUse", "PostToolUse", -1), `"hook_event_name":"PreToolUse"`, `"hook_event_name":"PostToolUse"`, 1)
	}
	cases := []struct {
		name string
		line string
		fast bool
	}{
		{"plain", line(base), true},
		{"event name last", line(`"session_id":"s","tool_name":"Bash","tool_input":{},"hook_event_name":"PreToolUse"`), true},
		{"input before subtype", `{"request":{"input":{` + base + `},"subtype":"hook_callback"},"request_id":"r","type":"control_request"}`, true},
		{"no tool_use_id in input", line(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}`), true},
		{"whitespace", strings.ReplaceAll(line(base), ",", " ,\n\t"), true},
		{"nested tool input", line(`"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"a":[1,2.5,-3e2,true,false,null,"s",{"b":{"c":[]}}],"d":{},"e":"x\ny\"z\\","f":"é"}`), true},
		{"duplicate tool input key (last wins)", line(`"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"a":1,"a":2}`), true},
		{"unknown keys go to Extra", line(base + `,"new_field":{"k":[1]},"other":"v"`), true},
		{"effort", line(base + `,"effort":{"level":"high"}`), true},
		{"empty effort", line(base + `,"effort":{}`), true},
		{"mcp server", line(base + `,"mcp_server":{"name":"srv"}`), true},
		{"nulls in string fields", line(`"session_id":null,"cwd":null,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}`), true},
		{"pre with post's fields", line(base + `,"tool_response":{"stdout":"x"},"duration_ms":"not a number"`), true},
		{"post", post(base + `,"tool_response":{"stdout":"x"},"duration_ms":12`), true},
		{"post, null duration", post(base + `,"tool_response":"s","duration_ms":null`), true},
		{"unknown top-level and request keys", `{"type":"control_request","x":[1,{"y":2}],"request_id":"r","request":{"z":null,"subtype":"hook_callback","input":{` + base + `}}}`, true},

		{"escaped base string", line(`"session_id":"a\"b","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}`), false},
		{"non-ASCII base string", line(`"cwd":"/é","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}`), false},
		{"\\u escape in tool input", line(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"a":"\u00e9"}`), false},
		{"null tool input", line(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":null`), false},
		{"null effort", line(base + `,"effort":null`), false},
		{"effort with another key", line(base + `,"effort":{"level":"x","y":1}`), false},
		{"post, null tool_response", post(base + `,"tool_response":null`), false},
		{"post, fractional duration", post(base + `,"duration_ms":1.5`), false},
		{"another event", strings.Replace(line(`"hook_event_name":"Stop"`), "PreToolUse", "Stop", 1), false},
		{"no tool name", line(`"hook_event_name":"PreToolUse","tool_input":{}`), false},
		{"repeated key", line(base + `,"cwd":"/x"`), false},
		{"case-folded key", line(base + `,"CWD":"/x"`), false},
		{"can_use_tool", `{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{}}}`, false},
		{"number too large", line(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"n":1e999}`), false},
		{"empty request id", strings.Replace(line(base), `"r1"`, `""`, 1), false},
		{"trailing garbage", line(base) + `x`, false},
		{"invalid JSON in an unknown key", line(base + `,"u":[1,]`), false},
		{"hook_event_name not a string", line(`"hook_event_name":1,"tool_name":"Bash","tool_input":{}`), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := fastControlRequest([]byte(tc.line))
			if ok != tc.fast {
				t.Fatalf("fast path taken = %v, want %v", ok, tc.fast)
			}
			if !ok {
				return
			}
			if !gjson.Valid(tc.line) {
				t.Fatal("took a line that is not valid JSON")
			}
			want, err := decodeControlRequest([]byte(tc.line))
			if err != nil {
				t.Fatalf("decodeControlRequest: %v", err)
			}
			if diff := cmp.Diff(want, got, rawEqual); diff != "" {
				t.Errorf("(-decodeControlRequest +fast):\n%s", diff)
			}
		})
	}
}

// FuzzFastControlRequest: wherever the one-pass decoder takes a line, the line is valid JSON and
// decodeControlRequest decodes it alike.
func FuzzFastControlRequest(f *testing.F) {
	for _, lines := range realCallbackLines(f) {
		for _, l := range lines {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"control_request","request_id":"r","request":{"subtype":"hook_callback","input":{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"a":[{"b":null}],"c":"\n"},"tool_response":[1],"duration_ms":-4,"effort":{},"extra":{}}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := fastControlRequest(line)
		if !ok {
			return
		}
		if !gjson.ValidBytes(line) {
			t.Fatalf("took a line that is not valid JSON: %q", line)
		}
		want, err := decodeControlRequest(line)
		if err != nil {
			t.Fatalf("took a line decodeControlRequest refuses (%v): %q", err, line)
		}
		if _, isControl := want.(*shared.ControlRequest); !isControl {
			t.Fatalf("decodeControlRequest made a %T", want)
		}
		if diff := cmp.Diff(want, got, rawEqual); diff != "" {
			t.Fatalf("(-decodeControlRequest +fast):\n%s", diff)
		}
	})
}

// FuzzTypeOf: typeOf finds the type gjson finds, and its hot index.
func FuzzTypeOf(f *testing.F) {
	for _, l := range []string{
		`{"type":"control_request","request_id":"r"}`, `{"type":"assistant"}`, `{"type":"tool_progress","x":1}`,
		`{"type":"a\"b"}`, `{"type":"x`, `{"type":"","type":"user"}`, ` {"type":"user"}`, `{"subtype":"s","type":"result"}`,
		`{"type":"control_cancel_request"}`, `{"type":"usér"}`, `{"type":1}`, `{}`, `{"type":"system\n"}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		typ, hot := typeOf(line)
		if want := gjson.GetBytes(line, "type").String(); typ != want && gjson.ValidBytes(line) {
			t.Fatalf("typeOf = %q, gjson finds %q in %q", typ, want, line)
		}
		if want := slices.Index(hotTypes[:], typ); hot != want {
			t.Fatalf("typeOf(%q) hot index %d, want %d", line, hot, want)
		}
	})
}

// TestFieldTable: a table finds each of its names in lower case, by its index, and nothing else.
func TestFieldTable(t *testing.T) {
	names := []string{"type", "request_id", "Request", "tool_input", "tool_name", "a", "permissionMode"}
	ft := newFieldTable(names...)
	if diff := cmp.Diff(names, ft.names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	for i, n := range names {
		if got, ok := ft.lookup([]byte(strings.ToLower(n))); !ok || got != i {
			t.Errorf("lookup(%q) = %d, %v; want %d, true", strings.ToLower(n), got, ok, i)
		}
	}
	for _, n := range []string{"", "Type", "typ", "types", "tool_inpuT", "b", "permissionmodes", strings.Repeat("x", maxFieldName)} {
		if got, ok := ft.lookup([]byte(n)); ok {
			t.Errorf("lookup(%q) = %d, true; want a miss", n, got)
		}
	}
}
