package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/go-json-experiment/json"
)

// Source is a settings tier, lowest precedence first: User, Project, Local, Flag, Managed.
type Source string

// The tiers, in the CLI's order of precedence (a later one wins a scalar key).
const (
	// User is the user's settings.json in the CLI's configuration directory ($CLAUDE_CONFIG_DIR,
	// else ~/.claude).
	User Source = "user"
	// Project is <project>/.claude/settings.json, the file a repository commits.
	Project Source = "project"
	// Local is <project>/.claude/settings.local.json.
	Local Source = "local"
	// Flag is the CLI's --settings value (claude/v2 passes its WithSettings, WithSandbox and
	// settings hooks there).
	Flag Source = "flag"
	// Managed is the policy tier: the machine's managed-settings.json and its
	// managed-settings.d drop-ins, or, where there are none, the --managed-settings value.
	Managed Source = "managed"
)

// Options says what to resolve. Its zero value resolves every file tier for the current
// directory, the current user and this machine's managed settings.
type Options struct {
	// Cwd is the project directory whose .claude files are read. Default: the current directory.
	Cwd string
	// ProjectConfigRoot, if set, is read for the project and local tiers instead of Cwd (the
	// CLI's --project-config-root). Default: Cwd.
	ProjectConfigRoot string
	// Sources are the file tiers to read (the CLI's --setting-sources: User, Project, Local).
	// Default (nil): all three, the CLI's default; an empty, non-nil slice reads none. Flag and
	// Managed are always read.
	Sources []Source
	// ConfigDir is the CLI's configuration directory, which holds the user's settings.json.
	// Default: $CLAUDE_CONFIG_DIR, else ~/.claude.
	ConfigDir string
	// Flag is the --settings value: a JSON object. Default: none.
	Flag []byte
	// Managed is the --managed-settings value (claude/v2's WithManagedSettings): a JSON object,
	// used for the managed tier when this machine has no managed settings file. Default: none.
	Managed []byte
	// ManagedDir is the directory of managed-settings.json and managed-settings.d. Default: the
	// CLI's for this system (/etc/claude-code on Linux, /Library/Application
	// Support/ClaudeCode on macOS, C:\Program Files\ClaudeCode on Windows).
	ManagedDir string
}

// Resolved is what the CLI would apply.
type Resolved struct {
	// Effective is the merged settings: objects merged key by key, arrays joined (a string,
	// number or boolean that is already there is not added again), any other value taken from
	// the highest tier that sets it.
	Effective map[string]any
	// Provenance says, for each top-level key of Effective, the highest tier that set it.
	Provenance map[string]Provenance
	// Sources are the tiers read, lowest precedence first, each with what it held; a tier with no
	// settings (none, or only empty objects) is left out.
	Sources []SourceSettings
	// Skipped are the files that exist but could not be used (unreadable, not a JSON object);
	// the CLI skips them too and reports them.
	Skipped []SkippedFile
}

// Provenance is where a key of Resolved.Effective came from.
type Provenance struct {
	Source Source
	// Path is the file, for a tier read from one.
	Path string
}

// SourceSettings is one tier as read.
type SourceSettings struct {
	Source   Source
	Path     string // the file, for a tier read from one ("" for Flag and a --managed-settings value)
	Settings map[string]any
}

// SkippedFile is a settings file Resolve could not use.
type SkippedFile struct {
	Path string
	Err  error
}

// Resolve reads and merges the settings tiers that o names. An error is returned for a Flag or
// Managed value that is not a JSON object, and when the current directory or home directory
// is needed and cannot be found; a file that cannot be used is listed in Skipped.
func Resolve(o Options) (*Resolved, error) {
	files, err := o.files()
	if err != nil {
		return nil, err
	}
	r := &Resolved{Effective: map[string]any{}, Provenance: map[string]Provenance{}}
	for _, f := range files {
		m, err := readObject(f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			r.Skipped = append(r.Skipped, SkippedFile{Path: f.path, Err: err})
			continue
		}
		r.add(SourceSettings{Source: f.source, Path: f.path, Settings: m})
	}
	if len(o.Flag) > 0 {
		m, err := decodeObject(o.Flag)
		if err != nil {
			return nil, fmt.Errorf("settings: Options.Flag: %w", err)
		}
		r.add(SourceSettings{Source: Flag, Settings: m})
	}
	if err := r.addManaged(o); err != nil {
		return nil, err
	}
	return r, nil
}

