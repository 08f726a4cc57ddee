package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The stream's messages (system, assistant, user, result, stream_event) are decoded for every line
// the CLI writes, a few per tool call, hooks or not. Parse validated each line with gjson, and
// encoding/json validated it again and decoded it by reflection. The decoders below read and
// validate the line in one pass (scan, below) and fill the same structs; Parse calls them first,
// and a line they refuse is validated and decoded as before. They refuse invalid JSON, and every
// case they are not sure to decode exactly as encoding/json does:
//
//   - a key with an escape or a non-ASCII byte, a key that equals a field's name only
//     case-insensitively (encoding/json would fill the field), a field's key twice (encoding/json
//     merges or overwrites);
//   - a string value with a \u escape or invalid UTF-8 (the other escapes unescape alike);
//   - a value of a type the field does not take (encoding/json fails, or leaves the field alone),
//     a number that does not fit the field;
//   - nesting deeper than encoding/json takes (it refuses more than 10000 levels).
//
// What they make is what encoding/json makes, with one difference no reader can see in the
// values: a json.RawMessage field (Input, Content, Usage, ToolUseResult, ...) is the value's bytes
// inside the line (which Raw already holds, and which is never reused), with its capacity ending
// with it, instead of a copy; decodeControlRequest's Request and the fast hook inputs' Extra do the
// same. Strings are copies (or constants), never views of the line. FuzzFastMessages checks that
// the fast and the general decoders agree wherever the fast one decodes, and that what it takes is
// valid JSON.

// fieldTable is the JSON keys of one struct as encoding/json sees them (the names of its tags).
type fieldTable struct {
	names []string
	// byLen lists, per length, the names of that length in lower case with their index, for the
	// case-insensitive look-up (a handful of string compares beat hashing the key).
	byLen [maxFieldName + 1][]lowerName
}

type lowerName struct {
	name  string
	index int
}

func newFieldTable(names ...string) *fieldTable {
	t := &fieldTable{names: names}
	for i, n := range names {
		if len(n) > maxFieldName || i >= 64 {
			panic("parser: field table: " + n)
		}
		t.byLen[len(n)] = append(t.byLen[len(n)], lowerName{strings.ToLower(n), i})
	}
	return t
}

// lookup returns the index of the field whose name equals lower, a key in lower case.
func (t *fieldTable) lookup(lower []byte) (int, bool) {
	for _, n := range t.byLen[len(lower)] {
		if n.name == string(lower) {
			return n.index, true
		}
	}
	return 0, false
}

// maxFieldName bounds the keys that can be a field: longer ones are unknown without a look-up.
const maxFieldName = 32

// maxNestingDepth is encoding/json's limit on nesting.
const maxNestingDepth = 10000

// scan reads and validates one line in a single pass: the decoders descend into the values they
// decode and step over (checking) the others, so that no byte is read twice (gjson's ForEach would
// first step over an object to find its end, then walk it; and Parse would validate the line
// before). A line a fast decoder takes is valid JSON, as encoding/json and gjson define it. On
// anything unexpected or invalid it sets failed, and Parse validates the line and gives it to
// encoding/json; it never reads out of bounds, whatever the line.
type scan struct {
	b      []byte
	i      int
	failed bool
}

// init prepares s to decode line. It fails when the line is nested so deeply that encoding/json
// might refuse it, or is not an object.
func (s *scan) init(line []byte) {
	s.b = line
	if len(line) > maxNestingDepth && bytes.Count(line, []byte("{"))+bytes.Count(line, []byte("[")) > maxNestingDepth {
		s.failed = true
	}
	s.ws()
	if s.peek() != '{' {
		s.failed = true
	}
}

func (s *scan) fail() bool {
	s.failed = true
	return false
}

