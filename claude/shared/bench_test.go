package shared_test

import (
	"fmt"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

var benchSink bool

func BenchmarkMatch(b *testing.B) {
	kinds := []struct {
		name, pattern, name1 string
	}{
		{"exact", "Write|Edit|MultiEdit", "MultiEdit"},
		{"glob", "Bash|mcp__github__*", "mcp__github__create_issue"},
		{"regex", "(Notebook)?Edit.*", "NotebookEditCell"},
	}
	for _, k := range kinds {
		b.Run(k.name+"/compiled", func(b *testing.B) {
			m, err := shared.CompileMatcher(k.pattern)
			if err != nil {
				b.Fatal(err)
			}
			if !m.Match(k.name1) {
				b.Fatalf("%q does not match %q", k.pattern, k.name1)
			}
			b.ReportAllocs()
			for b.Loop() {
				benchSink = m.Match(k.name1)
			}
		})
		for _, n := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/configs=%d", k.name, n), func(b *testing.B) {
				cfgs := make([]shared.HookConfig, n)
				for i := range cfgs {
					// Distinct patterns, the last one the matching one, so every config is tested.
					cfgs[i] = shared.HookConfig{Matcher: fmt.Sprintf("%s|Other%d", k.pattern, i)}
					if i < n-1 {
						cfgs[i].Matcher = fmt.Sprintf("Other%d", i)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					matched := 0
					for _, c := range cfgs {
						if c.MatchesToolName(k.name1) {
							matched++
						}
					}
					if matched != 1 {
						b.Fatalf("matched %d configs, want 1", matched)
					}
				}
			})
		}
	}
}
