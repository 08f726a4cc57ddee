package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Every hooked tool call brings a PreToolUse and a PostToolUse hook_callback, and the CLI leaves
// milliseconds between them, so the SDK decodes each with cold caches: there, what costs is how
// much code and data a decode touches, not how many bytes it reads. Parse used to find the type
// (gjson), validate the line (gjson), then decodeControlRequest walked the line and the request
// (gjson), looked up the event name (gjson) and walked the input (gjson, fastinput.go): five
// passes through as many pieces of code, 40 µs p50 cold against the real CLI for a 600-byte
// line (docs/PERFORMANCE.md, "step by step"). fastControlRequest does it all in one pass of the scanner the stream's messages use
// (scan.go), and decodes exactly as decodeControlRequest does wherever it takes the line;
// anything else (other subtypes and events, escapes or non-ASCII in a base field, a null or a
// value of an unexpected type, a repeated or case-folded key, deep nesting) it leaves to
// decodeControlRequest, after Parse has validated the line. FuzzFastControlRequest checks both.

var (
	controlLineFields    = newFieldTable("type", "request_id", "request")
	controlRequestFields = newFieldTable("subtype", "callback_id", "tool_use_id", "input")
	// toolInputFields: every key of PostToolUse's input (fastKeyNames); a PreToolUse input's
	// tool_response and duration_ms, which its type has no field for, go to Extra at the end.
	toolInputFields = newFieldTable(fastKeyNames[:]...)
)

// fastControlRequest decodes a control_request line with a hook_callback of a PreToolUse or
// PostToolUse event (see above); ok is false when decodeControlRequest must decide.
func fastControlRequest(line []byte) (shared.Message, bool) {
	// Other requests (can_use_tool, whose input may be megabytes) are neither copied nor scanned.
	// (Only a filter, which the CLI's order of keys makes quick: the scan decides.)
	if !bytes.Contains(line, []byte(`"hook_callback"`)) {
		return nil, false
	}
	var s scan
	s.init(line)
	if s.failed {
		return nil, false
	}
	// One copy of the line: every plain string below is a substring of it.
	ls := string(line)
	var (
		typ, id, subtype, callbackID, toolUseID string
		reqStart, reqEnd                        int
		u                                       toolInputScan
	)
	ok := s.object(controlLineFields, func(i int) bool {
		switch i {
		case 0:
			return s.plainStr(ls, &typ)
		case 1:
			return s.plainStr(ls, &id)
		default:
			reqStart = s.i
			ok := s.object(controlRequestFields, func(i int) bool {
				switch i {
				case 0:
					// Another subtype ends the scan here.
					return s.plainStr(ls, &subtype) && subtype == "hook_callback"
				case 1:
					return s.plainStr(ls, &callbackID)
				case 2:
					return s.plainStr(ls, &toolUseID)
				default:
					return u.decode(&s, ls)
				}
			})
			reqEnd = s.i
			return ok
		}
	})
	if !ok || !s.end() || typ != "control_request" || id == "" || subtype != "hook_callback" || !u.seen {
		return nil, false
	}
	m, cb, ok := u.request(line)
	if !ok {
		return nil, false
	}
	*m = shared.ControlRequest{RequestID: id, Subtype: "hook_callback", Request: json.RawMessage(line[reqStart:reqEnd:reqEnd]), Raw: line, HookCallback: cb}
	cb.CallbackID, cb.ToolUseID = callbackID, toolUseID
	if tc := shared.ToolCall(cb.Input); tc.ToolUseID == "" {
		tc.ToolUseID = toolUseID
	}
	return m, true
}

// toolInputScan is a PreToolUse or PostToolUse input as the scanner reads it, before its event
// (which may come after any other field) says which type it is.
type toolInputScan struct {
	seen       bool // the input was read
	start, end int  // its span in the line
	base       shared.BaseHookInput
	event      string
	tc         shared.ToolCallFields
	effort     shared.Effort
	hasEffort  bool
	// The spans of tool_response and duration_ms (end 0: absent): fields of PostToolUse, Extra of
	// PreToolUse.
	respStart, respEnd int
	durStart, durEnd   int
}

