package confine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// stateDirs are the entries of the CLI's config directory it writes for itself (transcripts
// aside): the per-session config directory gets fresh, private ones instead of links to the real
// ones, whose files other sessions read (a shell snapshot is sourced by every Bash command).
var stateDirs = []string{"backups", "debug", "file-history", "ide", "paste-cache", "plans", "projects",
	"session-env", "sessions", "shell-snapshots", "statsig", "tasks", "todos", ".claude.json"}

// buildState makes the private directory's tmp and config directories: config links every entry
// of spec.ConfigDir but the state ones (read-only through the ruleset), holds a copy of the global
// config, and links projects/ to the real one, so that transcripts land where the SDK, resume and
// the sessions package read them. It returns the project's transcript directory (created), the
// one writable place outside the private directory.
func (p *Plan) buildState(spec Spec) (transcripts string, err error) {
	for _, d := range []string{p.tmp, p.configDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return "", fmt.Errorf("confine: %w", err)
		}
	}
	if spec.GlobalConfig != "" {
		if err := copyFile(spec.GlobalConfig, filepath.Join(p.configDir, ".claude.json")); err != nil {
			return "", err
		}
	}
	if spec.ConfigDir == "" {
		return p.configDir, nil // nothing outside: the transcripts stay in the private directory
	}
	if spec.ProjectKey == "" || spec.ProjectKey != filepath.Base(spec.ProjectKey) {
		return "", fmt.Errorf("confine: project key %q is not a directory name", spec.ProjectKey)
	}
	transcripts = filepath.Join(spec.ConfigDir, "projects", spec.ProjectKey)
	if err := os.MkdirAll(transcripts, 0o700); err != nil {
		return "", fmt.Errorf("confine: the transcript directory: %w", err)
	}
	if err := os.Symlink(filepath.Join(spec.ConfigDir, "projects"), filepath.Join(p.configDir, "projects")); err != nil {
		return "", fmt.Errorf("confine: %w", err)
	}
	entries, err := os.ReadDir(spec.ConfigDir)
	if err != nil {
		return "", fmt.Errorf("confine: reading the config directory: %w", err)
	}
	for _, e := range entries {
		if slices.Contains(stateDirs, e.Name()) {
			continue
		}
		if err := os.Symlink(filepath.Join(spec.ConfigDir, e.Name()), filepath.Join(p.configDir, e.Name())); err != nil {
			return "", fmt.Errorf("confine: %w", err)
		}
	}
	if real, err := filepath.EvalSymlinks(transcripts); err == nil {
		transcripts = real
	}
	return transcripts, nil
}

// copyFile copies src to dst (mode 0600); a missing src is no error.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("confine: the global config: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("confine: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("confine: copying the global config: %w", err)
	}
	return out.Close()
}
