package parser

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// The hook inputs of PreToolUse and PostToolUse are on the hot path of every tool call that has
// hooks: the general decoder (decodeHookInput) validates them again, decodes them by reflection and
// walks their keys a second time for Extra. fastToolInput decodes them in the one walk over their
// keys instead, and hands every case it is not sure to decode exactly as the general decoder does
// back to it: a key or string value with escapes or non-ASCII bytes, a key that differs from a known
// one only in case (encoding/json matches keys case-insensitively), a known key twice (encoding/json
// merges a repeated object), a value of an unexpected type, no tool_name. FuzzFastToolInput checks
// that the two agree.

// Field indexes of the keys fastToolInput knows, for the repeated-key check.
const (
	fSessionID = iota
	fTranscriptPath
	fCwd
	fPermissionMode
	fHookEventName
	fPromptID
	fAgentID
	fAgentType
	fEffort
	fToolName
	fToolInput
	fToolUseID
	fMCPServer
	fToolResponse // PostToolUse only
	fDurationMS   // PostToolUse only
	fNone         = -1
)

// fastKeyNames are the keys fastToolInput knows, by field index.
var fastKeyNames = [...]string{
	fSessionID: "session_id", fTranscriptPath: "transcript_path", fCwd: "cwd",
	fPermissionMode: "permission_mode", fHookEventName: "hook_event_name", fPromptID: "prompt_id",
	fAgentID: "agent_id", fAgentType: "agent_type", fEffort: "effort",
	fToolName: "tool_name", fToolInput: "tool_input", fToolUseID: "tool_use_id", fMCPServer: "mcp_server",
	fToolResponse: "tool_response", fDurationMS: "duration_ms",
}

// fastKey returns the field index of a key fastToolInput knows. A switch, not a map: no hashing,
// and no table to bring into the cache of a process that has been idle (TestFastKey checks it
// against fastKeyNames).
func fastKey(name string) (int, bool) {
	switch name {
	case "session_id":
		return fSessionID, true
	case "transcript_path":
		return fTranscriptPath, true
	case "cwd":
		return fCwd, true
	case "permission_mode":
		return fPermissionMode, true
	case "hook_event_name":
		return fHookEventName, true
	case "prompt_id":
		return fPromptID, true
	case "agent_id":
		return fAgentID, true
	case "agent_type":
		return fAgentType, true
	case "effort":
		return fEffort, true
	case "tool_name":
		return fToolName, true
	case "tool_input":
		return fToolInput, true
	case "tool_use_id":
		return fToolUseID, true
	case "mcp_server":
		return fMCPServer, true
	case "tool_response":
		return fToolResponse, true
	case "duration_ms":
		return fDurationMS, true
	}
	return fNone, false
}

// fastToolInput decodes the hook input raw (rawStr is the same bytes; both valid JSON) of a
// PreToolUse or PostToolUse event. ok is false when the general decoder must do it.
func fastToolInput(ev shared.HookEvent, raw []byte, rawStr string) (in shared.HookInput, ok bool) {
	var b *shared.BaseHookInput
	var tc *shared.ToolCallFields
	var post *shared.PostToolUseHookInput
	var effort *shared.Effort // where an effort object goes: allocated with the input
	switch ev {
	case shared.HookEventPreToolUse:
		v := new(struct {
			in     shared.PreToolUseHookInput
			effort shared.Effort
		})
		in, b, tc, effort = &v.in, &v.in.BaseHookInput, &v.in.ToolCallFields, &v.effort
	case shared.HookEventPostToolUse:
		v := new(struct {
			in     shared.PostToolUseHookInput
			effort shared.Effort
		})
		in, b, tc, post, effort = &v.in, &v.in.BaseHookInput, &v.in.ToolCallFields, &v.in, &v.effort
	default:
		return nil, false
	}
	root := gjson.Parse(rawStr)
	if !root.IsObject() {
		return nil, false
	}
	var seen uint32
	ok = true
	root.ForEach(func(k, v gjson.Result) bool {
		name, plain := plainString(k)
		if !plain {
			ok = false
			return false
		}
		f, known := fastKey(name)
		if known && post == nil && (f == fToolResponse || f == fDurationMS) {
			known = false
		}
		if !known {
			if foldsToKnown(name, post != nil) {
				ok = false
				return false
			}
			if b.Extra == nil {
				b.Extra = make(map[string]json.RawMessage)
			}
			b.Extra[name] = json.RawMessage(rawBytes(raw, v))
			return true
		}
		if seen&(1<<f) != 0 {
			ok = false
			return false
		}
		seen |= 1 << f
		ok = fastField(f, v, raw, b, tc, post, effort)
		return ok
	})
	if !ok || tc.ToolName == "" {
		return nil, false
	}
	// As decodeHookInput: the event is the one the caller dispatched on.
	b.HookEventName = ev
	b.Raw = raw
	return in, true
}

