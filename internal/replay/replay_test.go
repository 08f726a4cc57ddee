package replay

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"claude":     func() { exitWith(FakeCLI()) },
		"sdkrun":     func() { exitWith(SDKRun()) },
		"claude-sim": func() { exitWith(Simulator()) },
	})
}

// TestScripts runs the CLI-replay conversations in testdata/script at the repository root.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLAUDE_REPLAY", env.WorkDir+"/transcript.txt")
			env.Setenv("CLAUDE_REPLAY_LOG", env.WorkDir+"/stdin.jsonl")
			env.Setenv("CLAUDE_REPLAY_ARGS", env.WorkDir+"/args.txt")
			return nil
		},
	})
}
