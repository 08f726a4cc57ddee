package parser

import (
	"bytes"
	"errors"
	"strings"

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
	if decode, ok := inputDecoders[e]; ok {
		return decode(d)
	}
	return decodeAs[shared.GenericHookInput](d)
}

// inputDecoders decodes each event's input into its type (shared.NewHookInput's); an event not in
// it decodes into a *shared.GenericHookInput. A new event adds its row.
var inputDecoders = map[shared.HookEvent]func(*jsontext.Decoder) (shared.HookInput, error){
	shared.HookEventPreToolUse:           decodeAs[shared.PreToolUseHookInput],
	shared.HookEventPostToolUse:          decodeAs[shared.PostToolUseHookInput],
	shared.HookEventPostToolUseFailure:   decodeAs[shared.PostToolUseFailureHookInput],
	shared.HookEventPostToolBatch:        decodeAs[shared.PostToolBatchHookInput],
	shared.HookEventPermissionRequest:    decodeAs[shared.PermissionRequestHookInput],
	shared.HookEventPermissionDenied:     decodeAs[shared.PermissionDeniedHookInput],
	shared.HookEventNotification:         decodeAs[shared.NotificationHookInput],
	shared.HookEventUserPromptSubmit:     decodeAs[shared.UserPromptSubmitHookInput],
	shared.HookEventUserPromptExpansion:  decodeAs[shared.UserPromptExpansionHookInput],
	shared.HookEventSessionStart:         decodeAs[shared.SessionStartHookInput],
	shared.HookEventSessionEnd:           decodeAs[shared.SessionEndHookInput],
	shared.HookEventStop:                 decodeAs[shared.StopHookInput],
	shared.HookEventStopFailure:          decodeAs[shared.StopFailureHookInput],
	shared.HookEventSubagentStart:        decodeAs[shared.SubagentStartHookInput],
	shared.HookEventSubagentStop:         decodeAs[shared.SubagentStopHookInput],
	shared.HookEventPreCompact:           decodeAs[shared.PreCompactHookInput],
	shared.HookEventPostCompact:          decodeAs[shared.PostCompactHookInput],
	shared.HookEventPreModelSwitch:       decodeAs[shared.PreModelSwitchHookInput],
	shared.HookEventPostModelSwitch:      decodeAs[shared.PostModelSwitchHookInput],
	shared.HookEventMessageDisplay:       decodeAs[shared.MessageDisplayHookInput],
	shared.HookEventPreSkillShellCommand: decodeAs[shared.PreSkillShellCommandHookInput],
	shared.HookEventInstructionsLoaded:   decodeAs[shared.InstructionsLoadedHookInput],
	shared.HookEventConfigChange:         decodeAs[shared.ConfigChangeHookInput],
	shared.HookEventFileChanged:          decodeAs[shared.FileChangedHookInput],
	shared.HookEventDirectoryAdded:       decodeAs[shared.DirectoryAddedHookInput],
	shared.HookEventSetup:                decodeAs[shared.SetupHookInput],
	shared.HookEventElicitation:          decodeAs[shared.ElicitationHookInput],
	shared.HookEventElicitationResult:    decodeAs[shared.ElicitationResultHookInput],
}

// withExtra is an input of type T as JSON v2 decodes it with its unknown members in Extra, in the
// same pass.
type withExtra[T any] struct {
	In    *T                        `json:",embed"`
	Extra map[string]jsontext.Value `json:",embed"`
}

// decodeAs decodes the object at d's position into a new *T, with the members T has no field for
// in Extra (nil if none).
func decodeAs[T any, P interface {
	*T
	shared.HookInput
}](d *jsontext.Decoder) (shared.HookInput, error) {
	var w withExtra[T]
	if err := json.UnmarshalDecode(d, &w); err != nil {
		return nil, err
	}
	if w.In == nil {
		// An empty object: JSON v2 allocates an inlined struct only for a member.
		w.In = new(T)
	}
	in := P(w.In)
	in.Base().Extra = w.Extra
	return in, nil
}
