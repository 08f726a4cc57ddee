package parser

import (
	"bytes"
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
// JSON v2. It keeps raw in Base().Raw (a part of raw, not a copy) and the fields the type has no
// place for in Base().Extra. An input without a hook_event_name string, or with a field of the
// wrong type, is an *InputError, and so is one with duplicate names (at any depth), invalid UTF-8
// or nesting deeper than 10000. An unknown event name decodes into a *shared.GenericHookInput.
func DecodeHookInput(raw []byte) (shared.HookInput, error) {
	v := &inputValue{event: shared.HookEvent(Peek(raw).HookEventName)}
	if err := json.Unmarshal(raw, v); err != nil {
		if v.err != nil {
			return nil, v.err
		}
		return nil, &InputError{Reason: err.Error()}
	}
	v.in.Base().Raw = raw
	return v.in, nil
}

// inputValue decodes a hook input object, in the pass that decodes the line it is in, into the
// type of event (as Peek read the event name): the fields the type has no place for go to Extra,
// and the object's bytes, when line is the line being decoded, to Raw.
type inputValue struct {
	event shared.HookEvent
	line  []byte
	in    shared.HookInput
	// err is the *InputError the input could not be decoded with; other errors (the line's
	// syntax) come from the decoder.
	err *InputError
}

// UnmarshalJSONFrom decodes the input at d's position.
func (v *inputValue) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() != '{' {
		return errors.New("the hook input is not an object")
	}
	if v.event == "" {
		v.err = &InputError{Reason: "missing hook_event_name"}
		return v.err
	}
	start, prefix := d.InputOffset(), string(d.StackPointer())
	in, err := decodeInput(d, v.event)
	if err != nil {
		var se *json.SemanticError
		if errors.As(err, &se) && se.JSONPointer != "" && se.ByteOffset >= start {
			field := strings.TrimPrefix(strings.TrimPrefix(string(se.JSONPointer), prefix), "/")
			v.err = &InputError{Event: v.event, Reason: "field " + field + " has the wrong type: " + se.JSONKind.String()}
			return v.err
		}
		return err
	}
	if v.line != nil {
		end := d.InputOffset()
		in.Base().Raw = jsontext.Value(bytes.TrimLeft(v.line[start:end:end], " \t\r\n:"))
	}
	if v.event.IsToolEvent() {
		if tc := shared.ToolCall(in); tc != nil && tc.ToolName == "" {
			v.err = &InputError{Event: v.event, Reason: "missing tool_name"}
			return v.err
		}
	}
	v.in = in
	return nil
}

// decodeInput decodes the object at d's position into a new input of event e, with the members
// its type has no field for in Extra (nil if none).
func decodeInput(d *jsontext.Decoder, e shared.HookEvent) (shared.HookInput, error) {
	w := reflect.New(withExtra(reflect.TypeOf(shared.NewHookInput(e)))).Elem()
	if err := json.UnmarshalDecode(d, w.Addr().Interface()); err != nil {
		return nil, err
	}
	in, _ := w.Field(0).Interface().(shared.HookInput)
	if w.Field(0).IsNil() {
		// An empty object: JSON v2 allocates an inlined struct only for a member.
		in = shared.NewHookInput(e)
	}
	in.Base().Extra = w.Field(1).Interface().(map[string]jsontext.Value)
	return in, nil
}

var extraTypes sync.Map // input type -> its withExtra type

// withExtra returns, for t (a pointer to an input struct), the type
//
//	struct {
//		In    t                         `json:",embed"`
//		Extra map[string]jsontext.Value `json:",embed"`
//	}
//
// which JSON v2 decodes as t with its unknown members in Extra, in the same pass.
func withExtra(t reflect.Type) reflect.Type {
	if w, ok := extraTypes.Load(t); ok {
		return w.(reflect.Type)
	}
	w := reflect.StructOf([]reflect.StructField{
		{Name: "In", Type: t, Tag: `json:",embed"`},
		{Name: "Extra", Type: reflect.TypeFor[map[string]jsontext.Value](), Tag: `json:",embed"`},
	})
	extraTypes.Store(t, w)
	return w
}
