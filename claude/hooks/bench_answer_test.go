package hooks_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func BenchmarkMarshal(b *testing.B) {
	out := shared.Deny("no writes to /etc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hooks.Marshal(shared.HookEventPreToolUse, out); err != nil {
			b.Fatal(err)
		}
	}
}
