package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The scanner of the fast decoders: the stream's messages (fastmsg.go) and hook requests
// (fastcontrol.go). It reads and validates a line in one pass.

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
		for first := true; ; first = false {
			if !s.next('}', first) {
				return !s.failed
			}
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
		}
	case c == '[':
		s.i++
		for first := true; ; first = false {
			if !s.next(']', first) {
				return !s.failed
			}
			if !s.value() {
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
