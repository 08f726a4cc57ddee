package subprocess

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FindCLI returns the CLI to run: explicit if not "", else $CLAUDE_CLI_PATH, else "claude" on PATH.
// The error is a *CLINotFoundError naming every place tried.
func FindCLI(explicit string) (string, error) {
	var tried []string
	check := func(p string) (string, bool) {
		fi, err := os.Stat(p)
		if err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, true
		}
		return "", false
	}
	if explicit != "" {
		if p, ok := check(explicit); ok {
			return p, nil
		}
		tried = append(tried, "option "+explicit)
		return "", &CLINotFoundError{Tried: tried}
	}
	if env := os.Getenv("CLAUDE_CLI_PATH"); env != "" {
		if p, ok := check(env); ok {
			return p, nil
		}
		tried = append(tried, "CLAUDE_CLI_PATH="+env)
	} else {
		tried = append(tried, "CLAUDE_CLI_PATH (unset)")
	}
	if p, err := exec.LookPath("claude"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return p, nil
	}
	tried = append(tried, "claude on PATH")
	return "", &CLINotFoundError{Tried: tried}
}

// childEnv returns the CLI's environment: base (os.Environ() if nil) without CLAUDECODE (the CLI
// refuses to nest inside a Claude Code session), then extra, which wins over base.
func childEnv(base, extra []string) []string {
	if base == nil {
		base = os.Environ()
	}
	drop := map[string]bool{"CLAUDECODE": true}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		drop[k] = true
	}
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		if k != "CLAUDECODE" {
			env = append(env, kv)
		}
	}
	return env
}
