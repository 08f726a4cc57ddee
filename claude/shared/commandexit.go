package shared

import (
	"fmt"
	"strings"
)

// CommandExitError says a command hook exited with a code other than 0 or 2. For events that
// guard an action the SDK then denies (fail closed); for other events it logs and goes on.
type CommandExitError struct {
	Command  string
	ExitCode int
	Stderr   string
}

// Error describes the failure.
func (e *CommandExitError) Error() string {
	return fmt.Sprintf("command hook %q exited with code %d: %s", e.Command, e.ExitCode, strings.TrimSpace(e.Stderr))
}
