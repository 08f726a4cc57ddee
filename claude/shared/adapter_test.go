package shared_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// CheckHandlerEvent tells a typed adapter registered under another event, without ever running
// the user's handler, and leaves every other handler alone.
func TestCheckHandlerEvent(t *testing.T) {
	called := false
	mark := func() { called = true }
	pre := shared.OnPreToolUse(func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) { mark(); return nil, nil })
	stop := shared.HandlerFor(func(context.Context, *shared.StopHookInput) (shared.HookOutput, error) { mark(); return nil, nil })
	any := shared.HandlerFor(func(context.Context, shared.HookInput) (shared.HookOutput, error) { mark(); return nil, nil })
	untyped := shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { mark(); return nil, nil })
	cases := []struct {
		name    string
		event   shared.HookEvent
		h       shared.HookHandler
		wantErr bool
	}{
		{"PreToolUse adapter under PreToolUse", shared.HookEventPreToolUse, pre, false},
		{"PreToolUse adapter under PostToolUse", shared.HookEventPostToolUse, pre, true},
		{"Stop adapter under UserPromptSubmit", shared.HookEventUserPromptSubmit, stop, true},
		{"HookInput adapter under any event", shared.HookEventNotification, any, false},
		{"an untyped handler is not probed", shared.HookEventPostToolUse, untyped, false},
		{"nil", shared.HookEventPostToolUse, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := shared.CheckHandlerEvent(c.event, c.h)
			var ite *shared.InputTypeError
			if got := errors.As(err, &ite); got != c.wantErr {
				t.Errorf("CheckHandlerEvent = %v, want an *InputTypeError: %v", err, c.wantErr)
			}
			err = shared.Hooks{c.event: {{Handler: c.h}}}.Validate()
			if c.h != nil && (err != nil) != c.wantErr {
				t.Errorf("Validate = %v, want an error: %v", err, c.wantErr)
			}
		})
	}
	if called {
		t.Error("a handler ran during the check")
	}
}

// A handler made of a nil function (a nil HookHandlerFunc, a typed adapter of nil) is refused at
// registration, as a nil handler is: registered, it could only panic.
func TestValidateRefusesNilFunctions(t *testing.T) {
	var nilFunc shared.HookHandlerFunc
	for name, h := range map[string]shared.HookHandler{
		"nil HookHandlerFunc":    nilFunc,
		"OnPreToolUse(nil)":      shared.OnPreToolUse(nil),
		"HandlerFor[*Stop](nil)": shared.HandlerFor[*shared.StopHookInput](nil),
	} {
		err := shared.Hooks{shared.HookEventPreToolUse: {{Handler: h}}}.Validate()
		var re *shared.RegistrationError
		if !errors.As(err, &re) || re.Reason != "nil handler" {
			t.Errorf("%s: Validate = %v, want a nil handler *RegistrationError", name, err)
		}
	}
}