type tierFile struct {
	source Source
	path   string
}

// files lists the User, Project and Local files to read, in order.
func (o Options) files() ([]tierFile, error) {
	sources := o.Sources
	if sources == nil {
		sources = []Source{User, Project, Local}
	}
	var out []tierFile
	if slices.Contains(sources, User) {
		dir := o.ConfigDir
		if dir == "" {
			dir = os.Getenv("CLAUDE_CONFIG_DIR")
		}
		if dir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil, fmt.Errorf("settings: the user's settings: %w", err)
			}
			dir = filepath.Join(home, ".claude")
		}
		out = append(out, tierFile{User, filepath.Join(dir, "settings.json")})
	}
	if slices.Contains(sources, Project) || slices.Contains(sources, Local) {
		root := o.ProjectConfigRoot
		if root == "" {
			root = o.Cwd
		}
		if root == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, fmt.Errorf("settings: the project's settings: %w", err)
			}
			root = wd
		}
		if slices.Contains(sources, Project) {
			out = append(out, tierFile{Project, filepath.Join(root, ".claude", "settings.json")})
		}
		if slices.Contains(sources, Local) {
			out = append(out, tierFile{Local, filepath.Join(root, ".claude", "settings.local.json")})
		}
	}
	return out, nil
}

// addManaged adds the managed tier: managed-settings.json with its drop-ins merged over it in
// name order, or, where there is neither, Options.Managed.
func (r *Resolved) addManaged(o Options) error {
	dir := o.ManagedDir
	if dir == "" {
		dir = defaultManagedDir()
	}
	paths := []string{filepath.Join(dir, "managed-settings.json")}
	dropIns, _ := filepath.Glob(filepath.Join(dir, "managed-settings.d", "*.json"))
	sort.Strings(dropIns)
	paths = append(paths, dropIns...)
	found := false
	for _, p := range paths {
		m, err := readObject(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			r.Skipped = append(r.Skipped, SkippedFile{Path: p, Err: err})
			continue
		}
		found = true
		r.add(SourceSettings{Source: Managed, Path: p, Settings: m})
	}
	if found || len(o.Managed) == 0 {
		return nil
	}
	m, err := decodeObject(o.Managed)
	if err != nil {
		return fmt.Errorf("settings: Options.Managed: %w", err)
	}
	r.add(SourceSettings{Source: Managed, Settings: m})
	return nil
}

func defaultManagedDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// add merges one tier into r.
func (r *Resolved) add(s SourceSettings) {
	if holdsNothing(s.Settings) {
		return
	}
	r.Sources = append(r.Sources, s)
	for k, v := range s.Settings {
		r.Effective[k] = merge(r.Effective[k], v)
		r.Provenance[k] = Provenance{Source: s.Source, Path: s.Path}
	}
}

// merge merges v (a higher tier's) into have: objects key by key, arrays joined without
// repeating a scalar, anything else replaced.
func merge(have, v any) any {
	switch nv := v.(type) {
	case map[string]any:
		hm, ok := have.(map[string]any)
		if !ok {
			hm = map[string]any{}
		} else {
			hm = cloneMap(hm)
		}
		for k, x := range nv {
			hm[k] = merge(hm[k], x)
		}
		return hm
	case []any:
		ha, ok := have.([]any)
		if !ok {
			return slices.Clone(nv)
		}
		out := slices.Clone(ha)
		for _, x := range nv {
			if isScalar(x) && slices.Contains(out, x) {
				continue
			}
			out = append(out, x)
		}
		return out
	}
	return v
}

// holdsNothing reports whether m has no key, or only empty objects (as the SDK's {"hooks":{}}):
// the CLI lists no such tier.
func holdsNothing(m map[string]any) bool {
	for _, v := range m {
		if o, ok := v.(map[string]any); !ok || !holdsNothing(o) {
			return false
		}
	}
	return true
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, float64, bool, nil:
		return true
	}
	return false
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// readObject reads a settings file: a JSON object.
func readObject(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(b)) == "" {
		return nil, nil // an empty file holds no settings
	}
	return decodeObject(b)
}

func decodeObject(b []byte) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if m == nil {
		return nil, errors.New("not a JSON object: null")
	}
	return m, nil
}
