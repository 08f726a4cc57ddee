package project

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AgentMode is the permission mode an agent file asks for (its frontmatter's permissionMode).
type AgentMode struct {
	File string // the agent's file
	Name string // the frontmatter's name, else the file's base name without ".md"
	Mode string // "" when the file sets none
}

// AgentModes reads the permissionMode of each agent file (*.md) under dir, an agents directory
// such as the user's ~/.claude/agents, as the CLI reads it. A missing dir has none. A file whose
// frontmatter the SDK cannot read as plain "key: value" lines is an error naming it: the SDK
// cannot tell which mode the CLI would take from it. At most MaxEntries entries are read.
func AgentModes(dir string) ([]AgentMode, error) {
	var out []AgentMode
	n := 0
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // a linked agents directory (a dotfiles manager's) is walked, as the CLI reads it
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			if path == dir && os.IsNotExist(err) {
				return fs.SkipAll
			}
			return err
		case n > MaxEntries:
			return errTooMany
		case d.IsDir() || !strings.EqualFold(filepath.Ext(d.Name()), ".md"):
			n++
			return nil
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		a := AgentMode{File: path, Name: strings.TrimSuffix(d.Name(), filepath.Ext(d.Name()))}
		text := strings.ReplaceAll(strings.TrimPrefix(string(b), "\ufeff"), "\r\n", "\n")
		if m := frontmatterRE.FindStringSubmatch(text); m != nil {
			fields, bad := frontmatterFields(m[1])
			if bad != "" {
				return fmt.Errorf("project: %s: the frontmatter line %q is not a plain \"key: value\" field, so the SDK cannot tell the agent's permissionMode", path, bad)
			}
			unquote := func(v string) string { return strings.Trim(strings.TrimSpace(v), `"'`) }
			if v := unquote(fields["name"]); v != "" {
				a.Name = v
			}
			a.Mode = unquote(fields["permissionMode"])
		}
		out = append(out, a)
		return nil
	})
	return out, err
}
