package parser_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookwire/agent-sdk-go/claude/parser"
)

// FuzzPeek: whatever a line holds (cut short, nested past the bound, not JSON), Peek neither panics
// nor makes up a request id that is not in a valid UTF-8 line.
func FuzzPeek(f *testing.F) {
	for _, s := range []string{
		`{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"hook_event_name":"PreToolUse"}}}`,
		`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","input":{"x":[[[[`,
		`{"type":"hook_event","id":"e1","hook_event_name":"Stop","tool_use_id":"t"}`,
		`{"type":"control_request","request_id":"a","request_id":"b"}`,
		"{\"type\":\"\xff\"}", `[1,2]`, ``, `{`, "{\"request_id\":\"\xa0\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h := parser.Peek(line)
		// Peek reads invalid UTF-8 as U+FFFD, as the CLI's own UTF-8 decoding of its output would;
		// the id is then not byte for byte in the line.
		if h.RequestID != "" && utf8.Valid(line) && !strings.Contains(string(line), h.RequestID) && !strings.Contains(string(line), `\`) {
			t.Errorf("request id %q is not in the line %q", h.RequestID, line)
		}
	})
}
