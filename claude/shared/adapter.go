package shared

import (
	"context"
	"fmt"
	"reflect"
)

// typedHandler is the HookHandler of a typed adapter (HandlerFor, OnPreToolUse, ...): a handler
// of inputs of type T. Its type carries T, so that CheckHandlerEvent asks it, without running it,
// whether it takes an event's input.
type typedHandler[T HookInput] func(context.Context, T) (HookOutput, error)

// Handle calls the handler with input as a T, or returns an *InputTypeError when input is not
// one (the adapter was registered under another event).
func (f typedHandler[T]) Handle(ctx context.Context, input HookInput) (HookOutput, error) {
	t, ok := input.(T)
	if !ok {
		var ev HookEvent
		if input != nil {
			ev = input.Base().HookEventName
		}
		return nil, &InputTypeError{Want: f.inputType(), Got: input, Event: ev}
	}
	return f(ctx, t)
}

// takes reports whether the handler takes input.
func (typedHandler[T]) takes(input HookInput) bool {
	_, ok := input.(T)
	return ok
}

// inputType names T, for an *InputTypeError.
func (typedHandler[T]) inputType() string {
	var zero T
	if s := fmt.Sprintf("%T", zero); s != "<nil>" {
		return s
	}
	return reflect.TypeFor[T]().String() // an interface type: named for the message only
}

// isNil reports whether the adapter was made of a nil function.
func (f typedHandler[T]) isNil() bool { return f == nil }

// typedInput is what CheckHandlerEvent asks of a typed adapter.
type typedInput interface {
	takes(HookInput) bool
	inputType() string
}

// isNilHandler reports whether h is nil or holds a nil function (a nil HookHandlerFunc, a typed
// adapter of a nil function): registered, it could only panic.
func isNilHandler(h HookHandler) bool {
	switch h := h.(type) {
	case nil:
		return true
	case HookHandlerFunc:
		return h == nil
	case interface{ isNil() bool }:
		return h.isNil()
	}
	return false
}

// CheckHandlerEvent returns an *InputTypeError if h is a typed adapter (HandlerFor, OnPreToolUse,
// OnPostToolUse, ...) whose input type is not the input of event e (NewHookInput): registered
// under e, it would never run its handler, and on an event that guards an action it would deny
// every call. It returns nil for any other handler; it never runs h. Hooks.Validate calls it for
// every config.
func CheckHandlerEvent(e HookEvent, h HookHandler) error {
	t, ok := h.(typedInput)
	if !ok {
		return nil
	}
	in := NewHookInput(e)
	if t.takes(in) {
		return nil
	}
	return &InputTypeError{Want: t.inputType(), Got: in, Event: e}
}
