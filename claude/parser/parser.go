// Package parser turns one line of the CLI's stdout into a typed message. It is pure: no I/O, no
// goroutines, safe for concurrent use, and fuzzed.
//
// Lines are peeked for their type (and, where it matters, their subtype) and then decoded by the
// decoder registered for that type. The CLI's usual lines (stream messages, PreToolUse and
// PostToolUse hook requests) are validated and decoded in one pass (scan.go); the others are
// validated with gjson first. A type nobody registered comes through as a *shared.RawMessage, not an
// error, so that a newer CLI does not break old code.
package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// ErrNotJSON says a line is not a JSON object. The transport counts and skips such lines.
var ErrNotJSON = errors.New("parser: line is not a JSON object")

// DecodeError says a line is JSON but does not fit its type's shape.
type DecodeError struct {
	Type    string
	Subtype string
	Err     error
}

// Error describes the failure.
func (e *DecodeError) Error() string {
	if e.Subtype != "" {
		return fmt.Sprintf("parser: decoding %s/%s: %v", e.Type, e.Subtype, e.Err)
	}
	return fmt.Sprintf("parser: decoding %s: %v", e.Type, e.Err)
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decoder decodes one line whose type (and subtype) it was registered for. line is the whole line;
// the decoder may keep it (lines are never reused by the transport).
type Decoder func(line []byte) (shared.Message, error)

// The registry is an immutable snapshot behind an atomic pointer: Parse reads it without a lock
// (a hook request is decoded with cold caches, where each lock and map look-up costs), and Register
// replaces it under mu.
var (
	mu  sync.Mutex // serialises Register
	reg atomic.Pointer[registry]
)

// registry is one snapshot of the registrations.
type registry struct {
	entries map[regKey]regEntry
	// subtyped counts, per type, the decoders registered for one of its subtypes: a line of a type
	// without any is decoded without looking for its subtype.
	subtyped map[string]int
	// hot is entries[{t, ""}] and subtyped[t] > 0 for each t of hotTypes, found without a map.
	hot [len(hotTypes)]typeEntry
}

// typeEntry is what Parse needs of a type: its decoder, and whether any subtype has one.
type typeEntry struct {
	e         regEntry
	bySubtype bool
}

// hotTypes are the types of the lines the CLI writes most; hotType finds them without a map.
var hotTypes = [...]string{"assistant", "user", "system", "result", "stream_event", "control_request", "control_response", "control_cancel_request"}

// hotType returns the index in hotTypes of the type b, or -1.
func hotType(b []byte) int {
	switch string(b) {
	case "assistant":
		return 0
	case "user":
		return 1
	case "system":
		return 2
	case "result":
		return 3
	case "stream_event":
		return 4
	case "control_request":
		return 5
	case "control_response":
		return 6
	case "control_cancel_request":
		return 7
	}
	return -1
}

// typeOf returns the value of the line's (first) "type" key as gjson finds it, and its index in
// hotTypes (or -1). The CLI writes "type" first: a line that starts with {"type":"<plain string>"
// is read without gjson.
func typeOf(line []byte) (string, int) {
	const prefix = `{"type":"`
	if rest, ok := bytes.CutPrefix(line, []byte(prefix)); ok {
		if end := bytes.IndexByte(rest, '"'); end >= 0 && bytes.IndexByte(rest[:end], '\\') < 0 {
			if h := hotType(rest[:end]); h >= 0 {
				return hotTypes[h], h
			}
			return string(rest[:end]), -1
		}
	}
	typ := gjson.GetBytes(line, "type").String()
	return typ, hotType([]byte(typ))
}

// update replaces the snapshot with one that change modified; mu is held.
func update(change func(r *registry)) {
	r := &registry{entries: map[regKey]regEntry{}, subtyped: map[string]int{}}
	if old := reg.Load(); old != nil {
		r.entries, r.subtyped = maps.Clone(old.entries), maps.Clone(old.subtyped)
	}
	change(r)
	for i, t := range hotTypes {
		r.hot[i] = typeEntry{r.entries[regKey{t, ""}], r.subtyped[t] > 0}
	}
	reg.Store(r)
}

// regKey is a registration: a type, and a subtype or "". (A struct, not "type/subtype", so that a
// type containing '/' cannot collide with a type and subtype pair.)
type regKey struct{ typ, subtype string }

// regEntry is a registered decoder. fast is set for the built-in decoders of the stream's messages
// and of hook callbacks only: a decoder that validates the line as it reads it, which Parse calls
// before validating.
type regEntry struct {
	dec  Decoder
	fast func(line []byte) (shared.Message, bool)
}

// Register installs dec for lines of type typ, or, when subtype is not "", for that type and subtype
// only. A subtype decoder wins over the type's. The subtype of a control_request line is its
// request's subtype (hook_callback, can_use_tool, mcp_message, ...); for every other type it is the
// line's own "subtype". Registering again replaces; a nil dec removes the registration. Safe for
// concurrent use.
func Register(typ, subtype string, dec Decoder) {
	register(typ, subtype, regEntry{dec: dec})
}

// register is Register with a fast decoder (built-in decoders only).
func register(typ, subtype string, e regEntry) {
	mu.Lock()
	defer mu.Unlock()
	update(func(r *registry) {
		k := regKey{typ, subtype}
		if _, had := r.entries[k]; had && subtype != "" {
			r.subtyped[typ]--
		}
		if e.dec == nil {
			delete(r.entries, k)
			return
		}
		r.entries[k] = e
		if subtype != "" {
			r.subtyped[typ]++
		}
	})
}

func lookup(typ, subtype string) Decoder {
	r := reg.Load()
	if subtype != "" {
		if e, ok := r.entries[regKey{typ, subtype}]; ok {
			return e.dec
		}
	}
	return r.entries[regKey{typ, ""}].dec
}

// Parse decodes one line (without its newline). It returns ErrNotJSON for a line that is not a JSON
// object, a *DecodeError for a known type with a wrong shape (or a decoder that fails or returns no
// message), and a *shared.RawMessage for an unknown type. It returns a message or an error, never
// both and never neither.
func Parse(line []byte) (shared.Message, error) {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, ErrNotJSON
	}
	// On a line that is not valid JSON typeOf returns something or nothing, without failing; such
	// a line gets no further than the fast decoders or ValidBytes below.
	typ, hot := typeOf(line)
	// The subtype is looked for (through the whole line, when it has none, as assistant and user
	// lines) only when it matters: a decoder registered for a subtype of typ, none for typ itself,
	// and the errors.
	r := reg.Load()
	var te typeEntry
	if hot >= 0 {
		te = r.hot[hot]
	} else {
		te = typeEntry{r.entries[regKey{typ, ""}], r.subtyped[typ] > 0}
	}
	e, bySubtype := te.e, te.bySubtype
	if e.fast != nil && !bySubtype {
		// It validates the line as it decodes it (fastmsg.go).
		if m, ok := e.fast(line); ok {
			return m, nil
		}
	}
	if !gjson.ValidBytes(line) {
		return nil, ErrNotJSON
	}
	dec := e.dec
	subtype, subtypeKnown := "", false
	if bySubtype || dec == nil {
		subtype, subtypeKnown = peekSubtype(line, typ), true
		dec = lookup(typ, subtype)
	}
	if dec == nil {
		return &shared.RawMessage{MessageType: typ, Subtype: subtype, Raw: json.RawMessage(line)}, nil
	}
	m, err := dec(line)
	if err == nil && m != nil {
		return m, nil
	}
	if !subtypeKnown {
		subtype = peekSubtype(line, typ)
	}
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, &DecodeError{Type: typ, Subtype: subtype, Err: err}
	}
	return nil, &DecodeError{Type: typ, Subtype: subtype, Err: errors.New("decoder returned no message")}
}

