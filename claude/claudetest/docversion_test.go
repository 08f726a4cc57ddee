package claudetest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// pinMentions are the ways the docs name the pinned CLI version: its install directory, "the
// pinned CLI (X)", "the pinned CLI, X", "the pinned X", "`claudetest.CLIVersion`, X" and
// "X (the pin)". The oldest supported version (v2.MinCLIVersion) and versions a figure was
// measured with are named otherwise, and not checked.
var pinMentions = regexp.MustCompile(`claude-cli-(\d+\.\d+\.\d+)` +
	`|pinned(?: CLI)?(?: version)?[ ,(]+(\d+\.\d+\.\d+)` +
	"|CLIVersion`?, (\\d+\\.\\d+\\.\\d+)" +
	`|(\d+\.\d+\.\d+) \(the pin\)`)

// TestDocsNameThePinnedCLI: every place the repository's docs name the pinned CLI version names
// claudetest.CLIVersion, so that moving the pin moves the docs (it failed on docs/TESTING.md and
// docs/SESSIONS.md, which still named 2.1.330 after the pin moved to 2.1.332).
func TestDocsNameThePinnedCLI(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../contrib/*/README.md")
	files = append(append(files, "../../README.md", "../../examples/README.md"), more...)
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range pinMentions.FindAllStringSubmatch(line, -1) {
				found++
				if v := strings.Join(m[1:], ""); v != claudetest.CLIVersion {
					t.Errorf("%s:%d names %s as the pinned CLI; the pin is claudetest.CLIVersion, %s: %q",
						strings.TrimPrefix(f, "../../"), i+1, v, claudetest.CLIVersion, m[0])
				}
			}
		}
	}
	if found < 4 {
		t.Errorf("found %d mentions of the pinned CLI in the docs; want the README's and docs/TESTING.md's at least (is pinMentions out of date?)", found)
	}
}
