package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// InstalledVersion runs `<path> --version` and returns the version it
// prints ("2.1.330" for "2.1.330 (Claude Code)").
func InstalledVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("cli: %s --version: %w", path, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", fmt.Errorf("cli: %s --version printed nothing", path)
	}
	return f[0], nil
}

// CheckVersion returns an error unless the CLI at path is Version.
func CheckVersion(ctx context.Context, path string) error {
	v, err := InstalledVersion(ctx, path)
	if err != nil {
		return err
	}
	if v != Version {
		return fmt.Errorf("cli: %s is version %s, want %s", path, v, Version)
	}
	return nil
}

// Install runs `npm install` of Package@Version with --prefix dir and
// returns the path of the installed CLI after checking its version.
func Install(ctx context.Context, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund",
		"--prefix", abs, Package+"@"+Version)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("cli: npm install %s@%s: %w\n%s", Package, Version, err, tail(out.String(), 2000))
	}
	p := BinPath(abs)
	if err := CheckVersion(ctx, p); err != nil {
		return "", err
	}
	return p, nil
}

// Ensure returns a CLI of the pinned Version: $CLAUDE_CLI_PATH (which must
// be that version), else the install under <repo root>/.cache/claude-cli,
// installing or reinstalling it there when missing or of another version.
func Ensure(ctx context.Context) (string, error) {
	if p := os.Getenv(PathEnv); p != "" {
		if _, err := Find(); err != nil {
			return "", err
		}
		return p, CheckVersion(ctx, p)
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, CacheDir)
	if p := BinPath(dir); isFile(p) && CheckVersion(ctx, p) == nil {
		return p, nil
	}
	return Install(ctx, dir)
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
