package main

import (
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestCheckReplaces: a go.work must replace exactly the pinned versions that its modules'
// go.mod files require, each by that module's directory; a missing line, a line of a version no
// go.mod requires, a wrong directory and a replace of every version are each reported, and
// writeReplaces' block passes.
func TestCheckReplaces(t *testing.T) {
	const (
		core = "github.com/hookwire/agent-sdk-go"
		otel = core + "/contrib/otel"
		pin  = "v0.0.0-20261127034253-1a6f598f3db5"
		old  = "v0.0.0-20261127022349-7b61592373ea"
	)
	r := testRepo(t, map[string]string{
		".":            "module " + core + "\n",
		"contrib/otel": "module " + otel + "\n\nrequire " + core + " " + pin + "\n",
		"examples":     "module " + core + "/examples\n\nrequire (\n\t" + core + " " + pin + "\n\t" + otel + " " + pin + "\n)\n",
	})
	const use = "go 1.26.0\n\nuse (\n\t.\n\t./contrib/otel\n\t./examples\n)\n"
	tests := []struct {
		name, replaces string
		want           []string // substrings, one error each
	}{
		{"as pin writes it", "replace (\n\t" + core + " " + pin + " => ./\n\t" + otel + " " + pin + " => ./contrib/otel\n)\n", nil},
		{"missing", "replace " + core + " " + pin + " => ./\n",
			[]string{"no replace of " + otel + "@" + pin + ", which a go.mod of the workspace requires"}},
		{"stale version", "replace (\n\t" + core + " " + pin + " => ./\n\t" + otel + " " + pin + " => ./contrib/otel\n\t" + core + " " + old + " => ./\n)\n",
			[]string{"go.work:12: replace " + core + "@" + old + " => ./: no go.mod of the workspace requires that version"}},
		{"wrong directory", "replace (\n\t" + core + " " + pin + " => ./\n\t" + otel + " " + pin + " => ./examples\n)\n",
			[]string{"want => ./contrib/otel"}},
		{"every version", "replace (\n\t" + core + " => ./\n\t" + otel + " " + pin + " => ./contrib/otel\n)\n",
			[]string{"replace only the pinned versions", "no replace of " + core + "@" + pin}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := modfile.ParseWork("go.work", []byte(use+"\n"+tt.replaces), nil)
			if err != nil {
				t.Fatal(err)
			}
			errs := r.checkReplaces(&workspace{name: "go.work", file: f})
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

// testRepo is a repository of the given go.mod files (directory -> contents), without git.
func testRepo(t *testing.T, goMods map[string]string) *repo {
	t.Helper()
	r := &repo{byPath: map[string]*gomod{}}
	for _, dir := range []string{".", "contrib/otel", "examples"} {
		f, err := modfile.Parse(dir+"/go.mod", []byte(goMods[dir]), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := &gomod{dir: dir, path: f.Module.Mod.Path, file: f}
		r.modules = append(r.modules, m)
		r.byPath[m.path] = m
	}
	return r
}

func TestRelDir(t *testing.T) {
	for _, tt := range []struct{ from, to, want string }{
		{".", ".", "./"},
		{".", "contrib/otel", "./contrib/otel"},
		{"contrib/temporal", ".", "../.."},
		{"contrib/temporal", "contrib/pgstore", "../pgstore"},
		{"contrib/temporal", "contrib/temporal", "./"},
		{"contrib/temporal", "examples/temporal-fleet", "../../examples/temporal-fleet"},
	} {
		if got := relDir(tt.from, tt.to); got != tt.want {
			t.Errorf("relDir(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
