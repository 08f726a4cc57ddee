package shared

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
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

// handlerForName is the name of the function values HandlerFor returns, as the runtime knows them.
var handlerForName = runtime.FuncForPC(reflect.ValueOf(HandlerFor[HookInput](nil)).Pointer()).Name()

// isTypedAdapter reports whether h was made by HandlerFor (or an On... adapter): only such a
// handler is given an adapterProbe, which it answers without running the user's code. HandlerFor
// is not inlined, so its closures are named "<package>.HandlerFor[...].funcN" wherever it is
// called.
func isTypedAdapter(h HookHandler) bool {
	f := runtime.FuncForPC(reflect.ValueOf(h).Pointer())
	if f == nil {
		return false
	}
	prefix, _, ok := strings.Cut(handlerForName, "[")
	return ok && strings.HasSuffix(prefix, ".HandlerFor") && strings.HasPrefix(f.Name(), prefix+"[")
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
