package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// MemoryNames are the memory files the CLI (2.1.332) loads from the working directory and each
// directory above it, and from a subdirectory when a tool reads a file there.
var MemoryNames = []string{"CLAUDE.md", "AGENTS.md", filepath.Join(".claude", "CLAUDE.md"), filepath.Join(".claude", "AGENTS.md")}

// localMemory is loaded with the local settings.
const localMemory = "CLAUDE.local.md"

// MaxEntries bounds the walk of the working directory's tree: a tree larger than this is refused
// (the SDK cannot vouch for what it did not read). Use v2.WithTrustedProjectMemory for such a tree.
const MaxEntries = 200000

// importRE is a memory file's import (@path), which the CLI reads into the model's context too.
var importRE = regexp.MustCompile(`(?:^|\s)@([^\s]+)`)

// checkTree checks what the CLI loads from the working directory's tree and the directories above
// it (up to, not including, the home directory), and the .claude tree of root (the config root).
func checkTree(scope Scope, root string) []error {
	var errs []error
	for d := filepath.Dir(scope.Dir); d != scope.Home && d != filepath.Dir(d); d = filepath.Dir(d) {
		errs = append(errs, checkDir(scope, d, d)...)
	}
	n := 0
	walkErr := filepath.WalkDir(scope.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > MaxEntries {
			return errTooMany
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			errs = append(errs, checkDir(scope, path, scope.Dir)...)
		}
		return nil
	})
	if walkErr != nil {
		errs = append(errs, &Error{File: scope.Dir, Reason: fmt.Sprintf("the SDK could not read the whole tree (%v), so it cannot vouch for the memory files, skills and agents the CLI would load from it", walkErr),
			Fix: "leave the project's files out (drop v2.WithTrustedProject) and pass its memory with v2.WithTrustedProjectMemory"})
	}
	if root != scope.Dir {
		errs = append(errs, checkDir(scope, root, root)...)
	}
	return errs
}

var errTooMany = fmt.Errorf("project: more than %d files", MaxEntries)

// checkDir checks the memory files of dir and its .claude tree; base is the directory an
// import may not leave.
func checkDir(scope Scope, dir, base string) []error {
	var errs []error
	names := MemoryNames
	if scope.Local {
		names = append(names[:len(names):len(names)], localMemory)
	}
	if scope.Project {
		for _, n := range names {
			errs = append(errs, checkMemory(filepath.Join(dir, n), base, scope.Home)...)
		}
	} else if scope.Local {
		errs = append(errs, checkMemory(filepath.Join(dir, localMemory), base, scope.Home)...)
	}
	dotClaude := filepath.Join(dir, ".claude")
	fi, err := os.Lstat(dotClaude)
	switch {
	case err != nil:
		return errs
	case !fi.IsDir():
		return append(errs, linkError(dotClaude, fi))
	case !scope.Project:
		return errs
	}
	for _, sub := range []struct {
		dir  string
		kind kind
	}{{"skills", kindSkill}, {"commands", kindCommand}, {"agents", kindAgent}, {"rules", -1}, {"output-styles", -1}} {
		errs = append(errs, checkClaudeSubtree(filepath.Join(dotClaude, sub.dir), sub.kind, base, scope.Home)...)
	}
	return errs
}

// checkClaudeSubtree checks every file under dir: no links; each markdown file as a skill
// (SKILL.md only), command or agent (k), or as memory (k < 0: rules and output styles).
func checkClaudeSubtree(dir string, k kind, base, home string) []error {
	var errs []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.IsDir() && !d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			errs = append(errs, linkError(path, fi))
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		if k < 0 {
			errs = append(errs, checkMemory(path, base, home)...)
			return nil
		}
		if k == kindSkill && d.Name() != "SKILL.md" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		errs = append(errs, checkMarkdown(path, k, string(data))...)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, &Error{File: dir, Reason: fmt.Sprintf("unreadable (%v)", err), Fix: fixFrontmatter})
	}
	return errs
}

// checkMemory checks one memory file: a regular file (not a link), whose imports (@path) stay
// inside base and are not links either. A missing file is no refusal.
func checkMemory(path, base, home string) []error {
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, m := range importRE.FindAllStringSubmatch(string(data), -1) {
		if reason := badImport(m[1], filepath.Dir(path), base, home); reason != "" {
			errs = append(errs, &Error{File: path, Key: "@" + m[1], Reason: "an import the CLI would read into the model's context: " + reason,
				Fix: "remove the import, or leave the project's files out (drop v2.WithTrustedProject) and pass its memory with v2.WithTrustedProjectMemory, which reads no imports"})
		}
	}
	return errs
}

// badImport says why an import target is refused, or "".
func badImport(target, dir, base, home string) string {
	p := target
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		return "a file of the home directory"
	case !filepath.IsAbs(p):
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	if rel, err := filepath.Rel(base, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "a file outside the project"
	}
	for q := p; q != base && q != filepath.Dir(q); q = filepath.Dir(q) {
		if fi, err := os.Lstat(q); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "a path through a symbolic link (" + q + ")"
		}
	}
	return ""
}
