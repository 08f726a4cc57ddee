package shared_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ContentText decodes with JSON v2: content JSON v2 refuses (a duplicate name, invalid UTF-8) is
// not read as text, it comes back as it is.
func TestContentText(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"empty", ``, ""},
		{"string", `"hello \u00e9"`, "hello é"},
		{"blocks", `[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]`, "ab"},
		{"duplicate text", `[{"type":"text","text":"a","text":"b"}]`, `[{"type":"text","text":"a","text":"b"}]`},
		{"Text is not text", `[{"type":"text","Text":"a"}]`, ""},
		{"lone surrogate", `"\ud800"`, `"\ud800"`},
		{"number", `42`, `42`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := shared.ContentBlock{Content: []byte(tc.content)}.ContentText()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ContentText (-want +got):\n%s", diff)
			}
		})
	}
}
