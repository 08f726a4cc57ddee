package v2

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// OptionError says an option given to CreateSession cannot work as given. Option names the option
// (or the options that clash), so that the message points at the fix.
type OptionError struct {
	// Option is the option's name as a user writes it, e.g. "WithCwd", or
	// "WithAllowedTools/WithDisallowedTools" for two that clash.
	Option string
	// Problem says what is wrong with it.
	Problem string
	// Err is the cause, when there is one (an *os.PathError, a *shared.RegistrationError).
	Err error
}

// Error describes the misuse.
func (e *OptionError) Error() string { return "v2: " + e.Option + ": " + e.Problem }

// Unwrap returns the cause.
func (e *OptionError) Unwrap() error { return e.Err }

func optionErr(option, format string, args ...any) *OptionError {
	return &OptionError{Option: option, Problem: fmt.Sprintf(format, args...)}
}

// checkPaths checks that the directories the options name are there: WithCwd (the CLI would
// fail to start with "fork/exec <cli>: no such file or directory", naming the CLI instead) and
// WithAdditionalDirs. CreateSession runs it after validate, which looks at no file.
func (o *config) checkPaths() error {
	if o.cwd != "" {
		if err := checkDir("WithCwd", o.cwd); err != nil {
			return err
		}
	}
	for _, d := range o.additionalDirs {
		if err := checkDir("WithAdditionalDirs", d); err != nil {
			return err
		}
	}
	return nil
}

// hooksErr names the options that carry hooks in a registration error of shared.Hooks.Validate,
// with the event an unknown one was likely meant to be.
func hooksErr(err error) error {
	if err == nil {
		return nil
	}
	problem := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "shared: "), ": shared: ", ": ") // one prefix, v2's
	var re *shared.RegistrationError
	if errors.As(err, &re) && !re.Event.IsKnown() {
		problem += didYouMean(string(re.Event), shared.AllHookEvents())
	}
	return &OptionError{Option: "WithHooks/WithHook", Problem: problem, Err: err}
}

// checkDir reports an *OptionError unless dir is a directory.
func checkDir(option, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &OptionError{Option: option, Problem: fmt.Sprintf("%q does not exist", dir), Err: err}
	case err != nil:
		return &OptionError{Option: option, Problem: fmt.Sprintf("%q: %v", dir, err), Err: err}
	case !fi.IsDir():
		return optionErr(option, "%q is not a directory", dir)
	}
	return nil
}

// isNil reports whether v is nil or an interface holding a nil pointer, map, func, ...
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.Slice, reflect.Interface:
		return r.IsNil()
	}
	return false
}