// peekSubtype returns the subtype of a line of type typ (see Register).
func peekSubtype(line []byte, typ string) string {
	subtype := gjson.GetBytes(line, "subtype").String()
	if typ == "control_request" && subtype == "" {
		subtype = gjson.GetBytes(line, "request.subtype").String()
	}
	return subtype
}

func init() {
	register("system", "", streamEntry(fastSystem, generalSystem))
	register("assistant", "", streamEntry(fastAssistant, generalAssistant))
	register("user", "", streamEntry(fastUser, generalUser))
	register("result", "", streamEntry(fastResult, generalResult))
	register("stream_event", "", streamEntry(fastStreamEvent, generalStreamEvent))
	register("control_request", "", regEntry{dec: decodeControlRequest, fast: fastControlRequest})
	Register("control_response", "", decodeControlResponse)
	Register("control_cancel_request", "", decodeControlCancel)
	Register("hook_event", "", decodeHookEvent)
	Register("hook_response", "", decodeHookResponse)
}

// streamEntry is the registration of a stream message type. Its fast decoder (fastmsg.go) is what
// Parse calls first, before validating the line; its Decoder takes the same fast path and falls
// back to encoding/json (general) where it cannot be sure to decode alike, and runs when the fast
// decoder refused the line, or when a decoder is registered for a subtype of the type.
func streamEntry[T shared.Message](fast func([]byte) (T, bool), general func([]byte) (T, error)) regEntry {
	return regEntry{
		fast: func(line []byte) (shared.Message, bool) {
			m, ok := fast(line)
			return m, ok
		},
		dec: func(line []byte) (shared.Message, error) {
			if m, ok := fast(line); ok {
				return m, nil
			}
			m, err := general(line)
			return m, err
		},
	}
}

