package confine

import (
	"os"
	"path/filepath"
	"slices"
)

// readGrants is what the ruleset lets the CLI read: all of the file system but the denied paths.
// Landlock only grants, and a grant covers a whole hierarchy, so a denied path is left out by
// granting its siblings instead, on every level from / down to it.
type readGrants struct {
	trees []string // read (and execute) everything below
	files []string // read (and execute) this file
	lists []string // list only (reading a directory's entries covers the directories below it)
}

// readable returns the grants for reading everything but deny (absolute paths; each symbolic link
// among them denies its target too). An entry that is a link into a denied path is not granted.
func readable(deny []string) readGrants {
	var g readGrants
	deny = resolved(deny)
	g.walk("/", deny)
	return g
}

func (g *readGrants) walk(dir string, deny []string) {
	if slices.ContainsFunc(deny, func(d string) bool { return within(dir, d) }) {
		return
	}
	if !slices.ContainsFunc(deny, func(d string) bool { return within(d, dir) }) {
		g.trees = append(g.trees, dir)
		return
	}
	g.lists = append(g.lists, dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		target := path
		if e.Type()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(path)
			if err != nil {
				continue // dangling: nothing to read
			}
			target = real
			if slices.ContainsFunc(deny, func(d string) bool { return within(target, d) || within(d, target) }) {
				continue // a way into a denied path, or around one
			}
		}
		fi, err := os.Stat(target)
		switch {
		case err != nil:
		case fi.IsDir() && target == path:
			g.walk(path, deny)
		case fi.IsDir():
			g.trees = append(g.trees, path)
		case slices.ContainsFunc(deny, func(d string) bool { return within(path, d) }):
		default:
			g.files = append(g.files, path)
		}
	}
}