// decode reads the input object at the cursor.
func (u *toolInputScan) decode(s *scan, ls string) bool {
	u.seen, u.start = true, s.i
	b := &u.base
	ok := s.objectWith(toolInputFields, func(f int) bool {
		switch f {
		case fSessionID:
			return s.plainStr(ls, &b.SessionID)
		case fTranscriptPath:
			return s.plainStr(ls, &b.TranscriptPath)
		case fCwd:
			return s.plainStr(ls, &b.Cwd)
		case fPermissionMode:
			return s.plainStr(ls, &b.PermissionMode)
		case fHookEventName:
			return s.peek() == '"' && s.plainStr(ls, &u.event)
		case fPromptID:
			return s.plainStr(ls, &b.PromptID)
		case fAgentID:
			return s.plainStr(ls, &b.AgentID)
		case fAgentType:
			return s.plainStr(ls, &b.AgentType)
		case fEffort:
			u.hasEffort = true
			return s.effort(ls, &u.effort)
		case fToolName:
			return s.plainStr(ls, &u.tc.ToolName)
		case fToolUseID:
			return s.plainStr(ls, &u.tc.ToolUseID)
		case fToolInput:
			if s.peek() != '{' {
				return false // null: encoding/json's way with a nil map is its own
			}
			m, ok := s.anyObject(ls, 0)
			u.tc.ToolInput = m
			return ok
		case fMCPServer:
			if s.peek() != '{' {
				return false
			}
			start, end := s.skip()
			u.tc.MCPServer = new(shared.MCPServer)
			return !s.failed && json.Unmarshal(s.b[start:end], u.tc.MCPServer) == nil
		case fToolResponse:
			u.respStart, u.respEnd = s.skip()
			return !s.failed
		default: // fDurationMS
			u.durStart, u.durEnd = s.skip()
			return !s.failed
		}
	}, func(key []byte) bool {
		start, end := s.skip()
		if s.failed {
			return false
		}
		if b.Extra == nil {
			b.Extra = make(map[string]json.RawMessage)
		}
		b.Extra[string(key)] = json.RawMessage(s.b[start:end:end])
		return true
	})
	u.end = s.i
	return ok
}

// request allocates the control request, its hook callback and the hook input of the event read
// (made as decodeValidHookInput would) in one piece, the callback's Input set; ok is false for
// another event or where the general decoder must decide.
func (u *toolInputScan) request(line []byte) (m *shared.ControlRequest, cb *shared.HookCallback, ok bool) {
	if u.tc.ToolName == "" {
		return nil, nil, false
	}
	var effort *shared.Effort
	var post *shared.PostToolUseHookInput
	switch shared.HookEvent(u.event) {
	case shared.HookEventPreToolUse:
		m, cb, _, effort = newRequest[shared.PreToolUseHookInput]()
	case shared.HookEventPostToolUse:
		m, cb, post, effort = newRequest[shared.PostToolUseHookInput]()
	default:
		return nil, nil, false
	}
	b, tc := cb.Input.Base(), shared.ToolCall(cb.Input)
	*b, *tc = u.base, u.tc
	if post != nil {
		if !u.postFields(line, post) {
			return nil, nil, false
		}
	} else {
		// Keys a PreToolUse input has no field for.
		for _, x := range [...]struct {
			key        string
			start, end int
		}{{"tool_response", u.respStart, u.respEnd}, {"duration_ms", u.durStart, u.durEnd}} {
			if x.end > 0 {
				if b.Extra == nil {
					b.Extra = make(map[string]json.RawMessage)
				}
				b.Extra[x.key] = json.RawMessage(line[x.start:x.end:x.end])
			}
		}
	}
	if u.hasEffort {
		*effort = u.effort
		b.Effort = effort
	}
	b.HookEventName = shared.HookEvent(u.event)
	b.Raw = json.RawMessage(line[u.start:u.end:u.end])
	return m, cb, true
}

// postFields sets PostToolUse's own fields, tool_response and duration_ms, as encoding/json
// would; false where it must decide.
func (u *toolInputScan) postFields(line []byte, in *shared.PostToolUseHookInput) bool {
	if u.respEnd > 0 {
		resp := line[u.respStart:u.respEnd:u.respEnd]
		if string(resp) == "null" {
			return false // encoding/json's way with a null json.RawMessage is its own
		}
		in.ToolResponse = json.RawMessage(resp)
	}
	if u.durEnd > 0 {
		lit := line[u.durStart:u.durEnd]
		if string(lit) == "null" {
			return true
		}
		if c := lit[0]; c != '-' && (c < '0' || c > '9') {
			return false
		}
		n, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil {
			return false
		}
		in.DurationMS = n
	}
	return true
}

