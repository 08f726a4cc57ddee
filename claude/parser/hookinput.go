package parser

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
)

// InputError says a hook input lacks a field it must have, or has one of the wrong type.
type InputError struct {
	Event  shared.HookEvent
	Reason string
}

// Error describes the failure.
func (e *InputError) Error() string {
	return "parser: hook input for " + string(e.Event) + ": " + e.Reason
}

// DecodeHookInput decodes a hook input object into its event's type (shared.NewHookInput). It keeps
// the raw bytes in Base().Raw and the fields the type has no place for in Base().Extra. An input
// without hook_event_name, or with a field of the wrong type, is an error; an unknown event name
// decodes into a *shared.GenericHookInput.
func DecodeHookInput(raw []byte) (shared.HookInput, error) {
	return decodeHookInput(raw, string(raw))
}

// decodeValidHookInput is decodeHookInput for an input known to be valid JSON (a part of a line
// Parse validated): the inputs of the tool events every hooked tool call has take a fast path.
func decodeValidHookInput(raw []byte, rawStr string) (shared.HookInput, error) {
	if name := gjson.Get(rawStr, "hook_event_name"); name.Type == gjson.String {
		switch ev := shared.HookEvent(name.Str); ev {
		case shared.HookEventPreToolUse, shared.HookEventPostToolUse:
			if in, ok := fastToolInput(ev, raw, rawStr); ok {
				return in, nil
			}
		}
	}
	return decodeHookInput(raw, rawStr)
}

// decodeHookInput is DecodeHookInput with raw also as a string, so that a caller that has both
// (the control_request decoder) does not copy a large input again.
func decodeHookInput(raw []byte, rawStr string) (shared.HookInput, error) {
	name := gjson.Get(rawStr, "hook_event_name")
	if name.Type != gjson.String || name.Str == "" {
		return nil, &InputError{Reason: "missing hook_event_name"}
	}
	ev := shared.HookEvent(name.Str)
	in := shared.NewHookInput(ev)
	if err := json.Unmarshal(raw, in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, &InputError{Event: ev, Reason: "field " + te.Field + " has the wrong type: " + te.Value}
		}
		return nil, &InputError{Event: ev, Reason: err.Error()}
	}
	b := in.Base()
	// encoding/json keeps the last of duplicate keys and gjson the first: make the name agree with
	// the type chosen, so that dispatching on HookEventName always finds this type.
	b.HookEventName = ev
	b.Raw = raw
	known := knownKeys(reflect.TypeOf(in).Elem())
	gjson.Parse(rawStr).ForEach(func(k, v gjson.Result) bool {
		if _, ok := known[k.Str]; !ok {
			if b.Extra == nil {
				b.Extra = make(map[string]json.RawMessage)
			}
			b.Extra[k.Str] = json.RawMessage(rawBytes(raw, v))
		}
		return true
	})
	if ev.IsToolEvent() {
		if tc := shared.ToolCall(in); tc != nil && tc.ToolName == "" {
			return nil, &InputError{Event: ev, Reason: "missing tool_name"}
		}
	}
	return in, nil
}

var keyCache sync.Map // reflect.Type -> map[string]struct{}

// knownKeys returns the JSON names of t's fields, embedded structs included.
func knownKeys(t reflect.Type) map[string]struct{} {
	if v, ok := keyCache.Load(t); ok {
		return v.(map[string]struct{})
	}
	m := map[string]struct{}{}
	collectKeys(t, m)
	keyCache.Store(t, m)
	return m
}

func collectKeys(t reflect.Type, m map[string]struct{}) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				collectKeys(ft, m)
				continue
			}
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = struct{}{}
	}
}
