// Package cli finds or installs the pinned Claude Code CLI used by the
// end-to-end tests and prepares an environment that points it at a fake
// Messages API (see package claudetest).
package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Version is the pinned CLI version the SDK is tested against.
const Version = "2.1.330"

// Package is the npm package that provides the CLI.
const Package = "@anthropic-ai/claude-code"

// Module is the Go module path used to recognise the repository root.
const Module = "github.com/hookwire/agent-sdk-go"

// PathEnv names the environment variable that overrides the CLI location.
const PathEnv = "CLAUDE_CLI_PATH"

// CacheDir is the install directory, relative to the repository root.
const CacheDir = ".cache/claude-cli"

// Find returns the CLI to test with: $CLAUDE_CLI_PATH if set, else the
// pinned install under <repo root>/.cache/claude-cli. It does not look on
// PATH (see FindOnPath) and does not check the version (see CheckVersion).
func Find() (string, error) {
	var tried []string
	if p := os.Getenv(PathEnv); p != "" {
		if isFile(p) {
			return p, nil
		}
		return "", fmt.Errorf("cli: %s=%q: no such file", PathEnv, p)
	}
	tried = append(tried, "$"+PathEnv+" (unset)")
	root, err := RepoRoot()
	if err != nil {
		tried = append(tried, err.Error())
	} else {
		p := BinPath(filepath.Join(root, CacheDir))
		if isFile(p) {
			return p, nil
		}
		tried = append(tried, p+" (missing)")
	}
	return "", fmt.Errorf("cli: Claude CLI %s not found; tried: %s", Version, strings.Join(tried, "; "))
}

// FindOnPath returns the `claude` found on PATH, whatever its version.
func FindOnPath() (string, error) {
	return exec.LookPath("claude")
}

// BinPath returns the CLI path inside an npm --prefix directory.
func BinPath(dir string) string {
	return filepath.Join(dir, "node_modules", ".bin", "claude")
}

// RepoRoot walks up from the working directory to the directory whose
// go.mod declares module github.com/hookwire/agent-sdk-go.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if moduleOf(filepath.Join(dir, "go.mod")) == Module {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cli: no go.mod for module " + Module + " above the working directory")
		}
		dir = parent
	}
}

// moduleOf returns the module path declared in a go.mod file, or "".
func moduleOf(gomod string) string {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
