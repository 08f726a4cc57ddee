package main

import (
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestLintGoMod: a replace, the placeholder version and a version that is not a pseudo-version
// are each reported with the line and what to run; other modules' requirements are not checked.
func TestLintGoMod(t *testing.T) {
	const core = "github.com/hookwire/agent-sdk-go"
	tests := []struct {
		name, goMod string
		want        []string // substrings, one error each
	}{
		{"pinned", "module m\n\nrequire " + core + " v0.0.0-20261125081210-c2ecf30aca47\n", nil},
		{"placeholder", "module m\n\nrequire " + core + " v0.0.0-00010101000000-000000000000\n",
			[]string{"go.mod:3: requires github.com/hookwire/agent-sdk-go at the placeholder v0.0.0-00010101000000-000000000000"}},
		{"replace", "module m\n\nrequire " + core + " v0.0.0-20261125081210-c2ecf30aca47\n\nreplace " + core + " => ../..\n",
			[]string{"go.mod:5: replace github.com/hookwire/agent-sdk-go => ../..: a user's build ignores"}},
		{"replace of another module", "module m\n\nreplace example.com/x => ./x\n",
			[]string{"go.mod:3: replace example.com/x => ./x"}},
		{"release version", "module m\n\nrequire " + core + " v0.3.0\n",
			[]string{"requires github.com/hookwire/agent-sdk-go at v0.3.0: want a pseudo-version"}},
		{"placeholder of another module", "module m\n\nrequire example.com/x v0.0.0-00010101000000-000000000000\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := modfile.Parse("go.mod", []byte(tt.goMod), nil)
			if err != nil {
				t.Fatal(err)
			}
			errs := lintGoMod("go.mod", f, func(p string) bool { return strings.HasPrefix(p, core) })
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors %v, want %d", len(errs), errs, len(tt.want))
			}
			for i, err := range errs {
				if !strings.Contains(err.Error(), tt.want[i]) {
					t.Errorf("error %d = %q, want it to contain %q", i, err, tt.want[i])
				}
			}
		})
	}
}