func (s *scan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the byte at the cursor, or 0 at the end.
func (s *scan) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// stringEnd returns the index just after the string that starts (with its quote) at i, or -1 if
// it is not a valid JSON string (a control byte, a bad escape, no end). Bytes >= 0x80 are not
// checked, as neither encoding/json nor gjson checks them for validity.
func (s *scan) stringEnd(i int) int {
	b := s.b
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if j++; j >= len(b) {
				return -1
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return -1
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// skip steps over the value at the cursor, checking that it is valid JSON, and returns its bytes'
// span.
func (s *scan) skip() (start, end int) {
	start = s.i
	if !s.value() {
		s.fail()
	}
	return start, s.i
}

// value steps over one valid JSON value at the cursor; it reports false if there is none. It
// recurses once per level of nesting, which init has bounded.
func (s *scan) value() bool {
	switch c := s.peek(); {
	case c == '"':
		e := s.stringEnd(s.i)
		if e < 0 {
			return false
		}
		s.i = e
		return true
	case c == '{':
		s.i++
		s.ws()
		if s.peek() == '}' {
			s.i++
			return true
		}
		for {
			if s.peek() != '"' {
				return false
			}
			if s.i = s.stringEnd(s.i); s.i < 0 {
				s.i = len(s.b)
				return false
			}
			s.ws()
			if s.peek() != ':' {
				return false
			}
			s.i++
			s.ws()
			if !s.value() {
				return false
			}
			s.ws()
			switch s.peek() {
			case ',':
				s.i++
				s.ws()
			case '}':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == '[':
		s.i++
		s.ws()
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.value() {
				return false
			}
			s.ws()
			switch s.peek() {
			case ',':
				s.i++
				s.ws()
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.numberLiteral()
	}
	return false
}

func (s *scan) literal(lit string) bool {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// numberLiteral steps over a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scan) numberLiteral() bool {
	digits := func() bool {
		n := 0
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n > 0
	}
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case '1' <= c && c <= '9':
		digits()
	default:
		return false
	}
	if s.peek() == '.' {
		s.i++
		if !digits() {
			return false
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if !digits() {
			return false
		}
	}
	return true
}

// end reports whether only whitespace follows the cursor: the line is one JSON value.
func (s *scan) end() bool {
	s.ws()
	return !s.failed && s.i == len(s.b)
}

// object calls f for every key of the object at the cursor that is one of t's fields, with the
// cursor on its value, which f must consume; it steps over the other keys' values. It fails when f
// does or when encoding/json might read a key otherwise: an escaped or non-ASCII key, a key that
// equals a field's name but for case, a field seen twice.
func (s *scan) object(t *fieldTable, f func(i int) bool) bool {
	return s.objectWith(t, f, nil)
}

// objectWith is object, but calls other, when it is not nil, for each key that is not one of t's
// fields (a plain ASCII key without escapes), with the cursor on its value, which other must
// consume.
func (s *scan) objectWith(t *fieldTable, f func(i int) bool, other func(key []byte) bool) bool {
	if s.failed || s.peek() != '{' {
		return s.fail()
	}
	s.i++
	var seen uint64 // tables have fewer than 64 fields
	for first := true; ; first = false {
		if !s.next('}', first) {
			return !s.failed
		}
		if s.peek() != '"' {
			return s.fail()
		}
		e := s.stringEnd(s.i)
		if e < 0 {
			return s.fail()
		}
		key := s.b[s.i+1 : e-1]
		s.i = e
		s.ws()
		if s.peek() != ':' {
			return s.fail()
		}
		s.i++
		s.ws()
		field := -1
		if len(key) <= maxFieldName {
			var buf [maxFieldName]byte
			lower := buf[:len(key)]
			for j, c := range key {
				if c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
					return s.fail() // encoding/json unescapes and folds keys: let it
				}
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				lower[j] = c
			}
			if i, known := t.lookup(lower); known {
				if string(key) != t.names[i] || seen&(1<<i) != 0 {
					return s.fail()
				}
				seen |= 1 << i
				field = i
			}
		} else if bytes.IndexByte(key, '\\') >= 0 || !isASCII(key) {
			return s.fail()
		}
		switch {
		case field < 0 && other == nil:
			s.skip()
		case field < 0:
			if !other(key) {
				return s.fail()
			}
		case !f(field):
			return s.fail()
		}
		if s.failed {
			return false
		}
	}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// array calls f with the cursor on each element of the array at the cursor; f must consume it.
func (s *scan) array(f func() bool) bool {
	if s.failed || s.peek() != '[' {
		return s.fail()
	}
	s.i++
	for first := true; ; first = false {
		if !s.next(']', first) {
			return !s.failed
		}
		if !f() || s.failed {
			return s.fail()
		}
	}
}

// next steps over what comes before an element of the object or array the cursor is in (end is
// its '}' or ']'): nothing before the first, a comma before the others. It reports false at the
// end, which it consumes, and when it fails (a missing comma).
func (s *scan) next(end byte, first bool) bool {
	s.ws()
	switch c := s.peek(); {
	case c == end:
		s.i++
		return false
	case !first && c == ',':
		s.i++
		s.ws()
	case !first:
		return s.fail()
	}
	return true
}

// null consumes a null at the cursor, if there is one.
func (s *scan) null() bool {
	if s.peek() == 'n' {
		s.skip()
		return true
	}
	return false
}

// str decodes the string at the cursor as encoding/json does, into a string of its own. It fails
// for a value that is not a string, a \u escape and invalid UTF-8.
func (s *scan) str() (string, bool) {
	if s.peek() != '"' {
		return "", s.fail()
	}
	start, end := s.skip()
	if s.failed {
		return "", false
	}
	body := s.b[start+1 : end-1]
	for i, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			if !utf8.Valid(body[i:]) {
				return "", s.fail()
			}
			if bytes.IndexByte(body[i:], '\\') < 0 {
				return string(body), true
			}
			return s.unescape(body)
		}
	}
	if c, ok := constString(body); ok {
		return c, true
	}
	return string(body), true
}

// unescape decodes a string body with escapes other than \u (those fail).
func (s *scan) unescape(body []byte) (string, bool) {
	var out strings.Builder
	out.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		if i++; i == len(body) {
			return "", s.fail()
		}
		switch c = body[i]; c {
		case '"', '\\', '/':
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // \u: encoding/json's handling of surrogates is its own
			return "", s.fail()
		}
		out.WriteByte(c)
	}
	return out.String(), true
}

// constString returns the constant for values that recur on every line, so that they cost no
// allocation.
func constString(b []byte) (string, bool) {
	switch string(b) {
	case "assistant":
		return "assistant", true
	case "user":
		return "user", true
	case "tool_use":
		return "tool_use", true
	case "tool_result":
		return "tool_result", true
	case "text":
		return "text", true
	case "thinking":
		return "thinking", true
	case "end_turn":
		return "end_turn", true
	case "success":
		return "success", true
	case "completed":
		return "completed", true
	case "init":
		return "init", true
	case "Bash":
		return "Bash", true
	}
	return "", false
}

// setStr stores the string at the cursor in dst; a null leaves dst alone, as encoding/json does.
func (s *scan) setStr(dst *string) bool {
	if s.null() {
		return true
	}
	v, ok := s.str()
	*dst = v
	return ok
}

// setStrPtr stores the string at the cursor in a new *string, or nil for a null.
func (s *scan) setStrPtr(dst **string) bool {
	if s.null() {
		*dst = nil
		return true
	}
	v, ok := s.str()
	*dst = &v
	return ok
}

func (s *scan) setBool(dst *bool) bool {
	switch s.peek() {
	case 't':
		*dst = true
	case 'f':
		*dst = false
	case 'n':
	default:
		return s.fail()
	}
	s.skip()
	return true
}

// number returns the number literal at the cursor.
func (s *scan) number() ([]byte, bool) {
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return nil, s.fail()
	}
	start, end := s.skip()
	return s.b[start:end], true
}

// setInt stores the integer at the cursor (encoding/json takes no fraction nor exponent for an
// int) in dst; a null leaves dst alone.
func setInt[T int | int64](s *scan, dst *T) bool {
	if s.null() {
		return true
	}
	lit, ok := s.number()
	if !ok {
		return false
	}
	bits := 64
	if _, isInt := any(dst).(*int); isInt {
		bits = strconv.IntSize
	}
	n, err := strconv.ParseInt(string(lit), 10, bits)
	*dst = T(n)
	return err == nil
}

func (s *scan) setFloat(dst *float64) bool {
	if s.null() {
		return true
	}
	lit, ok := s.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	*dst = f
	return err == nil
}

// setRaw stores the value at the cursor as the bytes of the line it spans (capacity capped); a null
// is stored as "null", as encoding/json does for a json.RawMessage.
func (s *scan) setRaw(dst *json.RawMessage) bool {
	start, end := s.skip()
	*dst = json.RawMessage(s.b[start:end:end])
	return !s.failed
}

// setStrings decodes an array of strings; a null leaves dst nil, [] makes it empty, not nil.
func (s *scan) setStrings(dst *[]string) bool {
	if s.null() {
		return true
	}
	out := []string{}
	ok := s.array(func() bool {
		v, ok := s.str()
		out = append(out, v)
		return ok
	})
	*dst = out
	return ok
}

var (
	assistantFields   = newFieldTable("message", "parent_tool_use_id", "session_id", "uuid")
	apiMessageFields  = newFieldTable("id", "role", "model", "content", "stop_reason", "usage")
	contentFields     = newFieldTable("type", "text", "thinking", "id", "name", "input", "tool_use_id", "content", "is_error")
	userFields        = newFieldTable("message", "parent_tool_use_id", "session_id", "uuid", "tool_use_result", "isReplay")
	userMessageFields = newFieldTable("role", "content")
	resultFields      = newFieldTable("subtype", "is_error", "result", "stop_reason", "terminal_reason", "num_turns",
		"duration_ms", "duration_api_ms", "total_cost_usd", "session_id", "uuid", "usage", "permission_denials",
		"deferred_tool_use", "errors")
	systemFields = newFieldTable("subtype", "session_id", "uuid", "cwd", "model", "permissionMode", "tools",
		"content", "level", "tag", "hook_id", "hook_name", "hook_event", "outcome", "exit_code", "stdout", "stderr")
	streamEventFields = newFieldTable("event", "session_id", "parent_tool_use_id", "uuid")
)

// fastAssistant decodes an assistant line as json.Unmarshal into a *shared.AssistantMessage would.
func fastAssistant(line []byte) (*shared.AssistantMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.AssistantMessage{Raw: line}
	ok := s.object(assistantFields, func(i int) bool {
		switch i {
		case 0:
			return s.apiMessage(&m.Message)
		case 1:
			return s.setStrPtr(&m.ParentToolUseID)
		case 2:
			return s.setStr(&m.SessionID)
		default:
			return s.setStr(&m.UUID)
		}
	})
	return m, ok && s.end()
}

func (s *scan) apiMessage(m *shared.APIMessage) bool {
	if s.null() {
		return true
	}
	return s.object(apiMessageFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.ID)
		case 1:
			return s.setStr(&m.Role)
		case 2:
			return s.setStr(&m.Model)
		case 3:
			return s.blocks(&m.Content)
		case 4:
			return s.setStr(&m.StopReason)
		default:
			return s.setRaw(&m.Usage)
		}
	})
}

