package project

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckPluginDirs(t *testing.T) {
	repo, other := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(repo, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repo, "p"), filepath.Join(other, "link-in")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		plugins []string
		refused int
	}{
		{"none", nil, 0},
		{"outside", []string{filepath.Join(other, "p")}, 0},
		{"a sibling with the repository's name as prefix", []string{repo + "-plugins"}, 0},
		{"inside", []string{filepath.Join(repo, "tools", "p")}, 1},
		{"the repository", []string{repo}, 1},
		{"relative, cleaned", []string{filepath.Join(other, "..", filepath.Base(repo), "p.zip")}, 1},
		{"a link in the repository leading out", []string{filepath.Join(repo, "link-out")}, 1},
		{"a link outside leading in", []string{filepath.Join(other, "link-in")}, 1},
		{"relative to the session's directory, not this process's", []string{filepath.Join("tools", "p")}, 1},
		{"relative, leading out of the repository", []string{filepath.Join("..", filepath.Base(other), "p")}, 0},
		{"each refused once", []string{filepath.Join(repo, "a"), filepath.Join(other, "b"), filepath.Join(repo, "c")}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPluginDirs(repo, []string{repo, ""}, tt.plugins)
			if got := len(Refusals(err)); got != tt.refused {
				t.Errorf("refusals = %d, want %d: %v", got, tt.refused, err)
			}
		})
	}
}

// With the working directory at "/", every plugin is inside it.
func TestCheckPluginDirsAtRoot(t *testing.T) {
	if err := CheckPluginDirs("/", []string{"/"}, []string{"/opt/plugin"}); len(Refusals(err)) != 1 {
		t.Errorf("a plugin under a working directory of / was not refused: %v", err)
	}
}
