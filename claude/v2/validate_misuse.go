package v2

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
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

// sdkFlags are the CLI flags the SDK sets itself, by the option that sets them ("": none may):
// WithExtraArgs may
// not repeat them, as a second value would change the protocol the SDK speaks or override a
// setting the session reports (the CLI takes the last).
var sdkFlags = map[string]string{
	"--output-format":                "",
	"--input-format":                 "",
	"--permission-prompt-tool":       "WithCanUseTool or WithPermissionPromptTool",
	"--session-id":                   "WithSessionID",
	"--settings":                     "WithSettings",
	"--model":                        "WithModel",
	"--permission-mode":              "WithPermissionMode",
	"--max-turns":                    "WithMaxTurns",
	"--system-prompt":                "WithSystemPrompt",
	"--append-system-prompt":         "WithAppendSystemPrompt",
	"--allowedTools":                 "WithAllowedTools",
	"--allowed-tools":                "WithAllowedTools",
	"--disallowedTools":              "WithDisallowedTools",
	"--disallowed-tools":             "WithDisallowedTools",
	"--dangerously-skip-permissions": "WithPermissionMode(PermissionModeBypassPermissions) with WithAllowBypassPermissions",
}

// validateMisuse catches options that are each valid but do not work as given: values the CLI
// would ignore or misread, settings that contradict each other. It runs in
// validate, before anything starts; each error is an *OptionError naming the option.
func (o *options) validateMisuse() error {
	if o.cliPath != "" && strings.TrimSpace(o.cliPath) == "" {
		return optionErr("WithCLIPath", "a blank path")
	}
	if o.storeGiven && isNil(o.store) {
		return optionErr("WithSessionStore", "a nil store (leave the option out for no mirror)")
	}
	for _, l := range []struct {
		opt   string
		names []string
	}{{"WithAllowedTools", o.allowedTools}, {"WithDisallowedTools", o.disallowedTools}} {
		for _, n := range l.names {
			if strings.TrimSpace(n) == "" {
				return optionErr(l.opt, "an empty tool rule")
			}
		}
	}
	for _, n := range o.allowedTools {
		if slices.Contains(o.disallowedTools, n) {
			return optionErr("WithAllowedTools/WithDisallowedTools", "%q is both allowed and disallowed (the CLI denies it; drop one)", n)
		}
	}
	for _, l := range []struct {
		opt string
		kvs []string
	}{{"WithEnv", o.env}, {"WithBaseEnv", o.baseEnv}} {
		for _, kv := range l.kvs {
			if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
				return optionErr(l.opt, "%q is not KEY=VALUE", kv)
			}
		}
	}
	if o.model != "" && strings.TrimSpace(o.model) != o.model {
		return optionErr("WithModel", "%q has blanks around the name", o.model)
	}
	for _, a := range o.extraArgs {
		flag, _, _ := strings.Cut(a, "=")
		if use, ok := sdkFlags[flag]; ok {
			if use == "" {
				return optionErr("WithExtraArgs", "%q: the SDK sets %s itself (it speaks stream-json); drop it", a, flag)
			}
			return optionErr("WithExtraArgs", "%q: the SDK sets %s itself; use %s", a, flag, use)
		}
	}
	for _, d := range []struct {
		opt string
		neg bool
	}{
		{"WithMaxTurns", o.maxTurns < 0},
		{"WithPermissionTimeout", o.permissionTimeout < 0},
		{"WithRequestTimeout", o.requestTimeout < 0},
		{"WithCloseGrace", o.closeGrace < 0},
		{"WithMaxLineSize", o.maxLineSize < 0},
	} {
		if d.neg {
			return optionErr(d.opt, "negative (zero means the default)")
		}
	}
	if o.hookTimeout <= 0 {
		return optionErr("WithHookTimeout", "must be positive, got %v", o.hookTimeout)
	}
	for e, cfgs := range o.hooks {
		if e.IsKnown() && !e.UsesMatcher() {
			for i, c := range cfgs {
				if c.Matcher != "" && c.Matcher != "*" {
					return optionErr("WithHooks/WithHook", "hook %s[%d] has the matcher %q, but %s has nothing to match: the CLI fires it for every call (drop the matcher)", e, i, c.Matcher, e)
				}
			}
		}
	}
	return nil
}

// checkPaths checks that the directories the options name are there: WithCwd (the CLI would
// fail to start with "fork/exec <cli>: no such file or directory", naming the CLI instead) and
// WithAdditionalDirs. CreateSession runs it after validate, which looks at no file.
func (o *options) checkPaths() error {
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

// hooksErr names the options that carry hooks in a registration error of shared.Hooks.Validate.
func hooksErr(err error) error {
	if err == nil {
		return nil
	}
	return &OptionError{Option: "WithHooks/WithHook", Problem: strings.TrimPrefix(err.Error(), "shared: "), Err: err}
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
