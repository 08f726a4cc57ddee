package doccheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRefs: what the check reads from Markdown: code spans and ```go blocks, not other blocks or
// prose; the start of a selector chain with up to two names, not its middle or an import path.
func TestRefs(t *testing.T) {
	md := "Prose v2.NotCode and `v2.WithCwd(dir)`, `*shared.ResultMessage`, `env.Model.Requests()`.\n" +
		"`github.com/hookwire/agent-sdk-go/claude/v2` and `s.Info().HooksApplied` and `a.b.C`.\n" +
		"```go\nres, err := claudetest.NewEnv(t, nil).Run(\"x\")\n```\n" +
		"```\nshell.NotGo\n```\n"
	var got [][3]string
	for _, text := range spans(md) {
		for _, m := range refRE.FindAllStringSubmatch(text, -1) {
			got = append(got, [3]string{m[1], m[2], m[3]})
		}
	}
	want := [][3]string{
		{"v2", "WithCwd", ""},
		{"shared", "ResultMessage", ""},
		{"env", "Model", "Requests"},
		{"s", "Info", ""},
		{"claudetest", "NewEnv", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}
