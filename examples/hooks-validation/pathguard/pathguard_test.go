package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree builds, under a fresh directory:
//
//	app/            the project (root)
//	app/sub/
//	app/link-out -> outside/     a symlink pointing out
//	app/link-in  -> app/sub/     a symlink staying in
//	app/file-out -> outside/secret
//	app/dangling -> outside/new  (does not exist)
//	app/loop     -> app/loop
//	app2/           a sibling sharing app's prefix
//	outside/secret
//	applink -> app  the project reached through a symlink
func tree(t *testing.T) (base, root string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "app")
	for _, d := range []string{"app/sub", "app2", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "outside/secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"app/link-out": filepath.Join(base, "outside"),
		"app/link-in":  filepath.Join(root, "sub"),
		"app/file-out": filepath.Join(base, "outside/secret"),
		"app/dangling": filepath.Join(base, "outside/new"),
		"app/loop":     filepath.Join(root, "loop"),
		"applink":      root,
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}

func TestInside(t *testing.T) {
	base, root := tree(t)
	sub := filepath.Join(root, "sub")
	tests := []struct {
		name      string
		root, cwd string
		path      string
		want      bool
		wantErr   bool
	}{
		{name: "relative file", cwd: root, path: "notes.txt", want: true},
		{name: "absolute file", cwd: root, path: root + "/notes.txt", want: true},
		{name: "dot slash", cwd: root, path: "./notes.txt", want: true},
		{name: "the root itself", cwd: root, path: root, want: true},
		{name: "dot", cwd: root, path: ".", want: true},
		{name: "root with trailing slash", cwd: root, path: root + "/", want: true},
		{name: "subdir with trailing slash", cwd: root, path: root + "/sub/", want: true},
		{name: "file with trailing slash", cwd: root, path: "notes.txt/", want: true},
		{name: "double slashes", cwd: root, path: root + "//sub//x", want: true},
		{name: "prefix sibling", cwd: root, path: root + "2/x", want: false},
		{name: "prefix sibling dir", cwd: root, path: base + "/app2", want: false},
		{name: "prefix sibling with trailing slash", cwd: root, path: base + "/app2/", want: false},
		{name: "dotdot to sibling", cwd: root, path: "../app2/x", want: false},
		{name: "dotdot and back", cwd: root, path: "../app/x", want: true},
		{name: "dotdot inside", cwd: root, path: "sub/../x", want: true},
		{name: "dotdot out through sub", cwd: root, path: "sub/../../outside/x", want: false},
		{name: "absolute with dotdot out", cwd: root, path: root + "/../outside/x", want: false},
		{name: "etc passwd", cwd: root, path: "/etc/passwd", want: false},
		{name: "double slash etc", cwd: root, path: "//etc/passwd", want: false},
		{name: "cwd below root", cwd: sub, path: "../x", want: true},
		{name: "cwd below root, two up", cwd: sub, path: "../../x", want: false},
		{name: "cwd outside, relative", cwd: base + "/outside", path: "x", want: false},
		{name: "cwd outside, back in", cwd: base + "/outside", path: "../app/x", want: true},
		{name: "symlink dir pointing out", cwd: root, path: "link-out/x", want: false},
		{name: "dotdot after outward symlink", cwd: root, path: "link-out/../x", want: false},
		{name: "symlink file pointing out", cwd: root, path: "file-out", want: false},
		{name: "symlink staying in", cwd: root, path: "link-in/x", want: true},
		{name: "dotdot after inward symlink", cwd: root, path: "link-in/../x", want: true},
		{name: "dangling symlink", cwd: root, path: "dangling", wantErr: true},
		{name: "symlink loop", cwd: root, path: "loop/x", wantErr: true},
		{name: "new dirs", cwd: root, path: "new/dir/../../x", want: true},
		{name: "new dirs then out", cwd: root, path: "new/../../outside/x", want: false},
		{name: "root given through a symlink", root: base + "/applink", cwd: root, path: "x", want: true},
		{name: "path through the root symlink", cwd: root, path: base + "/applink/x", want: true},
		{name: "fullwidth solidus is a name character", cwd: root, path: "..／..／etc／passwd", want: true},
		{name: "fullwidth dots are a name", cwd: root, path: "．．/x", want: true},
		{name: "fullwidth solidus after the root", cwd: root, path: root + "／..／..／etc", want: false}, // "app／..／..／etc" is a sibling name of app
		{name: "empty path", cwd: root, path: "", wantErr: true},
		{name: "relative path, relative cwd", cwd: "app", path: "x", wantErr: true},
		{name: "relative path, empty cwd", cwd: "", path: "x", wantErr: true},
		{name: "absolute path, empty cwd", cwd: "", path: root + "/x", want: true},
		{name: "tilde", cwd: root, path: "~/x", wantErr: true},
		{name: "NUL byte", cwd: root, path: "x\x00/../../etc", wantErr: true},
		{name: "relative root", root: "app", cwd: root, path: "x", wantErr: true},
		{name: "missing root", root: base + "/nope", cwd: root, path: "x", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.root
			if r == "" {
				r = root
			}
			got, err := Inside(r, tt.cwd, tt.path)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Inside(%q, %q, %q) error = %v, wantErr %v", r, tt.cwd, tt.path, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Inside(%q, %q, %q) = %v, want %v", r, tt.cwd, tt.path, got, tt.want)
			}
		})
	}
}

