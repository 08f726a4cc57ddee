package claudetest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// fakeCLIScript writes an executable at path that prints "<version> (Claude Code)".
func fakeCLIScript(t *testing.T, path, version string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho '"+version+" (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// isolateFinder gives FindCLI a world of its own: an empty working directory (with a parent the
// test may fill), an empty per-user cache, PATH = one empty directory, CLAUDE_CLI_PATH unset.
// It returns the parent of the working directory, the user cache's root and the PATH directory.
func isolateFinder(t *testing.T) (parent, cache, bin string) {
	t.Helper()
	root := t.TempDir()
	parent, cache, bin = filepath.Join(root, "repo"), filepath.Join(root, "cache"), filepath.Join(root, "bin")
	wd := filepath.Join(parent, "a", "b")
	for _, d := range []string{wd, cache, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(wd)
	t.Setenv("XDG_CACHE_HOME", cache)     // os.UserCacheDir on Linux
	t.Setenv("HOME", filepath.Join(root)) // and elsewhere
	if runtime.GOOS == "darwin" {
		cache = filepath.Join(root, "Library", "Caches")
	}
	t.Setenv("PATH", bin)
	t.Setenv("CLAUDE_CLI_PATH", "")
	os.Unsetenv("CLAUDE_CLI_PATH")
	return parent, cache, bin
}

func TestFindCLI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	userCLI := func(cache string) string {
		return filepath.Join(cache, "agent-sdk-go", "claude-cli-"+claudetest.CLIVersion, "node_modules", ".bin", "claude")
	}
	cases := []struct {
		name string
		// setup places CLIs and returns $CLAUDE_CLI_PATH ("" = unset) and the path FindCLI must
		// return ("" = ErrCLINotFound, with wantErr in the message).
		setup   func(t *testing.T, parent, cache, bin string) (env, want string)
		wantErr string
	}{{
		name: "CLAUDE_CLI_PATH wins over every install",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			p := filepath.Join(t.TempDir(), "my-claude")
			fakeCLIScript(t, p, "9.9.9") // any version
			fakeCLIScript(t, filepath.Join(parent, ".cache/claude-cli/node_modules/.bin/claude"), claudetest.CLIVersion)
			fakeCLIScript(t, userCLI(cache), claudetest.CLIVersion)
			return p, p
		},
	}, {
		name: "CLAUDE_CLI_PATH naming no file fails, without looking further",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			fakeCLIScript(t, userCLI(cache), claudetest.CLIVersion)
			return "/nonexistent/claude", ""
		},
		wantErr: "CLAUDE_CLI_PATH=/nonexistent/claude (no such file)",
	}, {
		name: "a project-local install in a parent directory",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			p := filepath.Join(parent, ".cache/claude-cli/node_modules/.bin/claude")
			fakeCLIScript(t, p, claudetest.CLIVersion)
			fakeCLIScript(t, userCLI(cache), claudetest.CLIVersion)
			return "", p
		},
	}, {
		name: "the per-user install",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			fakeCLIScript(t, userCLI(cache), claudetest.CLIVersion)
			fakeCLIScript(t, filepath.Join(bin, "claude"), claudetest.CLIVersion)
			return "", userCLI(cache)
		},
	}, {
		name: "claude on PATH of the pinned version",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			fakeCLIScript(t, filepath.Join(bin, "claude"), claudetest.CLIVersion)
			return "", filepath.Join(bin, "claude")
		},
	}, {
		name: "claude on PATH of another version is not taken",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			fakeCLIScript(t, filepath.Join(bin, "claude"), "1.0.0")
			return "", ""
		},
		wantErr: `on PATH (version "1.0.0", want ` + claudetest.CLIVersion + ")",
	}, {
		name: "nothing anywhere",
		setup: func(t *testing.T, parent, cache, bin string) (string, string) {
			return "", ""
		},
		wantErr: "claude on PATH",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent, cache, bin := isolateFinder(t)
			env, want := tc.setup(t, parent, cache, bin)
			if env != "" {
				t.Setenv("CLAUDE_CLI_PATH", env)
			}
			got, err := claudetest.FindCLI()
			if want != "" {
				if err != nil || got != want {
					t.Fatalf("FindCLI() = %q, %v; want %q", got, err, want)
				}
				return
			}
			if !errors.Is(err, shared.ErrCLINotFound) || !strings.Contains(err.Error(), tc.wantErr) ||
				!strings.Contains(err.Error(), "claude/claudetest/cmd/installcli") {
				t.Fatalf("FindCLI() = %q, %v; want ErrCLINotFound saying %q and how to install", got, err, tc.wantErr)
			}
		})
	}
}

// fakeTB records what RequireCLI does with a test; Fatalf and Skipf return instead of ending it.
type fakeTB struct {
	testing.TB
	fatal, skip string
}

func (f *fakeTB) Helper()                        {}
func (f *fakeTB) Fatalf(format string, a ...any) { f.fatal = fmt.Sprintf(format, a...) }
func (f *fakeTB) Skipf(format string, a ...any)  { f.skip = fmt.Sprintf(format, a...) }

