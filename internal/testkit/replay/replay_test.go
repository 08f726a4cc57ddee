package replay

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim"
)

func TestMain(m *testing.M) {
	testscript.Main(leakCheck{m}, map[string]func(){
		"claude":     func() { exitWith(FakeCLI()) },
		"sdkrun":     func() { exitWith(SDKRun()) },
		"claude-sim": func() { exitWith(claudesim.Main()) },
	})
}

// leakCheck runs the tests, then fails the run if any goroutine of the SDK is left: every session
// the tests started must have ended all of its goroutines.
type leakCheck struct{ m *testing.M }

func (l leakCheck) Run() int {
	code := l.m.Run()
	if code == 0 {
		if left := waitNoSDKGoroutines(5 * time.Second); left != "" {
			fmt.Fprintf(os.Stderr, "SDK goroutines left after all tests:\n%s\n", left)
			code = 1
		}
	}
	return code
}

// TestScripts runs the CLI-replay conversations in testdata/script at the repository root.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLAUDE_REPLAY", env.WorkDir+"/transcript.txt")
			env.Setenv("CLAUDE_REPLAY_LOG", env.WorkDir+"/stdin.jsonl")
			env.Setenv("CLAUDE_REPLAY_ARGS", env.WorkDir+"/args.txt")
			// Race-enabled fakes and drivers would otherwise sleep 1 s at exit.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			return nil
		},
	})
}
