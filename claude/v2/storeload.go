package v2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// resumeFromStore, for WithResume with a WithSessionStore that is a sessions.ReadableStore,
// copies the resumed session from the store into the CLI's config directory when that directory
// lacks its transcript (sessions.Dir.CopyFromStore), before the CLI starts: so a session can be
// resumed on a machine other than the one that ran it. A transcript already there is the CLI's
// own record and is used as it is. A session the store lacks too is left to the CLI (which
// fails to resume it). The store's calls are bounded by ctx and the request timeout.
func (s *Session) resumeFromStore(ctx context.Context) error {
	store, ok := s.o.store.(sessions.ReadableStore)
	if !ok || s.o.resume == "" {
		return nil
	}
	dir := cliConfigDir(s.o.baseEnv, s.o.env)
	if dir == "" {
		return nil
	}
	timeout := s.o.requestTimeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := dir.CopyFromStore(ctx, store, s.cwd, s.o.resume)
	if err != nil && !errors.Is(err, sessions.ErrNotFound) {
		return fmt.Errorf("v2: resuming session %s from the session store into %s: %w", s.o.resume, dir, err)
	}
	return nil
}

// cliConfigDir returns the config directory of a CLI started with the environment base (nil: the
// SDK process's) plus env: its $CLAUDE_CONFIG_DIR, else $HOME/.claude ($USERPROFILE on Windows);
// "" if it has none of them.
func cliConfigDir(base, env []string) sessions.Dir {
	lookup := cliEnvLookup(base, env)
	if d := lookup("CLAUDE_CONFIG_DIR"); d != "" {
		return sessions.Dir(d)
	}
	home := lookup("HOME")
	if home == "" {
		home = lookup("USERPROFILE") // Windows
	}
	if home != "" {
		return sessions.Dir(filepath.Join(home, ".claude"))
	}
	return ""
}

// cliEnvLookup returns the lookup of a variable in the CLI's environment: base (nil: the SDK
// process's) with env after it, the last setting of a key winning, as WithBaseEnv and WithEnv
// make it.
func cliEnvLookup(base, env []string) func(key string) string {
	if base == nil {
		base = os.Environ()
	}
	all := append(slices.Clone(base), env...)
	return func(key string) string {
		v := ""
		for _, kv := range all {
			if k, val, ok := strings.Cut(kv, "="); ok && k == key {
				v = val
			}
		}
		return v
	}
}
