package settings_test

import (
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/settings"
)

func ExampleMatchDeniedModels() {
	m := settings.MatchDeniedModels(
		[]string{"claude-opus-4-1-20250805", "claude-sonnet-4-5", "us.anthropic.claude-haiku-4-5-20251001-v1:0"},
		[]string{"claude-opus-4-1", "haiku"},
	)
	fmt.Println(m.Denied)
	// Output: [true false true]
}