// A missing CLI skips a test, except with CI=true, where it fails it.
func TestRequireCLIMissing(t *testing.T) {
	isolateFinder(t)
	for _, ci := range []string{"", "false", "true"} {
		t.Setenv("CI", ci)
		f := &fakeTB{TB: t}
		p := claudetest.RequireCLI(f)
		failed, skipped := f.fatal != "", f.skip != ""
		if p != "" || failed != (ci == "true") || skipped == failed {
			t.Errorf("CI=%q: RequireCLI = %q, fatal %q, skip %q; want a %s", ci, p, f.fatal, f.skip,
				map[bool]string{true: "failure", false: "skip"}[ci == "true"])
		}
	}
}

// fakeNPM puts on PATH an npm that records its arguments in log and installs a fake CLI of
// version into the --prefix directory (or fails with "registry down" when version is "").
func fakeNPM(t *testing.T, bin, log, version string) {
	t.Helper()
	script := `#!/bin/sh
echo "$@" >> '` + log + `'
prefix=
while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix=$2; shift; done
if [ -z '` + version + `' ]; then echo 'npm ERR! registry down'; exit 1; fi
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\necho "` + version + ` (Claude Code)"\n' > "$prefix/node_modules/.bin/claude"
chmod 755 "$prefix/node_modules/.bin/claude"
`
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestInstallCLI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	parent, cache, bin := isolateFinder(t)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin")
	log := filepath.Join(t.TempDir(), "npm.log")
	ctx := context.Background()
	npmCalls := func() []string {
		b, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}

	// Into the per-user cache, where FindCLI then finds it; a second install does nothing.
	fakeNPM(t, bin, log, claudetest.CLIVersion)
	dir := filepath.Join(cache, "agent-sdk-go", "claude-cli-"+claudetest.CLIVersion)
	want := filepath.Join(dir, "node_modules", ".bin", "claude")
	for range 2 {
		if p, err := claudetest.InstallCLI(ctx, ""); err != nil || p != want {
			t.Fatalf("InstallCLI(\"\") = %q, %v; want %q", p, err, want)
		}
	}
	wantCalls := []string{"install --no-audit --no-fund --prefix " + dir + " @anthropic-ai/claude-code@" + claudetest.CLIVersion}
	if diff := cmp.Diff(wantCalls, npmCalls()); diff != "" {
		t.Errorf("npm calls (-want +got):\n%s", diff)
	}
	if p, err := claudetest.FindCLI(); err != nil || p != want {
		t.Errorf("FindCLI() after InstallCLI = %q, %v; want %q", p, err, want)
	}

	// With no dir, a CLI of the pinned version that FindCLI finds is enough.
	local := filepath.Join(parent, ".cache", "claude-cli", "node_modules", ".bin", "claude")
	fakeCLIScript(t, local, claudetest.CLIVersion)
	if p, err := claudetest.InstallCLI(ctx, ""); err != nil || p != local {
		t.Errorf("InstallCLI(\"\") with a project-local install = %q, %v; want %q", p, err, local)
	}
	if n := len(npmCalls()); n != 1 {
		t.Errorf("npm ran %d times, want once", n)
	}

	// Another version in dir is replaced.
	other := t.TempDir()
	fakeCLIScript(t, filepath.Join(other, "node_modules", ".bin", "claude"), "1.0.0")
	if p, err := claudetest.InstallCLI(ctx, other); err != nil || p != filepath.Join(other, "node_modules", ".bin", "claude") {
		t.Fatalf("InstallCLI(other) = %q, %v", p, err)
	}
	if n := len(npmCalls()); n != 2 {
		t.Errorf("npm ran %d times, want 2 (the old version is replaced)", n)
	}

	// npm installing the wrong version, or failing, is an error.
	fakeNPM(t, bin, log, "1.0.0")
	if _, err := claudetest.InstallCLI(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "is version 1.0.0 after npm install") {
		t.Errorf("InstallCLI with npm installing 1.0.0: %v", err)
	}
	fakeNPM(t, bin, log, "")
	if _, err := claudetest.InstallCLI(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "registry down") {
		t.Errorf("InstallCLI with a failing npm: %v, want npm's output", err)
	}
}

func TestCLIEnv(t *testing.T) {
	for k, v := range map[string]string{
		"CLAUDECODE": "1", "CLAUDE_CONFIG_DIR": "/host/.claude", "ANTHROPIC_AUTH_TOKEN": "secret",
		"ANTHROPIC_BASE_URL": "https://api.anthropic.com", "CLAUDE_CODE_USE_BEDROCK": "1",
		"CLAUDE_CLI_KEEP": "kept", "OTHER_VAR": "kept", "HOME": "/host/home",
	} {
		t.Setenv(k, v)
	}
	t.Setenv("CLAUDE_CLI_PATH", "")
	os.Unsetenv("CLAUDE_CLI_PATH")
	got := map[string][]string{}
	for _, kv := range claudetest.CLIEnv("/scratch/home", "http://127.0.0.1:1234") {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "ANTHROPIC_") || k == "HOME" || k == "OTHER_VAR" {
			got[k] = append(got[k], v)
		}
	}
	want := map[string][]string{
		"HOME":               {"/scratch/home"},
		"ANTHROPIC_BASE_URL": {"http://127.0.0.1:1234"},
		"ANTHROPIC_API_KEY":  {"sk-ant-test"},
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": {"1"},
		"CLAUDE_CLI_KEEP":                          {"kept"},
		"OTHER_VAR":                                {"kept"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CLIEnv (-want +got):\n%s", diff)
	}
}
