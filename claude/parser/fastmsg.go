package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// The stream's messages (system, assistant, user, result, stream_event) are decoded for every line
// the CLI writes, a few per tool call, hooks or not. encoding/json validated each line a second time
// (Parse already did) and decoded it by reflection. The decoders below walk the already validated
// line once with gjson and fill the same structs, and hand every case they are not sure to decode
// exactly as encoding/json does back to it (ok false):
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
// the fast and the general decoders agree wherever the fast one decodes.

// fieldTable is the JSON keys of one struct as encoding/json sees them (the names of its tags).
type fieldTable struct {
	names []string
	// lower maps each name in lower case to its index, for the case-insensitive check.
	lower map[string]int
}

func newFieldTable(names ...string) *fieldTable {
	t := &fieldTable{names: names, lower: make(map[string]int, len(names))}
	for i, n := range names {
		t.lower[strings.ToLower(n)] = i
	}
	return t
}

// maxFieldName bounds the keys that can be a field: longer ones are unknown without a look-up.
const maxFieldName = 32

// eachField calls f for every key of the object r that is one of t's fields, with the field's
// index; it skips the other keys. It reports false, without going on, when f does or when
// encoding/json might read a key otherwise: an escaped or non-ASCII key, a key that equals a field's
// name but for case, a field seen twice.
func eachField(r gjson.Result, t *fieldTable, f func(i int, v gjson.Result) bool) bool {
	var seen uint64 // tables have fewer than 64 fields
	ok := true
	r.ForEach(func(k, v gjson.Result) bool {
		name, plain := plainString(k)
		if !plain {
			ok = false
			return false
		}
		if len(name) > maxFieldName {
			return true
		}
		var buf [maxFieldName]byte
		lower := buf[:len(name)]
		for i := 0; i < len(name); i++ {
			c := name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		i, known := t.lower[string(lower)]
		if !known {
			return true
		}
		if name != t.names[i] || seen&(1<<i) != 0 {
			ok = false
			return false
		}
		seen |= 1 << i
		ok = f(i, v)
		return ok
	})
	return ok
}

// fastLine is one line being decoded by a fast decoder.
type fastLine struct {
	line []byte
	root gjson.Result
}

// newFastLine prepares line (valid JSON, as Parse has checked) for the fast decoders. ok is false
// when the line is nested so deeply that encoding/json might refuse it.
func newFastLine(line []byte) (d fastLine, ok bool) {
	if len(line) > maxNestingDepth && bytes.Count(line, []byte("{"))+bytes.Count(line, []byte("[")) > maxNestingDepth {
		return d, false
	}
	off := len(line) - len(bytes.TrimLeft(line, " \t\r\n"))
	if off == len(line) || line[off] != '{' {
		return d, false
	}
	// A view of the line, not a copy: gjson reads it, nothing keeps it (see str and raw).
	view := unsafe.String(unsafe.SliceData(line), len(line))
	d.line = line
	d.root = gjson.Result{Type: gjson.JSON, Raw: view[off:], Index: off}
	return d, true
}

// maxNestingDepth is encoding/json's limit on nesting.
const maxNestingDepth = 10000

// raw returns v's bytes within the line, as a json.RawMessage whose capacity ends with them.
func (d *fastLine) raw(v gjson.Result) (json.RawMessage, bool) {
	i, j := v.Index, v.Index+len(v.Raw)
	if v.Index <= 0 || j > len(d.line) || len(v.Raw) == 0 || unsafe.StringData(v.Raw) != &d.line[i] {
		return nil, false
	}
	return json.RawMessage(d.line[i:j:j]), true
}

// str decodes the JSON string v as encoding/json does, into a string of its own (never a view of
// the line). ok is false for a value that is not a string, a \u escape and invalid UTF-8.
func str(v gjson.Result) (string, bool) {
	if v.Type != gjson.String || len(v.Raw) < 2 {
		return "", false
	}
	body := v.Raw[1 : len(v.Raw)-1]
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '\\' || c >= utf8.RuneSelf {
			if strings.Contains(body, `\u`) || !utf8.ValidString(body) {
				return "", false
			}
			if strings.IndexByte(body, '\\') >= 0 {
				return v.Str, true // gjson unescaped it into a new string
			}
			return strings.Clone(body), true
		}
	}
	if c, ok := constString(body); ok {
		return c, true
	}
	return strings.Clone(body), true
}

