package v2_test

import (
	"os"
	"testing"

	"github.com/hookwire/agent-sdk-go/internal/replay"
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
	os.Exit(m.Run())
}