// withRequest is a control request, its hook callback and its hook input of type T (with the
// input's effort), allocated together.
type withRequest[T any] struct {
	m      shared.ControlRequest
	cb     shared.HookCallback
	in     T
	effort shared.Effort
}

// newRequest allocates a withRequest[T], the callback's Input set to its input.
func newRequest[T any, P interface {
	*T
	shared.HookInput
}]() (*shared.ControlRequest, *shared.HookCallback, P, *shared.Effort) {
	v := new(withRequest[T])
	v.cb.Input = P(&v.in)
	return &v.m, &v.cb, P(&v.in), &v.effort
}

// plainStr stores the string at the cursor in dst when it is printable ASCII without escapes (the
// strings gjson and encoding/json read alike, as plainString), as a substring of ls, the line as a
// string; a null leaves dst alone. Anything else fails.
func (s *scan) plainStr(ls string, dst *string) bool {
	if s.null() {
		return true
	}
	if s.peek() != '"' {
		return s.fail()
	}
	start, end := s.i, s.stringEnd(s.i)
	if end < 0 {
		return s.fail()
	}
	for i := start + 1; i < end-1; i++ {
		if c := s.b[i]; c < 0x20 || c >= 0x7f || c == '\\' {
			return s.fail()
		}
	}
	s.i = end
	*dst = ls[start+1 : end-1]
	return true
}

// strIn decodes the string at the cursor as str does, but returns a substring of ls (the line as
// a string) when it has no escape.
func (s *scan) strIn(ls string) (string, bool) {
	if s.peek() != '"' {
		return "", s.fail()
	}
	start, end := s.i, s.stringEnd(s.i)
	if end < 0 {
		return "", s.fail()
	}
	s.i = end
	body := s.b[start+1 : end-1]
	for i, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			if !utf8.Valid(body[i:]) {
				return "", s.fail()
			}
			if bytes.IndexByte(body[i:], '\\') >= 0 {
				return s.unescape(body)
			}
			break
		}
	}
	return ls[start+1 : end-1], true
}

// effort decodes {"level":"..."} or {} (the shapes the CLI sends) into e; anything else fails.
func (s *scan) effort(ls string, e *shared.Effort) bool {
	return s.members(ls, func(key string) bool {
		return key == "level" && s.peek() == '"' && s.plainStr(ls, &e.Level)
	})
}

// members calls f with each key of the object at the cursor, the cursor on its value, which f must
// consume. Keys are decoded as strIn decodes strings.
func (s *scan) members(ls string, f func(key string) bool) bool {
	if s.failed || s.peek() != '{' {
		return s.fail()
	}
	s.i++
	for first := true; ; first = false {
		if !s.next('}', first) {
			return !s.failed
		}
		key, ok := s.strIn(ls)
		if !ok {
			return false
		}
		s.ws()
		if s.peek() != ':' {
			return s.fail()
		}
		s.i++
		s.ws()
		if !f(key) || s.failed {
			return s.fail()
		}
	}
}

// anyObject decodes the object at the cursor as encoding/json decodes it into a map[string]any
// (fastObject's rules: objects, arrays, float64 numbers; no \u escape, valid UTF-8, at most
// maxFastDepth levels).
func (s *scan) anyObject(ls string, depth int) (map[string]any, bool) {
	m := map[string]any{}
	ok := s.members(ls, func(key string) bool {
		x, ok := s.anyValue(ls, depth)
		m[key] = x
		return ok
	})
	return m, ok
}

// anyValue decodes the value at the cursor as anyObject does its members; depth is that of the
// object or array it is in.
func (s *scan) anyValue(ls string, depth int) (any, bool) {
	switch c := s.peek(); c {
	case '"':
		return s.strIn(ls)
	case 't', 'f', 'n':
		start, end := s.skip()
		switch string(s.b[start:end]) {
		case "true":
			return true, !s.failed
		case "false":
			return false, !s.failed
		}
		return nil, !s.failed
	case '{', '[':
		if depth >= maxFastDepth {
			return nil, s.fail()
		}
		if c == '{' {
			return s.anyObject(ls, depth+1)
		}
		a := []any{}
		ok := s.array(func() bool {
			x, ok := s.anyValue(ls, depth+1)
			a = append(a, x)
			return ok
		})
		return a, ok
	}
	lit, ok := s.number()
	if !ok {
		return nil, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return nil, s.fail()
	}
	return f, true
}