// blocks decodes an array of content blocks; a null leaves dst nil, [] makes it empty, not nil.
func (s *scan) blocks(dst *[]shared.ContentBlock) bool {
	if s.null() {
		return true
	}
	out := []shared.ContentBlock{}
	ok := s.array(func() bool {
		// A null element makes a zero block, anything but an object fails: let encoding/json say.
		out = append(out, shared.ContentBlock{})
		b := &out[len(out)-1]
		return s.object(contentFields, func(i int) bool {
			switch i {
			case 0:
				return s.setStr(&b.Type)
			case 1:
				return s.setStr(&b.Text)
			case 2:
				return s.setStr(&b.Thinking)
			case 3:
				return s.setStr(&b.ID)
			case 4:
				return s.setStr(&b.Name)
			case 5:
				return s.setRaw(&b.Input)
			case 6:
				return s.setStr(&b.ToolUseID)
			case 7:
				return s.setRaw(&b.Content)
			default:
				return s.setBool(&b.IsError)
			}
		})
	})
	*dst = out
	return ok
}

// fastUser decodes a user line as decodeUser's encoding/json path does, Blocks included.
func fastUser(line []byte) (*shared.UserMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.UserMessage{Raw: line}
	ok := s.object(userFields, func(i int) bool {
		switch i {
		case 0:
			if s.null() {
				return true
			}
			return s.object(userMessageFields, func(i int) bool {
				if i == 0 {
					return s.setStr(&m.Message.Role)
				}
				if s.peek() != '[' {
					return s.setRaw(&m.Message.Content)
				}
				// The blocks, decoded in the same pass; Content is their bytes.
				start := s.i
				if !s.blocks(&m.Blocks) {
					return false
				}
				m.Message.Content = json.RawMessage(s.b[start:s.i:s.i])
				return true
			})
		case 1:
			return s.setStrPtr(&m.ParentToolUseID)
		case 2:
			return s.setStr(&m.SessionID)
		case 3:
			return s.setStr(&m.UUID)
		case 4:
			return s.setRaw(&m.ToolUseResult)
		default:
			return s.setBool(&m.IsReplay)
		}
	})
	return m, ok && s.end()
}

