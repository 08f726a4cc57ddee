package shared

import (
	"fmt"
	"reflect"
	"sync"
)

// adapterProbe is the input CheckHandlerEvent hands a typed adapter (HandlerFor, OnPreToolUse,
// ...): the adapter answers whether it takes input's type, without calling its handler.
type adapterProbe struct {
	BaseHookInput
	input   HookInput // an input of the event the adapter is registered for
	accepts bool
	want    string // the adapter's input type
}

// MatchValue returns "".
func (*adapterProbe) MatchValue() string { return "" }

// adapterCode is the registration record of typed adapters: the code pointers of the handlers
// HandlerFor has returned (one per instantiation shape and per site the compiler copied
// HandlerFor's closure to), stored as HandlerFor makes them. Only such a handler is given an
// adapterProbe, which it answers without running the user's code; a code pointer of another
// function can never be in it, whatever the compiler inlines.
var adapterCode sync.Map // uintptr -> struct{}

// recordAdapter records h, a handler HandlerFor made, and returns it.
func recordAdapter(h HookHandler) HookHandler {
	adapterCode.LoadOrStore(reflect.ValueOf(h).Pointer(), struct{}{})
	return h
}

// isTypedAdapter reports whether h was made by HandlerFor (or an On... adapter).
func isTypedAdapter(h HookHandler) bool {
	_, ok := adapterCode.Load(reflect.ValueOf(h).Pointer())
	return ok
}

// CheckHandlerEvent returns an *InputTypeError if h is a typed adapter (HandlerFor, OnPreToolUse,
// OnPostToolUse, ...) whose input type is not the input of event e (NewHookInput): registered
// under e, it would never run its handler, and on an event that guards an action it would deny
// every call. It returns nil for any other handler. Hooks.Validate calls it for every config.
func CheckHandlerEvent(e HookEvent, h HookHandler) error {
	if h == nil || !isTypedAdapter(h) {
		return nil
	}
	p := &adapterProbe{input: NewHookInput(e)}
	if _, err := h(nil, p); err != nil || p.want == "" || p.accepts { //nolint:staticcheck // the probe never reads ctx
		return nil
	}
	return &InputTypeError{Want: p.want, Got: p.input, Event: e}
}

// answerProbe fills p for an adapter of input type T.
func answerProbe[T HookInput](p *adapterProbe) {
	_, p.accepts = p.input.(T)
	var zero T
	p.want = fmt.Sprintf("%T", zero)
	if p.want == "<nil>" { // an interface type
		p.want = reflect.TypeFor[T]().String()
	}
}
