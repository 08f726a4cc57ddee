package v2

import (
	"errors"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// WithSpawner starts the CLI through sp instead of as a local child process: in a container, on
// another host over SSH, through an API of the program's own (see subprocess.Spawner; the
// TypeScript SDK's spawnClaudeCodeProcess, the Python SDK's Transport). sp gets the command line,
// the environment and the working directory the SDK would have run, and the ends of the pipes the
// session speaks over; the session, its hooks and its stop sequence are the same. With it the CLI
// path is not looked up locally: it is WithCLIPath as given, or "claude", for sp to resolve.
//
// The SDK cannot confine a process it does not start: a session whose WithPolicy confines the
// CLI with the kernel refuses sp with a *ConfinementError, unless WithoutOSConfinement is given
// too (confine the process on the other side yourself). It excludes WithWrapper.
// Default: none, the SDK starts the CLI itself.
func WithSpawner(sp subprocess.Spawner) Option {
	return setOption("WithSpawner", func(o *config) { o.spawner, o.spawnerGiven = sp, true })
}

// errSpawnerConfinement is the reason of the *ConfinementError for WithSpawner with WithPolicy.
var errSpawnerConfinement = errors.New("WithSpawner: the SDK does not start the CLI, so it cannot confine it")

// checkSpawner checks WithSpawner: not nil, not with WithWrapper.
func (o *config) checkSpawner() error {
	switch {
	case !o.spawnerGiven:
		return nil
	case o.spawner == nil:
		return &OptionError{Option: "WithSpawner", Problem: "a nil Spawner"}
	case len(o.wrapper) > 0:
		return &OptionError{Option: "WithSpawner", Problem: "it excludes WithWrapper (put the command prefix in the Spawner)"}
	}
	return nil
}
