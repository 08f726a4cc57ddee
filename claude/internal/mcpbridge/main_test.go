package mcpbridge

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any goroutine is left once every test is done: the bridge's
// forwarders and closers, the MCP SDK's readers and handlers (the tests' misbehaving handlers end
// when their test does).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
