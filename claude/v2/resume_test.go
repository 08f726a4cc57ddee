package v2_test

import (
	"errors"
	"slices"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithResumeAt needs WithResume and a UUID (a value the CLI could read as a flag is refused), and
// passes --resume-session-at=<uuid> in one argument.
func TestResumeAtValidation(t *testing.T) {
	const id, at = "11111111-2222-4333-8444-555555555555", "aaaaaaaa-2222-4333-8444-555555555555"
	cases := []struct {
		name    string
		opts    []v2.Option
		wantArg string // "" with an error
		idError bool
	}{
		{"resume at", []v2.Option{v2.WithResume(id), v2.WithResumeAt(at)}, "--resume-session-at=" + at, false},
		{"resume at with a fork", []v2.Option{v2.WithResume(id), v2.WithResumeAt(at), v2.WithForkSession()}, "--resume-session-at=" + at, false},
		{"without resume", []v2.Option{v2.WithResumeAt(at)}, "", false},
		{"with continue", []v2.Option{v2.WithContinue(), v2.WithResumeAt(at)}, "", false},
		{"a flag", []v2.Option{v2.WithResume(id), v2.WithResumeAt("--dangerously-skip-permissions")}, "", true},
		{"not a uuid", []v2.Option{v2.WithResume(id), v2.WithResumeAt("msg_01")}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args, err := v2.ArgsFor(tc.opts...)
			if tc.wantArg != "" {
				if err != nil || !slices.Contains(args, tc.wantArg) {
					t.Fatalf("ArgsFor = %q, %v; want %q in it", args, err, tc.wantArg)
				}
				return
			}
			var se *v2.SessionIDError
			if err == nil || errors.As(err, &se) != tc.idError {
				t.Fatalf("ArgsFor = %q, %v; want an error (a *SessionIDError: %v)", args, err, tc.idError)
			}
			if tc.idError && se.Option != "WithResumeAt" {
				t.Errorf("SessionIDError.Option = %q", se.Option)
			}
		})
	}
}
