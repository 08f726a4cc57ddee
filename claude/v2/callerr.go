package v2

import "strings"

// callError is an error of a lower layer (a ctx's error, a write to the CLI that failed) as a v2
// call returns it: its message starts with "v2: " and names the call, like every error a call of
// this package returns; errors.Is and errors.As see the cause (context.Canceled, an
// *os.PathError, ...).
type callError struct {
	call string
	err  error
}

func (e *callError) Error() string {
	return "v2: " + e.call + ": " + strings.TrimPrefix(e.err.Error(), "subprocess: ")
}

func (e *callError) Unwrap() error { return e.err }

// callErr returns err as call returns it: unchanged when it is nil or its message starts with
// "v2: " (the errors of this package, and those of claude/shared's errors.go, which a session
// makes), else a *callError.
func callErr(call string, err error) error {
	if err == nil || strings.HasPrefix(err.Error(), "v2: ") {
		return err
	}
	return &callError{call: call, err: err}
}
