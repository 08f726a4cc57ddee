// Package cli forwards to package claudetest, where the CLI finder and installer now live
// (claudetest.FindCLI, RequireCLI, InstallCLI, CLIEnv). It stays only for the code that has not
// moved yet (contrib/otel, internal/bench, examples/internal/tracing and a few claude/v2 tests);
// new code uses claudetest. Delete it once nothing imports it.
package cli

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// Version is claudetest.CLIVersion.
const Version = claudetest.CLIVersion

// PathEnv names the environment variable that overrides the CLI location (see claudetest.FindCLI).
const PathEnv = "CLAUDE_CLI_PATH"

// Find is claudetest.FindCLI.
func Find() (string, error) { return claudetest.FindCLI() }

// Require is claudetest.RequireCLI.
func Require(t testing.TB) string {
	t.Helper()
	return claudetest.RequireCLI(t)
}

// Env is claudetest.CLIEnv.
func Env(home, baseURL string) []string { return claudetest.CLIEnv(home, baseURL) }

// InstalledVersion runs `<path> --version` and returns the version it prints ("2.1.330" for
// "2.1.330 (Claude Code)").
func InstalledVersion(ctx context.Context, path string) (string, error) {
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