func generalSystem(line []byte) (*shared.SystemMessage, error) {
	m := &shared.SystemMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func generalAssistant(line []byte) (*shared.AssistantMessage, error) {
	m := &shared.AssistantMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func generalUser(line []byte) (*shared.UserMessage, error) {
	m := &shared.UserMessage{Raw: line}
	if err := json.Unmarshal(line, m); err != nil {
		return nil, err
	}
	if c := m.Message.Content; len(c) > 0 && c[0] == '[' {
		if err := json.Unmarshal(c, &m.Blocks); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func generalResult(line []byte) (*shared.ResultMessage, error) {
	m := &shared.ResultMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func generalStreamEvent(line []byte) (*shared.StreamEvent, error) {
	m := &shared.StreamEvent{Raw: line}
	return m, json.Unmarshal(line, m)
}

func decodeControlResponse(line []byte) (shared.Message, error) {
	r := gjson.GetBytes(line, "response")
	if !r.IsObject() {
		return nil, errors.New("missing response object")
	}
	m := &shared.ControlResponse{
		RequestID: r.Get("request_id").String(),
		Subtype:   r.Get("subtype").String(),
		Error:     r.Get("error").String(),
		ErrorCode: r.Get("error_code").String(),
		Raw:       line,
	}
	if resp := r.Get("response"); resp.Exists() {
		m.Response = json.RawMessage(resp.Raw)
	}
	return m, nil
}

func decodeControlCancel(line []byte) (shared.Message, error) {
	id := gjson.GetBytes(line, "request_id")
	if id.Type != gjson.String {
		return nil, errors.New("missing request_id")
	}
	return &shared.ControlCancelRequest{RequestID: id.Str, Raw: line}, nil
}

// decodeHookEvent reads the spec framing: the input's fields sit at the top level of the line, next
// to "type" (and an optional "request_id" or "id").
func decodeHookEvent(line []byte) (shared.Message, error) {
	s := string(line)
	input, err := decodeHookInput(line, s)
	if err != nil {
		return nil, err
	}
	root := gjson.Parse(s)
	m := &shared.HookEventMessage{
		RequestID: root.Get("request_id").String(),
		ToolUseID: root.Get("tool_use_id").String(),
		Input:     input,
		Raw:       line,
	}
	if m.RequestID == "" {
		m.RequestID = root.Get("id").String()
	}
	// type, request_id and id belong to the framing, not to the input; so does tool_use_id for an
	// event that has no such field (it is then only in Extra).
	if b := input.Base(); b.Extra != nil {
		for _, k := range []string{"type", "request_id", "id", "tool_use_id"} {
			delete(b.Extra, k)
		}
		if len(b.Extra) == 0 {
			b.Extra = nil
		}
	}
	return m, nil
}

func decodeHookResponse(line []byte) (shared.Message, error) {
	root := gjson.Parse(string(line))
	return &shared.HookResponseMessage{
		RequestID:     root.Get("request_id").String(),
		ToolUseID:     root.Get("tool_use_id").String(),
		HookEventName: shared.HookEvent(root.Get("hook_event_name").String()),
		Output:        line,
		Raw:           line,
	}, nil
}

// rawBytes returns r's raw bytes as a sub-slice of src, the JSON r was read from, without copying
// them; it copies only when gjson did not record where r is. The slice's capacity ends with it, so
// an append cannot write into src.
func rawBytes(src []byte, r gjson.Result) []byte {
	i, j := r.Index, r.Index+len(r.Raw)
	if r.Index > 0 && j <= len(src) && string(src[i:j]) == r.Raw {
		return src[i:j:j]
	}
	return []byte(r.Raw)
}
