// Package confine confines the CLI and every process it starts with the kernel (Landlock on
// Linux): they may write only below the write roots, the session's private directory and the
// CLI's transcript directory of the project, and may not read the denied paths. Nothing else of
// the SDK's process is confined: the ruleset is applied to one locked OS thread, the one that
// starts the CLI (see claude/subprocess's Config.Confine), and the CLI inherits it.
//
// Prepare builds a Plan: the private directory (a temporary directory, TMPDIR, and a per-session
// CLI config directory whose projects/ leads to the real one), and the ruleset. Plan.Apply
// restricts the calling thread; Plan.Close removes the private directory once the CLI has exited.
package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrUnavailable says the kernel cannot confine here: no Landlock (or one too old to bound
// truncation and links), or a system other than Linux. Errors of Prepare and Apply wrap it when
// that is why they failed.
var ErrUnavailable = errors.New("confine: kernel confinement is unavailable")

// MinABI is the oldest Landlock ABI Prepare accepts: 3, the first that bounds truncate(2) (so
// that a file outside the write roots cannot be emptied) and lets links and renames between the
// writable directories work (refer, ABI 2).
const MinABI = 3

// privatePrefix names the private directories in the temporary directory; each has a lock file
// beside it, dir + lockSuffix, that its Plan holds locked (flock on Linux) until Close.
const (
	privatePrefix = "agent-sdk-confined-"
	lockSuffix    = ".lock"
)

// Spec says what the CLI may do.
type Spec struct {
	// WriteDirs are the directories the CLI and its children may write below (the policy's write
	// roots): absolute, symbolic links resolved.
	WriteDirs []string
	// DenyRead are paths (directories or files) nobody in the CLI's tree may read: absolute.
	DenyRead []string
	// Protected are paths inside WriteDirs that stay read-only (.git, .env, ...): absolute. Only
	// Bubblewrap can keep them (read-only binds of those that exist); Landlock cannot take a
	// path back out of a granted tree.
	Protected []string
	// ConfigDir is the CLI's real config directory ($CLAUDE_CONFIG_DIR or ~/.claude): the
	// per-session one links its entries here, read-only, except projects/<ProjectKey>, which is
	// writable. "" means none (the CLI gets an empty config directory).
	ConfigDir string
	// GlobalConfig is the CLI's global config file (~/.claude.json, or .claude.json in
	// $CLAUDE_CONFIG_DIR): copied into the per-session config directory, so the CLI reads it and
	// writes only the copy. "" means none.
	GlobalConfig string
	// ProjectKey is the name of the project's directory under ConfigDir/projects (see
	// sessions.ProjectKey): the only one the CLI may write there (its transcripts).
	ProjectKey string
}

// Plan is one confined start: the private directory and the ruleset. Apply it on the thread
// that starts the CLI; Close it once the CLI has exited.
type Plan struct {
	dir       string // the private directory
	lock      *os.File
	configDir string // dir/config
	tmp       string // dir/tmp
	rules     ruleset
	spec      Spec
	writable  []string // spec.WriteDirs, the private directory, the transcripts
}

// Env returns what the CLI's environment must say: TMPDIR (TMP, TEMP) the private temporary
// directory and CLAUDE_CONFIG_DIR the per-session config directory. They win over the caller's.
func (p *Plan) Env() []string {
	return []string{"TMPDIR=" + p.tmp, "TMP=" + p.tmp, "TEMP=" + p.tmp, "CLAUDE_CONFIG_DIR=" + p.configDir}
}

// Dir returns the private directory (removed by Close).
func (p *Plan) Dir() string { return p.dir }

// Close removes the private directory. Call it after the CLI and its children have exited.
func (p *Plan) Close() error {
	p.rules.close()
	err := os.RemoveAll(p.dir)
	unlockPrivate(p.dir, p.lock)
	if err != nil {
		return fmt.Errorf("confine: removing the private directory: %w", err)
	}
	return nil
}

// Prepare checks that the kernel can confine, builds the private directory and the ruleset.
func Prepare(spec Spec) (*Plan, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	sweepStale(os.TempDir())
	dir, err := os.MkdirTemp("", privatePrefix)
	if err != nil {
		return nil, fmt.Errorf("confine: making the private directory: %w", err)
	}
	lock, err := lockPrivate(dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("confine: locking the private directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	p := &Plan{dir: dir, lock: lock, configDir: filepath.Join(dir, "config"), tmp: filepath.Join(dir, "tmp"), spec: spec}
	transcripts, err := p.buildState(spec)
	if err == nil {
		p.writable = append(slices.Clone(spec.WriteDirs), dir, transcripts)
		p.rules, err = newRuleset(spec, p.writable)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		unlockPrivate(p.dir, p.lock)
		return nil, err
	}
	return p, nil
}

// within reports whether path is dir or below it (both clean and absolute).
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// resolved returns the paths cleaned, plus the targets of those that are symbolic links.
func resolved(paths []string) []string {
	var out []string
	for _, p := range paths {
		p = filepath.Clean(p)
		out = append(out, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			out = append(out, real)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
