package subprocess

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// newProcessTag returns the name of an environment variable unique to one transport. The CLI gets
// it (set to 1), and so does every process the CLI starts, unless it clears its environment. The
// name carries the tag, so that the tags of nested sessions add up instead of replacing each other.
func newProcessTag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "AGENT_SDK_PROC_" + strings.ToUpper(hex.EncodeToString(b[:]))
}

// killTagged sends SIGKILL to every process whose environment has tag: the tools the CLI started,
// also those that left its process group and session (CLI 2.1.330 starts Bash commands with
// setsid, so a `sleep 300 &` is reparented to init when its shell exits, out of reach of a signal
// to the process group). It reads /proc/PID/environ, so it sees only processes of the same user,
// and does nothing where there is no /proc.
func killTagged(tag string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	entry := []byte(tag + "=1\x00")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		if bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...)) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