// fastResult decodes a result line as json.Unmarshal into a *shared.ResultMessage would.
func fastResult(line []byte) (*shared.ResultMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.ResultMessage{Raw: line}
	ok := s.object(resultFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.Subtype)
		case 1:
			return s.setBool(&m.IsError)
		case 2:
			return s.setStr(&m.Result)
		case 3:
			return s.setStr(&m.StopReason)
		case 4:
			return s.setStr(&m.TerminalReason)
		case 5:
			return setInt(&s, &m.NumTurns)
		case 6:
			return setInt(&s, &m.DurationMS)
		case 7:
			return setInt(&s, &m.DurationAPIMS)
		case 8:
			return s.setFloat(&m.TotalCostUSD)
		case 9:
			return s.setStr(&m.SessionID)
		case 10:
			return s.setStr(&m.UUID)
		case 11:
			return s.setRaw(&m.Usage)
		case 12:
			return s.setRaw(&m.PermissionDenials)
		case 13:
			return s.setRaw(&m.DeferredToolUse)
		default:
			return s.setStrings(&m.Errors)
		}
	})
	return m, ok && s.end()
}

// fastSystem decodes a system line as json.Unmarshal into a *shared.SystemMessage would.
func fastSystem(line []byte) (*shared.SystemMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.SystemMessage{Raw: line}
	ok := s.object(systemFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.Subtype)
		case 1:
			return s.setStr(&m.SessionID)
		case 2:
			return s.setStr(&m.UUID)
		case 3:
			return s.setStr(&m.Cwd)
		case 4:
			return s.setStr(&m.Model)
		case 5:
			return s.setStr(&m.PermissionMode)
		case 6:
			return s.setStrings(&m.Tools)
		case 7:
			return s.setStr(&m.Content)
		case 8:
			return s.setStr(&m.Level)
		case 9:
			return s.setStr(&m.Tag)
		case 10:
			return s.setStr(&m.HookID)
		case 11:
			return s.setStr(&m.HookName)
		case 12:
			return s.setStr(&m.HookEvent)
		case 13:
			return s.setStr(&m.Outcome)
		case 14:
			if s.null() {
				m.ExitCode = nil
				return true
			}
			n := new(int)
			m.ExitCode = n
			return setInt(&s, n)
		case 15:
			return s.setStr(&m.Stdout)
		default:
			return s.setStr(&m.Stderr)
		}
	})
	return m, ok && s.end()
}

// fastStreamEvent decodes a stream_event line as json.Unmarshal into a *shared.StreamEvent would.
func fastStreamEvent(line []byte) (*shared.StreamEvent, bool) {
	var s scan
	s.init(line)
	m := &shared.StreamEvent{Raw: line}
	ok := s.object(streamEventFields, func(i int) bool {
		switch i {
		case 0:
			return s.setRaw(&m.Event)
		case 1:
			return s.setStr(&m.SessionID)
		case 2:
			return s.setStrPtr(&m.ParentToolUseID)
		default:
			return s.setStr(&m.UUID)
		}
	})
	return m, ok && s.end()
}
