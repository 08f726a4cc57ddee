package policy

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by Err when a policy cannot judge (a root that cannot be resolved).
var ErrInvalid = errors.New("policy: invalid policy")

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}