// constString returns the constant for values that recur on every line, so that they cost no
// allocation.
func constString(s string) (string, bool) {
	switch s {
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

// setStr stores the string v in dst; a null leaves dst alone, as encoding/json does.
func setStr(v gjson.Result, dst *string) bool {
	if v.Type == gjson.Null {
		return true
	}
	s, ok := str(v)
	*dst = s
	return ok
}

// setStrPtr stores the string v in a new *string, or nil for a null.
func setStrPtr(v gjson.Result, dst **string) bool {
	if v.Type == gjson.Null {
		*dst = nil
		return true
	}
	s, ok := str(v)
	*dst = &s
	return ok
}

func setBool(v gjson.Result, dst *bool) bool {
	switch v.Type {
	case gjson.True:
		*dst = true
	case gjson.False:
		*dst = false
	case gjson.Null:
	default:
		return false
	}
	return true
}

// setInt stores the integer v (encoding/json takes no fraction nor exponent for an int) in dst.
func setInt[T int | int64](v gjson.Result, dst *T) bool {
	if v.Type == gjson.Null {
		return true
	}
	if v.Type != gjson.Number {
		return false
	}
	bits := 64
	if _, isInt := any(dst).(*int); isInt {
		bits = strconv.IntSize
	}
	n, err := strconv.ParseInt(v.Raw, 10, bits)
	*dst = T(n)
	return err == nil
}

func setFloat(v gjson.Result, dst *float64) bool {
	if v.Type == gjson.Null {
		return true
	}
	if v.Type != gjson.Number {
		return false
	}
	f, err := strconv.ParseFloat(v.Raw, 64)
	*dst = f
	return err == nil
}

// setRaw stores v's bytes; a null is stored as "null", as encoding/json does for a json.RawMessage.
func (d *fastLine) setRaw(v gjson.Result, dst *json.RawMessage) bool {
	r, ok := d.raw(v)
	*dst = r
	return ok
}

// setStrings decodes an array of strings; a null leaves dst nil, [] makes it empty, not nil.
func setStrings(v gjson.Result, dst *[]string) bool {
	if v.Type == gjson.Null {
		return true
	}
	if !v.IsArray() {
		return false
	}
	out := []string{}
	ok := true
	v.ForEach(func(_, e gjson.Result) bool {
		var s string
		if s, ok = str(e); ok {
			out = append(out, s)
		}
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
	d, ok := newFastLine(line)
	if !ok {
		return nil, false
	}
	m := &shared.AssistantMessage{Raw: line}
	ok = eachField(d.root, assistantFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			return d.apiMessage(v, &m.Message)
		case 1:
			return setStrPtr(v, &m.ParentToolUseID)
		case 2:
			return setStr(v, &m.SessionID)
		default:
			return setStr(v, &m.UUID)
		}
	})
	return m, ok
}

func (d *fastLine) apiMessage(v gjson.Result, m *shared.APIMessage) bool {
	if v.Type == gjson.Null {
		return true
	}
	if !v.IsObject() {
		return false
	}
	return eachField(v, apiMessageFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			return setStr(v, &m.ID)
		case 1:
			return setStr(v, &m.Role)
		case 2:
			return setStr(v, &m.Model)
		case 3:
			return d.blocks(v, &m.Content)
		case 4:
			return setStr(v, &m.StopReason)
		default:
			return d.setRaw(v, &m.Usage)
		}
	})
}

// blocks decodes an array of content blocks; a null leaves dst nil, [] makes it empty, not nil.
func (d *fastLine) blocks(v gjson.Result, dst *[]shared.ContentBlock) bool {
	if v.Type == gjson.Null {
		return true
	}
	if !v.IsArray() {
		return false
	}
	out := []shared.ContentBlock{}
	ok := true
	v.ForEach(func(_, e gjson.Result) bool {
		if !e.IsObject() {
			ok = false // a null makes a zero block, anything else fails: let encoding/json say
			return false
		}
		out = append(out, shared.ContentBlock{})
		b := &out[len(out)-1]
		ok = eachField(e, contentFields, func(i int, v gjson.Result) bool {
			switch i {
			case 0:
				return setStr(v, &b.Type)
			case 1:
				return setStr(v, &b.Text)
			case 2:
				return setStr(v, &b.Thinking)
			case 3:
				return setStr(v, &b.ID)
			case 4:
				return setStr(v, &b.Name)
			case 5:
				return d.setRaw(v, &b.Input)
			case 6:
				return setStr(v, &b.ToolUseID)
			case 7:
				return d.setRaw(v, &b.Content)
			default:
				return setBool(v, &b.IsError)
			}
		})
		return ok
	})
	*dst = out
	return ok
}

