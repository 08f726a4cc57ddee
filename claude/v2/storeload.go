package v2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	if base == nil {
		base = os.Environ()
	}
	lookup := func(key string) string {
		v := ""
		for _, kv := range append(append([]string{}, base...), env...) {
			if k, val, ok := strings.Cut(kv, "="); ok && k == key {
				v = val
			}
		}
		return v
	}
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