func TestEmptyPathSentinel(t *testing.T) {
	if _, err := Resolve("/", ""); !errors.Is(err, ErrEmptyPath) {
		t.Errorf("Resolve of an empty path: %v, want ErrEmptyPath", err)
	}
}

func TestBashWriteTargets(t *testing.T) {
	tests := []struct {
		cmd     string
		want    []string
		wantErr bool
	}{
		{cmd: "ls -la"},
		{cmd: "echo hi > notes.txt", want: []string{"notes.txt"}},
		{cmd: "echo hi >> /etc/passwd", want: []string{"/etc/passwd"}},
		{cmd: "echo hi>../x", want: []string{"../x"}},
		{cmd: "make 2> err.log 1>out.log", want: []string{"err.log", "out.log"}},
		{cmd: "make &> all.log", want: []string{"all.log"}},
		{cmd: "make >| f; echo > g && echo > h", want: []string{"f", "g", "h"}},
		{cmd: "cmd <> rw", want: []string{"rw"}},
		{cmd: "cmd >&file", want: []string{"file"}},
		{cmd: "cmd 2>&1 >&2 < in <<< x", want: nil},
		{cmd: "cat <<EOF\nx\nEOF"},
		{cmd: "echo hi > /dev/null 2>/dev/stderr", want: nil},
		{cmd: `echo 'a > /etc/passwd'`, want: nil},
		{cmd: `echo "a" > "my file.txt"`, want: []string{"my file.txt"}},
		{cmd: `echo a > my\ file`, want: []string{"my file"}},
		{cmd: "echo x # > /etc/passwd", want: nil},
		{cmd: "(echo x > a) | tee b", want: []string{"a"}}, // tee's own file is not seen
		{cmd: "echo $(echo x > inner)", want: []string{"inner"}},
		{cmd: "echo > $HOME/x", wantErr: true},
		{cmd: `echo > "$HOME/x"`, wantErr: true},
		{cmd: "echo > ~/x", wantErr: true},
		{cmd: "echo > *.txt", wantErr: true},
		{cmd: "echo > $(mktemp)", wantErr: true},
		{cmd: "echo > a`b`", wantErr: true},
		{cmd: "echo >", wantErr: true},
		{cmd: "cd /etc && echo x > passwd", wantErr: true},
		{cmd: "cd sub; echo x > /abs/x", want: []string{"/abs/x"}},
		{cmd: "echo 'unterminated > x", wantErr: true},
		{cmd: "echo x > ''", wantErr: true}, // no file to name
		{cmd: "f() { echo x > inside; }; f", want: []string{"inside"}},
		{cmd: "cat <<EOF > out\n$(echo y > nested)\nEOF", want: []string{"nested", "out"}}, // the here-document (first redirection) is walked first
		{cmd: "for i in 1; do echo > loop; done", want: []string{"loop"}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			got, err := BashWriteTargets(tt.cmd)
			if (err != nil) != tt.wantErr {
				t.Fatalf("BashWriteTargets(%q) error = %v, wantErr %v", tt.cmd, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BashWriteTargets(%q) (-want +got):\n%s", tt.cmd, diff)
			}
		})
	}
}
