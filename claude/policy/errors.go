package policy

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error of a policy that cannot judge (Err, Validate).
var ErrInvalid = errors.New("policy: invalid policy")

// ConfigError says why a policy cannot judge, and what to fix: a root that is relative, does not
// exist or cannot be resolved, or no policy at all. It wraps ErrInvalid.
type ConfigError struct {
	// Field names what is wrong: "root", "write root", "read root" or "policy".
	Field string
	// Value is the value given ("" for a nil policy).
	Value string
	// Problem says what is wrong with it, Fix what to do.
	Problem, Fix string
}

// Error says what is wrong and how to fix it.
func (e *ConfigError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("policy: %s: %s; %s", e.Field, e.Problem, e.Fix)
	}
	return fmt.Sprintf("policy: %s %q: %s; %s", e.Field, e.Value, e.Problem, e.Fix)
}

// Unwrap returns ErrInvalid.
func (e *ConfigError) Unwrap() error { return ErrInvalid }

// Validate returns why p cannot judge (a *ConfigError), or nil. A nil p is an error. v2.WithPolicy
// calls it, so that CreateSession fails on a policy that would deny every call (or, nil, panic at
// the first one) instead of starting a session that cannot work.
func Validate(p *Policy) error {
	if p == nil {
		return &ConfigError{Field: "policy", Problem: "nil", Fix: "build one with policy.Confined, policy.Strict or policy.Audit"}
	}
	return p.err
}
