package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// fixture is a project with the usual files, a directory outside it, and a home directory.
type fixture struct {
	root, outside, home string
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{root: filepath.Join(base, "proj"), outside: filepath.Join(base, "outside"), home: filepath.Join(base, "home")}
	for _, d := range []string{"proj/build", "proj/src/pkg", "proj/.git", "proj/.claude", "proj/node_modules", "proj/sub/.git", "proj/deps/lib/.git", "outside", "home/.ssh", "proj2"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"proj/main.go", "proj/go.mod", "proj/.env", "proj/src/a.txt", "proj/.git/config", "proj/.claude/settings.json",
		"proj/build/out.o", "proj/README.md", "outside/secret.txt", "home/.ssh/id_rsa", "home/.bashrc", "proj/script.sh", "proj/Makefile"} {
		if err := os.WriteFile(filepath.Join(base, p), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// proj/build.sh is a script the analysis reads.
	if err := os.WriteFile(filepath.Join(base, "proj/build.sh"), []byte("#!/bin/sh\nset -e\nls src\necho done > build/done.txt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// proj/hard.txt is a hard link to outside/secret.txt: writing it writes the outside file.
	if err := os.Link(filepath.Join(base, "outside/secret.txt"), filepath.Join(base, "proj/hard.txt")); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"proj/link-out": f.outside, "proj/link-in": filepath.Join(f.root, "src"), "proj/dangling": filepath.Join(base, "nowhere/x"),
		"proj/link-root": "/", "proj/src/up": "../.."}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(base, l)); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f fixture) policy(opts ...Option) *Policy {
	return Confined(f.root, append([]Option{WithHome(f.home)}, opts...)...)
}