// fastUser decodes a user line as decodeUser's encoding/json path does, Blocks included.
func fastUser(line []byte) (*shared.UserMessage, bool) {
	d, ok := newFastLine(line)
	if !ok {
		return nil, false
	}
	m := &shared.UserMessage{Raw: line}
	var content gjson.Result // the last message.content decoded
	ok = eachField(d.root, userFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			if v.Type == gjson.Null {
				return true
			}
			if !v.IsObject() {
				return false
			}
			return eachField(v, userMessageFields, func(i int, v gjson.Result) bool {
				if i == 0 {
					return setStr(v, &m.Message.Role)
				}
				content = v
				return d.setRaw(v, &m.Message.Content)
			})
		case 1:
			return setStrPtr(v, &m.ParentToolUseID)
		case 2:
			return setStr(v, &m.SessionID)
		case 3:
			return setStr(v, &m.UUID)
		case 4:
			return d.setRaw(v, &m.ToolUseResult)
		default:
			return setBool(v, &m.IsReplay)
		}
	})
	if ok && content.IsArray() {
		ok = d.blocks(content, &m.Blocks)
	}
	return m, ok
}

// fastResult decodes a result line as json.Unmarshal into a *shared.ResultMessage would.
func fastResult(line []byte) (*shared.ResultMessage, bool) {
	d, ok := newFastLine(line)
	if !ok {
		return nil, false
	}
	m := &shared.ResultMessage{Raw: line}
	ok = eachField(d.root, resultFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			return setStr(v, &m.Subtype)
		case 1:
			return setBool(v, &m.IsError)
		case 2:
			return setStr(v, &m.Result)
		case 3:
			return setStr(v, &m.StopReason)
		case 4:
			return setStr(v, &m.TerminalReason)
		case 5:
			return setInt(v, &m.NumTurns)
		case 6:
			return setInt(v, &m.DurationMS)
		case 7:
			return setInt(v, &m.DurationAPIMS)
		case 8:
			return setFloat(v, &m.TotalCostUSD)
		case 9:
			return setStr(v, &m.SessionID)
		case 10:
			return setStr(v, &m.UUID)
		case 11:
			return d.setRaw(v, &m.Usage)
		case 12:
			return d.setRaw(v, &m.PermissionDenials)
		case 13:
			return d.setRaw(v, &m.DeferredToolUse)
		default:
			return setStrings(v, &m.Errors)
		}
	})
	return m, ok
}

// fastSystem decodes a system line as json.Unmarshal into a *shared.SystemMessage would.
func fastSystem(line []byte) (*shared.SystemMessage, bool) {
	d, ok := newFastLine(line)
	if !ok {
		return nil, false
	}
	m := &shared.SystemMessage{Raw: line}
	ok = eachField(d.root, systemFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			return setStr(v, &m.Subtype)
		case 1:
			return setStr(v, &m.SessionID)
		case 2:
			return setStr(v, &m.UUID)
		case 3:
			return setStr(v, &m.Cwd)
		case 4:
			return setStr(v, &m.Model)
		case 5:
			return setStr(v, &m.PermissionMode)
		case 6:
			return setStrings(v, &m.Tools)
		case 7:
			return setStr(v, &m.Content)
		case 8:
			return setStr(v, &m.Level)
		case 9:
			return setStr(v, &m.Tag)
		case 10:
			return setStr(v, &m.HookID)
		case 11:
			return setStr(v, &m.HookName)
		case 12:
			return setStr(v, &m.HookEvent)
		case 13:
			return setStr(v, &m.Outcome)
		case 14:
			if v.Type == gjson.Null {
				m.ExitCode = nil
				return true
			}
			n := new(int)
			m.ExitCode = n
			return setInt(v, n)
		case 15:
			return setStr(v, &m.Stdout)
		default:
			return setStr(v, &m.Stderr)
		}
	})
	return m, ok
}

// fastStreamEvent decodes a stream_event line as json.Unmarshal into a *shared.StreamEvent would.
func fastStreamEvent(line []byte) (*shared.StreamEvent, bool) {
	d, ok := newFastLine(line)
	if !ok {
		return nil, false
	}
	m := &shared.StreamEvent{Raw: line}
	ok = eachField(d.root, streamEventFields, func(i int, v gjson.Result) bool {
		switch i {
		case 0:
			return d.setRaw(v, &m.Event)
		case 1:
			return setStr(v, &m.SessionID)
		case 2:
			return setStrPtr(v, &m.ParentToolUseID)
		default:
			return setStr(v, &m.UUID)
		}
	})
	return m, ok
}