// fastField stores the value v of known field f; it reports false when the general decoder must
// decide. An effort object goes into effort.
func fastField(f int, v gjson.Result, raw []byte, b *shared.BaseHookInput, tc *shared.ToolCallFields, post *shared.PostToolUseHookInput, effort *shared.Effort) bool {
	if v.Type == gjson.Null {
		switch f {
		case fEffort, fMCPServer, fToolInput, fToolResponse:
			// encoding/json sets a pointer, map or json.RawMessage... differently for null: ask it.
			return false
		}
		return true // a null leaves a string or a number unset, as encoding/json does
	}
	str := func(dst *string) bool {
		s, ok := plainString(v)
		if ok {
			*dst = s
		}
		return ok
	}
	switch f {
	case fSessionID:
		return str(&b.SessionID)
	case fTranscriptPath:
		return str(&b.TranscriptPath)
	case fCwd:
		return str(&b.Cwd)
	case fPermissionMode:
		return str(&b.PermissionMode)
	case fHookEventName:
		var s string
		return str(&s) // replaced by the event dispatched on
	case fPromptID:
		return str(&b.PromptID)
	case fAgentID:
		return str(&b.AgentID)
	case fAgentType:
		return str(&b.AgentType)
	case fToolName:
		return str(&tc.ToolName)
	case fToolUseID:
		return str(&tc.ToolUseID)
	case fEffort:
		// {"level":"medium"} and {} only; anything else goes to encoding/json.
		if !v.IsObject() {
			return false
		}
		e := effort
		ok := true
		v.ForEach(func(k, lv gjson.Result) bool {
			name, plain := plainString(k)
			if !plain || name != "level" || lv.Type != gjson.String {
				ok = false
				return false
			}
			e.Level, ok = plainString(lv)
			return ok
		})
		b.Effort = e
		return ok
	case fToolInput:
		if !v.IsObject() {
			return false
		}
		if m, ok := fastObject(v, 0); ok {
			tc.ToolInput = m
			return true
		}
		return json.Unmarshal(rawBytes(raw, v), &tc.ToolInput) == nil
	case fMCPServer:
		if !v.IsObject() {
			return false
		}
		tc.MCPServer = new(shared.MCPServer)
		return json.Unmarshal(rawBytes(raw, v), tc.MCPServer) == nil
	case fToolResponse:
		post.ToolResponse = json.RawMessage(rawBytes(raw, v))
		return true
	case fDurationMS:
		if v.Type != gjson.Number {
			return false
		}
		n, err := strconv.ParseInt(v.Raw, 10, 64)
		post.DurationMS = n
		return err == nil
	}
	return false
}

// plainString returns the string r holds if it is a JSON string of printable ASCII without escapes,
// the case where gjson and encoding/json read it alike.
func plainString(r gjson.Result) (string, bool) {
	if r.Type != gjson.String || len(r.Raw) < 2 {
		return "", false
	}
	s := r.Raw[1 : len(r.Raw)-1]
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return "", false
		}
	}
	return s, true
}

// foldsToKnown reports whether name equals a known key but for case: encoding/json would store it
// in that field.
func foldsToKnown(name string, post bool) bool {
	for f, k := range fastKeyNames {
		if !post && (f == fToolResponse || f == fDurationMS) {
			continue
		}
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// maxFastDepth bounds the nesting fastObject decodes; deeper values go to encoding/json.
const maxFastDepth = 32

// fastObject decodes a JSON object as encoding/json decodes it into a map[string]any (objects as
// map[string]any, arrays as []any, numbers as float64), or reports false where they might differ:
// a \u escape, a string that is not valid UTF-8, a number out of float64's range, deep nesting.
func fastObject(r gjson.Result, depth int) (map[string]any, bool) {
	m := map[string]any{}
	ok := true
	r.ForEach(func(k, v gjson.Result) bool {
		var key string
		if key, ok = jsonString(k); !ok {
			return false
		}
		var x any
		if x, ok = fastValue(v, depth); !ok {
			return false
		}
		m[key] = x
		return true
	})
	return m, ok
}

func fastValue(v gjson.Result, depth int) (any, bool) {
	switch v.Type {
	case gjson.String:
		return jsonString(v)
	case gjson.Number:
		f, err := strconv.ParseFloat(v.Raw, 64)
		return f, err == nil
	case gjson.True:
		return true, true
	case gjson.False:
		return false, true
	case gjson.Null:
		return nil, true
	}
	if depth >= maxFastDepth {
		return nil, false
	}
	if v.IsObject() {
		return fastObject(v, depth+1)
	}
	if v.IsArray() {
		a := []any{}
		ok := true
		v.ForEach(func(_, e gjson.Result) bool {
			var x any
			if x, ok = fastValue(e, depth+1); ok {
				a = append(a, x)
			}
			return ok
		})
		return a, ok
	}
	return nil, false
}

// jsonString returns the value of a JSON string (a key or a value) where gjson and encoding/json
// read it alike: valid UTF-8, and no \u escape (the other escapes unescape the same way).
func jsonString(r gjson.Result) (string, bool) {
	if r.Type != gjson.String || strings.Contains(r.Raw, `\u`) || !utf8.ValidString(r.Raw) {
		return "", false
	}
	return r.Str, true
}
