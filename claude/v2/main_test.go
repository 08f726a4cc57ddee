package v2_test

import (
	"os"
	"testing"

	"github.com/hookwire/agent-sdk-go/internal/testkit/replay"
	"go.uber.org/goleak"
)

// replayEnv, when set, makes the test binary the scripted fake CLI of internal/replay instead of
// running the tests (see replay_hooks_test.go).
const replayEnv = "V2_TEST_REPLAY_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(replayEnv) == "1" {
		os.Exit(replay.FakeCLI())
	}
	if os.Getenv(mcpServerEnv) == "1" {
		os.Exit(permMCPServer())
	}
	if os.Getenv(elicitServerEnv) == "1" {
		os.Exit(elicitMCPServer()) // e2e_elicitation_test.go
	}
	// No goroutine may be left once every test is done and every session closed (the tests'
	// misbehaving handlers and stores end when their test does).
	goleak.VerifyTestMain(m)
}
