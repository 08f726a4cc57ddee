package project

import (
	"errors"
	"path/filepath"
	"strings"
)

// CheckPluginDirs refuses each plugin directory (or .zip) of plugins that lies inside one of the
// repository's directories (dirs: the working directory, the config root): a plugin's hooks,
// MCP servers, skills and agents run with the program's trust, unchecked, so a plugin the
// repository wrote would run its code on the host. A plugin is inside a directory when its path
// is, as given or with symbolic links resolved: a link in the repository is the repository's
// choice of where it leads.
//
// A relative plugin path is the CLI's, which runs in base (the session's working directory):
// it is taken relative to base, not to this process's directory.
func CheckPluginDirs(base string, dirs, plugins []string) error {
	var errs []error
	for _, p := range plugins {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		for _, d := range dirs {
			if d != "" && (within(lexicalPath(p), lexicalPath(d)) || within(resolvedPath(p), resolvedPath(d))) {
				errs = append(errs, &Error{File: p,
					Reason: "a plugin inside the repository (" + d + "): its hooks, MCP servers, skills and agents would run on the host unchecked",
					Fix:    "give v2.WithPluginDirs a plugin directory outside the repository, one the program chose and reviewed"})
				break
			}
		}
	}
	return errors.Join(errs...)
}

// within reports whether path is dir or below it (both clean and absolute; every path is below
// "/").
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// lexicalPath is path made absolute and clean.
func lexicalPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// resolvedPath is lexicalPath with its symbolic links resolved, when it exists.
func resolvedPath(path string) string {
	path = lexicalPath(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}
