package storetest_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/sessions/storetest"
)

// FileStore keeps the contract.
func TestFileStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) sessions.ReadableStore {
		return sessions.FileStore{Dir: sessions.Dir(t.TempDir())}
	})
}

// Memory keeps the contract, the optional interfaces' too.
func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) sessions.ReadableStore { return &storetest.Memory{} })
}
