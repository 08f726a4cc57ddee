// Package parser turns one line of the CLI's stdout into a typed message. It is pure: no I/O, no
// goroutines, safe for concurrent use, and fuzzed.
//
// Lines are peeked with gjson (type and subtype) and then decoded by the decoder registered for that
// type. A type nobody registered comes through as a *shared.RawMessage, not an error, so that a newer
// CLI does not break old code.
package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

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

var (
	mu       sync.RWMutex
	registry = map[regKey]regEntry{}
	// subtyped counts, per type, the decoders registered for one of its subtypes: a line of a type
	// without any is decoded without looking for its subtype.
	subtyped = map[string]int{}
)

// regKey is a registration: a type, and a subtype or "". (A struct, not "type/subtype", so that a
// type containing '/' cannot collide with a type and subtype pair.)
type regKey struct{ typ, subtype string }

// regEntry is a registered decoder. fast is set for the built-in decoders of the stream's messages
// only: a decoder that validates the line as it reads it, which Parse calls before validating.
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
	mu.Lock()
	defer mu.Unlock()
	k := regKey{typ, subtype}
	if _, had := registry[k]; had && subtype != "" {
		subtyped[typ]--
	}
	if dec == nil {
		delete(registry, k)
		return
	}
	registry[k] = regEntry{dec: dec}
	if subtype != "" {
		subtyped[typ]++
	}
}

func lookup(typ, subtype string) Decoder {
	mu.RLock()
	defer mu.RUnlock()
	if subtype != "" {
		if e, ok := registry[regKey{typ, subtype}]; ok {
			return e.dec
		}
	}
	return registry[regKey{typ, ""}].dec
}

// Parse decodes one line (without its newline). It returns ErrNotJSON for a line that is not a JSON
// object, a *DecodeError for a known type with a wrong shape (or a decoder that fails or returns no
// message), and a *shared.RawMessage for an unknown type. It returns a message or an error, never
// both and never neither.
func Parse(line []byte) (shared.Message, error) {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, ErrNotJSON
	}
	// GetBytes copies only the values it returns, not the line (ParseBytes would copy the line).
	// On a line that is not valid JSON it returns something or nothing, without failing; such a
	// line gets no further than ValidBytes below.
	typ := gjson.GetBytes(line, "type").String()
	// The subtype is looked for (through the whole line, when it has none, as assistant and user
	// lines) only when it matters: a decoder registered for a subtype of typ, none for typ itself,
	// and the errors.
	mu.RLock()
	e, bySubtype := registry[regKey{typ, ""}], subtyped[typ] > 0
	mu.RUnlock()
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
	Register("system", "", decodeSystem)
	Register("assistant", "", decodeAssistant)
	Register("user", "", decodeUser)
	Register("result", "", decodeResult)
	Register("stream_event", "", decodeStreamEvent)
	for typ, fast := range map[string]func([]byte) (shared.Message, bool){
		"system":       asMessage(fastSystem),
		"assistant":    asMessage(fastAssistant),
		"user":         asMessage(fastUser),
		"result":       asMessage(fastResult),
		"stream_event": asMessage(fastStreamEvent),
	} {
		registry[regKey{typ, ""}] = regEntry{dec: registry[regKey{typ, ""}].dec, fast: fast}
	}
	Register("control_request", "", decodeControlRequest)
	registry[regKey{"control_request", ""}] = regEntry{dec: decodeControlRequest, fast: fastControlRequest}
	Register("control_response", "", decodeControlResponse)
	Register("control_cancel_request", "", decodeControlCancel)
	Register("hook_event", "", decodeHookEvent)
	Register("hook_response", "", decodeHookResponse)
}

// decodeSystem, decodeAssistant, decodeUser, decodeResult and decodeStreamEvent take the fast path
// (fastmsg.go) and fall back to encoding/json where it cannot be sure to decode alike. Parse calls
// the fast decoder itself first (regEntry.fast), before validating the line; these run when it
// refused the line, or when a decoder is registered for a subtype of the type.

// asMessage adapts a fast decoder to regEntry.fast.
func asMessage[T shared.Message](fast func([]byte) (T, bool)) func([]byte) (shared.Message, bool) {
	return func(line []byte) (shared.Message, bool) {
		m, ok := fast(line)
		return m, ok
	}
}

func decodeSystem(line []byte) (shared.Message, error) {
	if m, ok := fastSystem(line); ok {
		return m, nil
	}
	return generalSystem(line)
}

func generalSystem(line []byte) (*shared.SystemMessage, error) {
	m := &shared.SystemMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func decodeAssistant(line []byte) (shared.Message, error) {
	if m, ok := fastAssistant(line); ok {
		return m, nil
	}
	return generalAssistant(line)
}

func generalAssistant(line []byte) (*shared.AssistantMessage, error) {
	m := &shared.AssistantMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func decodeUser(line []byte) (shared.Message, error) {
	if m, ok := fastUser(line); ok {
		return m, nil
	}
	return generalUser(line)
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

func decodeResult(line []byte) (shared.Message, error) {
	if m, ok := fastResult(line); ok {
		return m, nil
	}
	return generalResult(line)
}

func generalResult(line []byte) (*shared.ResultMessage, error) {
	m := &shared.ResultMessage{Raw: line}
	return m, json.Unmarshal(line, m)
}

func decodeStreamEvent(line []byte) (shared.Message, error) {
	if m, ok := fastStreamEvent(line); ok {
		return m, nil
	}
	return generalStreamEvent(line)
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
