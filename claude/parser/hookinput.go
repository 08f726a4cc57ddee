package parser

import (
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// InputError says a hook input cannot be decoded: it is not one JSON object, has duplicate names,
// invalid UTF-8 or nesting deeper than 10000, lacks a field it must have, or has one of the wrong
// type. Reason says which; Event is "" when the event name could not be read.
type InputError struct {
	Event  shared.HookEvent
	Reason string
}

// Error describes the failure.
func (e *InputError) Error() string {
	return "parser: hook input for " + string(e.Event) + ": " + e.Reason
}

// DecodeHookInput decodes a hook input object into its event's type (shared.NewHookInput) with
// JSON v2. It keeps raw in Base().Raw and the fields the type has no place for in Base().Extra,
// both parts of raw, not copies. An input without a hook_event_name string, or with a field of
// the wrong type, is an *InputError, and so is one with duplicate names (at any depth), invalid
// UTF-8 or nesting deeper than 10000. An unknown event name decodes into a
// *shared.GenericHookInput.
func DecodeHookInput(raw []byte) (shared.HookInput, error) {
	all, err := objectMembers(raw)
	if err != nil {
		return nil, &InputError{Reason: err.Error()}
	}
	return decodeHookInput(raw, all)
}

// decodeHookInput decodes raw, whose members (read with JSON v2's checks) are all.
func decodeHookInput(raw []byte, all map[string]jsontext.Value) (shared.HookInput, error) {
	name, err := optString(all, "hook_event_name")
	if err != nil || name == "" {
		return nil, &InputError{Reason: "missing hook_event_name"}
	}
	ev := shared.HookEvent(name)
	in := shared.NewHookInput(ev)
	if err := json.Unmarshal(raw, in); err != nil {
		var se *json.SemanticError
		if errors.As(err, &se) && se.JSONPointer != "" {
			return nil, &InputError{Event: ev, Reason: "field " + strings.TrimPrefix(string(se.JSONPointer), "/") + " has the wrong type: " + se.JSONKind.String()}
		}
		return nil, &InputError{Event: ev, Reason: err.Error()}
	}
	b := in.Base()
	b.Raw = raw
	keepUnknown(&b.Extra, all, knownKeys(reflect.TypeOf(in).Elem()))
	if ev.IsToolEvent() {
		if tc := shared.ToolCall(in); tc != nil && tc.ToolName == "" {
			return nil, &InputError{Event: ev, Reason: "missing tool_name"}
		}
	}
	return in, nil
}

// keepUnknown adds to *extra the members of all whose names are not in known; it leaves *extra nil
// if there are none.
func keepUnknown[V ~[]byte](extra *map[string]V, all map[string]jsontext.Value, known map[string]struct{}) {
	for k, v := range all {
		if _, ok := known[k]; !ok {
			if *extra == nil {
				*extra = make(map[string]V)
			}
			(*extra)[k] = V(v)
		}
	}
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
