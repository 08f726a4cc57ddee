package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/internal/cli"
)

// fakeRepo creates a directory tree with the module's go.mod, a nested
// working directory, and optionally a cached CLI; it chdirs into the nested dir.
func fakeRepo(t *testing.T, withCLI bool) (root string) {
	t.Helper()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+cli.Module+"\n\ngo 1.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A nested module with another path must be skipped by RepoRoot.
	nested := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if withCLI {
		writeScript(t, cli.BinPath(filepath.Join(root, cli.CacheDir)), cli.Version)
	}
	t.Chdir(nested)
	return root
}

// writeScript writes an executable that prints "<version> (Claude Code)".
func writeScript(t *testing.T, path, version string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho '" + version + " (Claude Code)'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	cases := []struct {
		name     string
		envPath  string // "" = unset; "script" = an existing file
		withCLI  bool
		wantPath string // "env", "cache" or "" for an error
		wantErr  string
	}{
		{name: "env var wins", envPath: "script", withCLI: true, wantPath: "env"},
		{name: "env var missing file", envPath: "/nonexistent/claude", withCLI: true, wantErr: "no such file"},
		{name: "cache", withCLI: true, wantPath: "cache"},
		{name: "nothing", wantErr: "not found; tried"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := fakeRepo(t, tc.withCLI)
			script := filepath.Join(t.TempDir(), "claude")
			writeScript(t, script, cli.Version)
			switch tc.envPath {
			case "":
				t.Setenv(cli.PathEnv, "")
				os.Unsetenv(cli.PathEnv)
			case "script":
				t.Setenv(cli.PathEnv, script)
			default:
				t.Setenv(cli.PathEnv, tc.envPath)
			}
			got, err := cli.Find()
			want := map[string]string{"env": script, "cache": cli.BinPath(filepath.Join(root, cli.CacheDir))}[tc.wantPath]
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Find() = %q, %v; want error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != want {
				t.Fatalf("Find() = %q, %v; want %q", got, err, want)
			}
		})
	}
}

func TestRepoRoot(t *testing.T) {
	root := fakeRepo(t, false)
	got, err := cli.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// t.TempDir may be behind a symlink (macOS); compare resolved paths.
	want, _ := filepath.EvalSymlinks(root)
	if got, _ = filepath.EvalSymlinks(got); got != want {
		t.Errorf("RepoRoot() = %q, want %q", got, want)
	}
}

func TestCheckVersion(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a shell script")
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	writeScript(t, good, cli.Version)
	writeScript(t, bad, "1.0.0")
	ctx := context.Background()
	if err := cli.CheckVersion(ctx, good); err != nil {
		t.Errorf("good: %v", err)
	}
	if err := cli.CheckVersion(ctx, bad); err == nil || !strings.Contains(err.Error(), "1.0.0") {
		t.Errorf("bad: %v", err)
	}
	if err := cli.CheckVersion(ctx, filepath.Join(dir, "missing")); err == nil {
		t.Error("missing: no error")
	}

	// Ensure with CLAUDE_CLI_PATH checks the version and never installs.
	t.Setenv(cli.PathEnv, good)
	if p, err := cli.Ensure(ctx); err != nil || p != good {
		t.Errorf("Ensure(good) = %q, %v", p, err)
	}
	t.Setenv(cli.PathEnv, bad)
	if _, err := cli.Ensure(ctx); err == nil {
		t.Error("Ensure(bad): no error")
	}
}

func TestEnv(t *testing.T) {
	t.Setenv("CLAUDECODE", "1")
	t.Setenv("CLAUDE_CONFIG_DIR", "/host/.claude")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "secret")
	t.Setenv("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
	t.Setenv("CLAUDE_CODE_USE_BEDROCK", "1")
	t.Setenv("CLAUDE_CLI_KEEP", "kept")
	t.Setenv("OTHER_VAR", "kept")

	env := cli.Env("/scratch/home", "http://127.0.0.1:1234")
	got := map[string][]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = append(got[k], v)
	}
	for _, k := range []string{"CLAUDECODE", "CLAUDE_CONFIG_DIR", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK"} {
		if v, ok := got[k]; ok {
			t.Errorf("%s leaked: %q", k, v)
		}
	}
	want := map[string]string{
		"HOME":               "/scratch/home",
		"ANTHROPIC_BASE_URL": "http://127.0.0.1:1234",
		"ANTHROPIC_API_KEY":  cli.APIKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"CLAUDE_CLI_KEEP":                          "kept",
		"OTHER_VAR":                                "kept",
	}
	for k, v := range want {
		if !slices.Equal(got[k], []string{v}) {
			t.Errorf("%s = %q, want exactly [%q]", k, got[k], v)
		}
	}
}
