package parser

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// realToolInputs returns the PreToolUse and PostToolUse inputs of the CLI's real hook_callbacks.
func realToolInputs(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/hook-callback-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "{") {
			in := gjson.Get(l, "request.input")
			switch in.Get("hook_event_name").String() {
			case "PreToolUse", "PostToolUse":
				out = append(out, in.Raw)
			}
		}
	}
	if len(out) < 2 {
		t.Fatalf("only %d tool inputs in the fixtures", len(out))
	}
	return out
}

// checkFast fails if fastToolInput accepts s but decodes it otherwise than decodeHookInput.
func checkFast(t *testing.T, s string) (fast bool) {
	if !gjson.Valid(s) {
		return false
	}
	name := gjson.Get(s, "hook_event_name")
	if name.Type != gjson.String {
		return false
	}
	got, ok := fastToolInput(shared.HookEvent(name.Str), []byte(s), s)
	if !ok {
		return false
	}
	want, err := decodeHookInput([]byte(s), s)
	if err != nil {
		t.Fatalf("fast path took %s, the general decoder fails: %v", s, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("fast path differs for %s (-general +fast):\n%s", s, diff)
	}
	return true
}

// The real inputs of the CLI take the fast path, and it decodes them as the general decoder does.
func TestFastToolInputRealInputs(t *testing.T) {
	for _, s := range realToolInputs(t) {
		if !checkFast(t, s) {
			t.Errorf("the fast path refused a real input: %s", s)
		}
	}
}

// Cases the fast path must leave to the general decoder, or decode exactly like it.
func TestFastToolInputEdgeCases(t *testing.T) {
	base := `"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}`
	for _, tc := range []struct {
		input string
		fast  bool
	}{
		{`{` + base + `}`, true},
		{`{` + base + `,"new_field":[1,2],"effort":{"level":"high"},"mcp_server":{"name":"m","source":"sdk"}}`, true},
		{`{` + base + `,"effort":{}}`, true},
		{`{` + base + `,"prompt_id":null,"agent_id":null}`, true},
		{`{` + base + `,"Cwd":"/q"}`, false},             // case-insensitive match in encoding/json
		{`{` + base + `,"cwd":"/q"}`, false},             // repeated key
		{`{` + base + `,"agent_id":"caf\u00e9"}`, false}, // escape
		{`{` + base + `,"agent_id":"café"}`, false},      // non-ASCII
		{`{` + base + `,"agent_id":7}`, false},           // wrong type
		{`{` + base + `,"effort":{"level":"x","extra":1}}`, false},
		{`{` + base + `,"effort":null}`, false},
		{`{` + base + `,"tool_\u006eame":"Read"}`, false},                            // escaped key
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_input":{}}`, false}, // no tool_name
		{`{` + strings.Replace(base, "PreToolUse", "PostToolUse", 1) + `,"tool_response":{"stdout":"x"},"duration_ms":12}`, true},
		{`{` + strings.Replace(base, "PreToolUse", "PostToolUse", 1) + `,"duration_ms":1.5}`, false},
		{`{` + strings.Replace(base, "PreToolUse", "PostToolUse", 1) + `,"tool_response":null}`, false},
		{`{` + base + `,"tool_response":{"stdout":"x"},"duration_ms":1.5}`, true}, // Extra for PreToolUse
		{`{` + base + `,"tool_input":{"a":1}}`, false},
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo \"hi\"\n","n":[1,2.5,{"x":null}],"o":{},"b":true}}`, true},
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"caf\u00e9"}}`, true}, // encoding/json decodes tool_input
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"n":1e400}}`, false},
	} {
		t.Run(tc.input, func(t *testing.T) {
			if got := checkFast(t, tc.input); got != tc.fast {
				t.Errorf("fast path taken: %v, want %v", got, tc.fast)
			}
		})
	}
}

// FuzzFastToolInput: whatever the fast path accepts, it decodes exactly as the general decoder.
func FuzzFastToolInput(f *testing.F) {
	for _, s := range realToolInputs(f) {
		f.Add(s)
	}
	f.Add(`{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"x","duration_ms":3,"x":null}`)
	f.Add(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"a":[1,2.5e3,-0,true,null,{"b":"c\n\"d\""}],"e":{},"f":[],"g":"é\u00e9","a":1e400}}`)
	f.Add(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo \"hi\" > /tmp/x\tok","timeout":120000,"nested":[[[[{"x":[]}]]]]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		checkFast(t, s)
	})
}

func BenchmarkDecodeToolInput(b *testing.B) {
	s := realToolInputs(b)[0]
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := fastToolInput(shared.HookEventPreToolUse, []byte(s), s); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeHookInput([]byte(s), s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFastKey: fastKey knows exactly the keys of fastKeyNames, each with its own index.
func TestFastKey(t *testing.T) {
	for i, name := range fastKeyNames {
		if f, ok := fastKey(name); !ok || f != i {
			t.Errorf("fastKey(%q) = %d, %v; want %d, true", name, f, ok, i)
		}
	}
	for _, name := range []string{"", "tool", "Tool_name", "session_id ", "extra"} {
		if f, ok := fastKey(name); ok {
			t.Errorf("fastKey(%q) = %d, true; want unknown", name, f)
		}
	}
}
