// Package demotest runs the examples' testscript scripts (examples/testdata/*.txtar) against the
// real CLI and the local fake API. Each example's main_test.go is two lines:
//
//	func TestMain(m *testing.M)    { demotest.Main(m, "hooks-audit", run) }
//	func TestScript(t *testing.T) { demotest.Run(t, "../testdata/hooks-audit.txtar") }
package demotest

import (
	"os"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// Main is an example's TestMain: it makes the example's run function available to scripts as the
// command name (use it with exec), then runs the tests.
func Main(m *testing.M, name string, run func() int) {
	testscript.Main(m, map[string]func(){name: func() { os.Exit(run()) }})
}

// Run runs the given script files. It skips the test when the pinned CLI is missing, or fails it
// when CI=true (see claudetest.RequireCLI), and passes the CLI's path to the scripts as $CLAUDE_CLI_PATH,
// which is how the examples find it from the script's scratch directory.
func Run(t *testing.T, files ...string) {
	bin := claudetest.RequireCLI(t)
	testscript.Run(t, testscript.Params{
		Files:               files,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("CLAUDE_CLI_PATH", bin)
			return nil
		},
	})
}
