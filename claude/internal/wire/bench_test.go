package wire_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/internal/wire"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func BenchmarkMarshal(b *testing.B) {
	out := shared.Deny("no writes to /etc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wire.Marshal(shared.HookEventPreToolUse, out); err != nil {
			b.Fatal(err)
		}
	}
}
