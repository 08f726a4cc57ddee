package claudetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// CLIVersion is the Claude Code CLI version (npm package @anthropic-ai/claude-code) that this
// SDK is tested against, and that InstallCLI installs.
const CLIVersion = "2.1.332"

const (
	cliPackage = "@anthropic-ai/claude-code"
	cliPathEnv = "CLAUDE_CLI_PATH"
	// localDir is a project-local install, looked for in the working directory and its parents.
	localDir = ".cache/claude-cli"
	// installCmd is what a user runs, in a module that requires the SDK, to install the CLI.
	installCmd = "go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli"
)

// FindCLI returns the Claude Code CLI to test with, looking, in order, at:
//
//  1. $CLAUDE_CLI_PATH, used as is (any version); when set, it must name a file, or FindCLI fails
//     without looking further;
//  2. a project-local install: .cache/claude-cli in the working directory or one of its parents
//     (made by `installcli -dir .cache/claude-cli`; its version is not checked);
//  3. the per-user install of CLIVersion that InstallCLI("") makes: DIR/agent-sdk-go/claude-cli-VERSION
//     under os.UserCacheDir (~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows);
//  4. `claude` on PATH, if `claude --version` says CLIVersion.
//
// It never installs anything. When nothing is found, errors.Is(err, shared.ErrCLINotFound) holds
// and the error names every place tried and the command that installs the CLI: `go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli`.
func FindCLI() (string, error) {
	var tried []string
	if p := os.Getenv(cliPathEnv); p != "" {
		if isFile(p) {
			return p, nil
		}
		return "", notFound([]string{"$" + cliPathEnv + "=" + p + " (no such file)"})
	}
	tried = append(tried, "$"+cliPathEnv+" (unset)")
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if p := binPath(filepath.Join(dir, localDir)); isFile(p) {
				return p, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
		tried = append(tried, localDir+" in "+wd+" and its parents")
	}
	if dir, err := userCacheDir(); err == nil {
		p := binPath(dir)
		if isFile(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	if p, err := exec.LookPath("claude"); err == nil {
		v, err := pathVersion(p)
		if err == nil && v == CLIVersion {
			return p, nil
		}
		tried = append(tried, fmt.Sprintf("%s on PATH (version %q, want %s)", p, v, CLIVersion))
	} else {
		tried = append(tried, "claude on PATH")
	}
	return "", notFound(tried)
}

func notFound(tried []string) error { return &notFoundError{tried} }

// notFoundError is FindCLI's error: errors.Is(err, shared.ErrCLINotFound) holds.
type notFoundError struct{ tried []string }

func (e *notFoundError) Error() string {
	return "claudetest: Claude CLI " + CLIVersion + " not found; tried " + strings.Join(e.tried, ", ") +
		"; install it with `" + installCmd + "`"
}

func (e *notFoundError) Unwrap() error { return shared.ErrCLINotFound }

// pathVersions memoizes the versions of the CLIs found on PATH: running one costs a Node start.
var pathVersions sync.Map // path -> string

func pathVersion(p string) (string, error) {
	if v, ok := pathVersions.Load(p); ok {
		return v.(string), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := cliVersion(ctx, p)
	if err == nil {
		pathVersions.Store(p, v)
	}
	return v, err
}

// RequireCLI returns FindCLI's CLI for t. When there is none, it fails t if the environment has
// CI=true (GitHub Actions, GitLab CI and most CI services set it), and skips t otherwise, saying
// how to install the CLI: a missing CLI skips on a laptop and fails in CI. Set CI=true to make it
// fail anywhere; call FindCLI to decide otherwise.
func RequireCLI(t testing.TB) string {
	t.Helper()
	p, err := FindCLI()
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%v (CI=true: a missing CLI fails the test)", err)
		return ""
	}
	t.Skipf("%v (or set CI=true to fail instead of skipping)", err)
	return ""
}

// InstallCLI installs CLIVersion with npm (`npm install --prefix DIR @anthropic-ai/claude-code@VERSION`)
// into dir and returns the CLI's path. When dir already holds CLIVersion it returns at once;
// another version is replaced. When dir is "", it returns what FindCLI finds if that is CLIVersion,
// and installs into the per-user cache FindCLI looks at otherwise. It needs npm on PATH and the
// npm registry; ctx bounds the whole install.
func InstallCLI(ctx context.Context, dir string) (string, error) {
	return InstallCLIVersion(ctx, dir, CLIVersion)
}

// InstallCLIVersion is InstallCLI for another version, e.g. v2.MinCLIVersion for a run of the
// real-CLI tests against the oldest supported CLI (point $CLAUDE_CLI_PATH at the path it returns).
// With dir "" it installs into the per-user cache directory of that version
// (DIR/agent-sdk-go/claude-cli-VERSION), which FindCLI looks at only for CLIVersion.
func InstallCLIVersion(ctx context.Context, dir, version string) (string, error) {
	if dir == "" {
		if version == CLIVersion {
			if p, err := FindCLI(); err == nil {
				if v, err := cliVersion(ctx, p); err == nil && v == version {
					return p, nil
				}
			}
		}
		var err error
		if dir, err = userCacheDirFor(version); err != nil {
			return "", fmt.Errorf("claudetest: no per-user cache directory: %w", err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("claudetest: %w", err)
	}
	p := binPath(abs)
	if v, err := cliVersion(ctx, p); err == nil && v == version {
		return p, nil
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("claudetest: %w", err)
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", abs, cliPackage+"@"+version)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("claudetest: npm install %s@%s: %w\n%s", cliPackage, version, err, tail(out.String(), 2000))
	}
	v, err := cliVersion(ctx, p)
	if err != nil {
		return "", err
	}
	if v != version {
		return "", fmt.Errorf("claudetest: %s is version %s after npm install, want %s", p, v, version)
	}
	return p, nil
}

// cliVersion runs `path --version` and returns the version it prints ("2.1.330" for
// "2.1.330 (Claude Code)").
func cliVersion(ctx context.Context, path string) (string, error) {
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("claudetest: %s --version: %w", path, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", errors.New("claudetest: " + path + " --version printed nothing")
	}
	return f[0], nil
}

// userCacheDir is the per-user install directory of CLIVersion.
func userCacheDir() (string, error) { return userCacheDirFor(CLIVersion) }

// userCacheDirFor is the per-user install directory of a version.
func userCacheDirFor(version string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "agent-sdk-go", "claude-cli-"+version), nil
}

// binPath is the CLI inside an npm --prefix directory.
func binPath(dir string) string {
	name := "claude"
	if runtime.GOOS == "windows" {
		name = "claude.cmd"
	}
	return filepath.Join(dir, "node_modules", ".bin", name)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
